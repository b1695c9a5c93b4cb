import { modelSuite } from './payments-model/suite';

modelSuite('stripe');
