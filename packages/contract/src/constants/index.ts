/**
 * The contract's plain values (limits, messages, error codes), without zod: the web imports them from
 * `@backbeat/contract/constants` instead of restating them, and its bundle stays free of the schemas. Each value is
 * also exported from the module of its calls (payments, playlists, catalog), as before.
 */

// One module per area: a web chunk then carries only the values of the features it loads.
export * from './catalog';
export * from './playlists';
export * from './payments';
export * from './subscriptions';
