/** The dashboards feature's public surface: artist and admin dashboards. */
export * from './dashboard.api';
export type * from './dashboard.types';
export { StatCard } from './components/stat-card';
export { TransactionsList } from './components/transactions-list';
export { DashboardView } from './components/dashboard-view';
export { ArtistSubscribers } from './components/artist-subscribers';
export { ArtistDashboard } from './components/artist-dashboard';
export { PaymentsHealth } from './components/payments-health';
