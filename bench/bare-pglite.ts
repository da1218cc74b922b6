/**
 * The embedded database alone: a process that opens the data directory the embedded gateway used
 * (the same schema and rows), with the gateway's start parameters, answers one `SELECT 1`, and
 * prints its resident memory. `npm run bench` holds the embedded gateway's
 * memory against this figure (docs/performance.md, Memory).
 *
 * Usage: node dist/bench/bare-pglite.js <DATA_DIR>; prints {"rssMb": …, "peakMb": …}.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { EMBEDDED_TUNING } from '../src/database/embedded-database';

async function main(): Promise<void> {
  const db = new PGlite(join(process.argv[2]!, 'pgdata'), EMBEDDED_TUNING);
  await db.waitReady;
  await db.query('SELECT 1');
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  process.stdout.write(`${JSON.stringify({ rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 })}\n`);
  await db.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
