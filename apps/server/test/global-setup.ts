import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';
import { startThrowawayCluster, type ThrowawayCluster } from './postgres-cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    testDb:
      { kind: 'pglite'; snapshotFile: string } | { kind: 'postgres'; adminUrl: string; template: string };
  }
}

const TEMPLATE = 'backbeat_template';

/**
 * Migrates one database per run. PGlite: a migrated data dir is dumped to a tarball that each test file loads
 * (opening a new PGlite costs seconds). PostgreSQL: a migrated template database that each file clones.
 */
export default async function setup(project: TestProject) {
  if (process.env.TEST_DB === 'postgres') {
    let cluster: ThrowawayCluster | null = null;
    let adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) {
      cluster = await startThrowawayCluster();
      adminUrl = cluster.url;
    }
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE}`);
    await admin.query(`CREATE DATABASE ${TEMPLATE}`);
    await admin.end();
    const templateUrl = new URL(adminUrl);
    templateUrl.pathname = `/${TEMPLATE}`;
    const database = await openDatabase({ kind: 'postgres', url: templateUrl.toString(), max: 1 });
    await database.migrate();
    await database.close();
    project.provide('testDb', { kind: 'postgres', adminUrl, template: TEMPLATE });
    console.log(`[test] real PostgreSQL: ${cluster ? 'throwaway cluster' : 'TEST_DATABASE_URL'} ${adminUrl}`);
    return () => cluster?.stop();
  }

  const dir = mkdtempSync(path.join(tmpdir(), 'backbeat-pglite-'));
  const database = await openDatabase({ kind: 'pglite' });
  await database.migrate();
  const client = (database.db as unknown as { $client: { dumpDataDir(c?: 'none'): Promise<Blob> } }).$client;
  const dump = await client.dumpDataDir('none');
  const snapshotFile = path.join(dir, 'migrated.tar');
  writeFileSync(snapshotFile, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide('testDb', { kind: 'pglite', snapshotFile });
  return () => rmSync(dir, { recursive: true, force: true });
}
