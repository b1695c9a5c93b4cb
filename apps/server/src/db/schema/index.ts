export * from './enums';
export * from './users';
export * from './catalog';
export * from './commerce';
export * from './jobs';
export * from './dashboard';
export * from './downloads';
