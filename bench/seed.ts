/** Rows written straight into the gateway's tables, for scenarios that need many payments fast. */
import { join } from 'node:path';
import { Client } from 'pg';

export type Sql = (text: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;

/** Runs `work` with SQL on the gateway's database: PostgreSQL by URL, or the embedded data directory (the gateway must be stopped). */
export async function withSql<T>(target: { url: string } | { dataDir: string }, work: (sql: Sql) => Promise<T>): Promise<T> {
  if ('url' in target) {
    const client = new Client({ connectionString: target.url });
    await client.connect();
    try {
      return await work(async (text, params) => (await client.query(text, params)).rows as Record<string, unknown>[]);
    } finally {
      await client.end();
    }
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const db = new PGlite(join(target.dataDir, 'pgdata'));
  await db.waitReady;
  try {
    return await work(async (text, params) => (await db.query<Record<string, unknown>>(text, params)).rows);
  } finally {
    await db.close();
  }
}

/**
 * Copies the payment `templateId` `count` times, each with its own id, txid, provider id and
 * external id, older than the template by one second per copy; returns the new ids when asked.
 * `fillerQr` replaces the copies' QR image (about 3 KB each) with a short string: a million real
 * images would take gigabytes and minutes to write, and a read by key fetches one row either way.
 * `closed` seeds them expired, and `fresh` as old as the template: a pending payment older than
 * RECONCILE_AFTER_SECONDS is work for the gateway's reconciliation (a read-back at the PSP), which
 * the floor does not do, and which would land in whichever run it happens to overlap.
 */
export async function seedPayments(
  sql: Sql,
  templateId: string,
  count: number,
  options: { fillerQr?: boolean; returnIds?: boolean; closed?: boolean; fresh?: boolean } = {},
): Promise<string[]> {
  const columns = (await sql(`SELECT column_name FROM information_schema.columns WHERE table_name = 'payments' AND table_schema = current_schema() ORDER BY ordinal_position`)).map(
    (r) => r.column_name as string,
  );
  // Unique by the series and a per-call tag (no hashing per row: seeding a million rows is mostly index upkeep already).
  const tag = Math.random()
    .toString(36)
    .slice(2, 8)
    .replace(/[^0-9a-z]/g, '0')
    .padEnd(6, '0');
  const replaced: Record<string, string> = {
    id: `'pay_${tag}' || lpad(g::text, 18, '0')`,
    txid: `'${tag}' || lpad(g::text, 26, '0')`,
    checkout_token: `'ck${tag}' || lpad(g::text, 24, '0')`,
    provider_payment_id: `'seed_${tag}_' || g::text`,
    external_id: `'seed-' || g::text`,
    created_at: options.fresh ? 't.created_at' : `t.created_at - g * interval '1 second'`,
    updated_at: options.fresh ? 't.updated_at' : `t.updated_at - g * interval '1 second'`,
    ...(options.fillerQr ? { pix_qr_png: `'data:image/png;base64,'` } : {}),
    ...(options.closed ? { status: `'expired'` } : {}),
  };
  const select = columns.map((c) => replaced[c] ?? `t.${c}`).join(', ');
  const returning = options.returnIds ? ' RETURNING id' : '';
  const ids: string[] = [];
  // In batches, so that each statement stays short and memory flat.
  const batch = 100_000;
  // A seed that is lost in a crash is simply seeded again: no need to wait for each commit's flush.
  await sql('SET synchronous_commit = off');
  for (let done = 0; done < count; done += batch) {
    const n = Math.min(batch, count - done);
    const rows = await sql(
      `INSERT INTO payments (${columns.join(', ')}) SELECT ${select} FROM payments t CROSS JOIN generate_series($2::int, $3::int) g WHERE t.id = $1${returning}`,
      [templateId, done + 1, done + n],
    );
    if (options.returnIds) ids.push(...rows.map((r) => r.id as string));
  }
  await sql('ANALYZE payments');
  return ids;
}
