/** The admin dashboard feature's public surface. */
export * from './dashboard.api';
export type * from './dashboard.types';
export { StatCard } from './components/stat-card';
export { TransactionsList } from './components/transactions-list';
