import { openDatabase, sql } from '../src/db/client';

/**
 * A separate process writing to a PGlite directory (argv[2]) as fast as it can, one commit after another, and
 * acknowledging each to its parent over IPC only once the write has returned: what the parent was told is what
 * the database promised to keep. Runs until killed.
 */
const database = await openDatabase({ kind: 'pglite', dataDir: process.argv[2]! });
await database.query(sql`create table if not exists acked (n integer primary key, note text not null)`);
const [first] = await database.query<{ next: number }>(
  sql`select coalesce(max(n), 0) + 1 as next from acked`,
);
for (let n = first!.next; ; n += 1) {
  if (n % 5 === 0) {
    // Now and then several rows in one transaction: all of them, or none.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into acked (n, note) values (${n}, ${'batch'})`);
      await tx.execute(sql`update acked set note = note || '+' where n = ${n - 1}`);
    });
  } else {
    await database.query(sql`insert into acked (n, note) values (${n}, ${'x'.repeat(n % 300)})`);
  }
  process.send!({ n });
}
