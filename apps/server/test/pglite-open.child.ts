import { openDatabase } from '../src/db/client';

/**
 * A separate process opening a PGlite directory (argv[2]): prints `open` and holds it until killed, or prints the
 * refusal on stderr and exits 1 (as `npm start` does).
 */
openDatabase({ kind: 'pglite', dataDir: process.argv[2]! }).then(
  () => {
    process.stdout.write('open\n');
    setInterval(() => undefined, 60_000);
  },
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
