/** The library feature's public surface: liked songs, purchases, subscriptions. */
export * from './library.api';
export type * from './library.types';
export { PaymentHistoryList } from './components/payment-history-list';
export { PaymentStatus } from './components/payment-status';
