/*
 * `@backbeat/server/app`: building and configuring the API in-process (benches, browser journeys). One of the
 * package's few public entry points (package.json `exports`); nothing outside apps/server reaches into src/.
 */
export { buildApp, type AppDeps } from '../app';
export { loadConfig, type Config } from '../config';
/** The stream key path's access query, which the stream bench times on its own. */
export { StreamingRepository } from '../modules/streaming';
