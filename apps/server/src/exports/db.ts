/*
 * `@backbeat/server/db`: the database and what writing its rows directly needs (benches seed large catalogues
 * without going through the API): the schema's tables, the session token and password hashes, the search text
 * stored beside names and titles.
 */
// The auth module's request and reply typings come from the cookie plugin's augmentation, loaded with it here.
import type {} from '@fastify/cookie';

export { openDatabase, type Database, type DatabaseOptions } from '../db/client';
export * from '../db/schema';
export { hashToken } from '../platform/session-token';
export { hashPassword } from '../modules/auth';
export { titleSearchText, toSearchText } from '../modules/catalog';
