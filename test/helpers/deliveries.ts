import { randomBytes } from 'node:crypto';
import { eventually } from './eventually';
import { http, HttpResult } from './http';
import type { TestApp } from './test-app';

// What the webhook delivery specs share: settings that run the whole retry schedule inside a test,
// the real intake to queue a forward, and the delivery's rows to wait on.

/**
 * Short waits so the whole retry schedule runs inside a test: three retries 200 ms apart (four
 * attempts), a 2 s attempt timeout (short, yet long enough for a busy test process), a fast poll.
 */
export const DELIVERY_ENV = { DELIVERY_POLL_MS: '50', DELIVERY_RETRY_SCHEDULE_MS: '200,200,200', DELIVERY_TIMEOUT_MS: '2000', DELIVERY_LEASE_MS: '5000' };

/** Sends a sandbox event through the real intake (unsigned: no SANDBOX_WEBHOOK_SECRET in these apps). */
export async function confirmPayment(t: TestApp, paymentId: string): Promise<HttpResult> {
  const event = {
    event: 'payment.confirmed',
    id: `evt_sbx_${randomBytes(8).toString('hex')}`,
    created_at: new Date().toISOString(),
    data: { id: paymentId, amount: 10.5, status: 'CONCLUIDA' },
  };
  const res = await http(t.url, 'POST', '/webhooks/sandbox', { body: event });
  expect(res.status).toBe(200);
  return res;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Row = Record<string, any>;
/** Anything with the database: a booted app (TestApp) or a medium-tier context. */
type WithDatabase = Pick<TestApp, 'dataSource'>;
export const deliveryOf = async (t: WithDatabase, paymentId: string): Promise<Row | undefined> =>
  (await t.dataSource.query(`SELECT * FROM webhook_deliveries WHERE payment_id = $1`, [paymentId]))[0];
export const attemptsOf = (t: WithDatabase, deliveryId: string): Promise<Row[]> =>
  t.dataSource.query(`SELECT attempt, url, status_code, latency_ms, error, attempted_at FROM webhook_delivery_attempts WHERE delivery_id = $1 ORDER BY attempt`, [deliveryId]);
export const settled = (t: WithDatabase, paymentId: string, status: string, attempts: number) =>
  eventually(
    () => deliveryOf(t, paymentId),
    (d) => d?.status === status && d.attempts === attempts,
  );
