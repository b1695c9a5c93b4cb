/** The process around the API: the early "starting" listener, the first start's waiting gate, and /health. */
export { listenEarly } from './early-listener';
export { healthRoutes } from './health.routes';
export { preparingGate } from './preparing-gate';
