import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiClients } from '../helpers/clients';
import { paymentBody } from '../helpers/factories';
import { GatewayProcess, startGatewayProcess } from '../helpers/gateway-process';
import { eventually } from '../helpers/eventually';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { createTestPostgresDatabase, testDatabase, TestDatabaseKind } from '../helpers/test-env';

/**
 * SIGTERM on the built gateway with a delivery in flight: it finishes within SHUTDOWN_TIMEOUT_MS
 * and is not sent again, or it is given up before SHUTDOWN_TIMEOUT_MS and sent again after the
 * restart. Each test is one restart: two lifetimes of one gateway on one database.
 */
jest.setTimeout(120_000);

/** Resolves once the process has printed `text`. */
async function waitForOutput(gw: GatewayProcess, text: string): Promise<void> {
  await eventually(
    () => gw.output(),
    (output) => output.includes(text),
  );
}

/** A database the gateway keeps across a restart: an embedded data directory, or a fresh PostgreSQL database. */
async function durableDatabase(kind: TestDatabaseKind, dirs: string[]): Promise<{ env: Record<string, string>; drop: () => Promise<void> }> {
  if (kind === 'postgres') {
    const pg = await createTestPostgresDatabase();
    return { env: { DATABASE_URL: pg.url }, drop: pg.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'gw-shutdown-'));
  dirs.push(dir);
  return { env: { DATA_DIR: dir }, drop: () => Promise.resolve() };
}

/** A merchant whose webhook_url is `receiver`, with a payment confirmed through the sandbox: one delivery queued. */
async function confirmedPayment(gw: GatewayProcess, receiver: MerchantReceiver): Promise<{ merchantId: string; paymentId: string }> {
  const api = apiClients(gw.url);
  const shop = await api.admin.newMerchant({ webhook_url: receiver.url });
  const created = await api.merchant(shop.apiKey).POST('/v1/payments/create', { body: paymentBody(), params: { header: { 'Idempotency-Key': 'shutdown-1' } } });
  expect(created.status).toBe(201);
  const paymentId = created.data!.id;
  const simulated = await api.admin.POST('/admin/api/payments/{id}/simulate', { params: { path: { id: paymentId } }, body: { event: 'payment.confirmed' } });
  expect(simulated.status).toBeLessThan(300);
  return { merchantId: shop.id, paymentId };
}

async function deliveriesOf(gw: GatewayProcess, merchantId: string): Promise<{ id: string; status: string; attempts: number }[]> {
  const res = await apiClients(gw.url).admin.GET('/admin/api/webhook-deliveries', { params: { query: { merchant_id: merchantId } } });
  expect(res.status).toBe(200);
  return res.data!.items;
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe(`deliveries across a restart (${testDatabase()})`, () => {
  const kind = testDatabase();
  it('finishes and records the delivery in flight at SIGTERM: sent once, never again after the restart', async () => {
    const db = await durableDatabase(kind, dirs);
    const receiver = await MerchantReceiver.start();
    receiver.respondWith((r) => (r.seq === 1 ? 'hold' : { status: 200 }));
    const env = { ...db.env, DELIVERY_POLL_MS: '50', DELIVERY_TIMEOUT_MS: '20000', DELIVERY_LEASE_MS: '21000' };
    try {
      const gw = await startGatewayProcess(env);
      const { merchantId } = await confirmedPayment(gw, receiver);
      await receiver.waitForCount(1);
      gw.kill('SIGTERM');
      await waitForOutput(gw, 'SIGTERM received');
      receiver.releaseHeld(200);
      expect(await gw.exited).toBe(0);

      const again = await startGatewayProcess(env);
      expect(await deliveriesOf(again, merchantId)).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1 })]);
      expect(receiver.received).toHaveLength(1);
      again.kill('SIGTERM');
      expect(await again.exited).toBe(0);
    } finally {
      await receiver.close();
      await db.drop();
    }
  });

  it('does not wait past SHUTDOWN_TIMEOUT_MS for a delivery that hangs; the next start sends it again', async () => {
    const db = await durableDatabase(kind, dirs);
    const receiver = await MerchantReceiver.start();
    receiver.respondWith((r) => (r.seq === 1 ? 'hold' : { status: 200 }));
    const env = { ...db.env, DELIVERY_POLL_MS: '50', DELIVERY_TIMEOUT_MS: '3000', DELIVERY_LEASE_MS: '4000', SHUTDOWN_TIMEOUT_MS: '500', LOG_LEVEL: 'warn' };
    try {
      const gw = await startGatewayProcess(env);
      const { merchantId } = await confirmedPayment(gw, receiver);
      await receiver.waitForCount(1);
      gw.kill('SIGTERM');
      // Exit 1: it abandoned work, and says which.
      expect(await gw.exited).toBe(1);
      expect(gw.output()).toContain('still in flight at shutdown');
      expect(gw.output()).toMatch(/Shutdown finished in \d+ ms; abandoned: 1 delivery\n/);

      const again = await startGatewayProcess(env);
      await receiver.waitForCount(2, 30_000);
      expect(receiver.received[1]!.headers['webhook-id'] ?? receiver.received[1]!.body.id).toBe(receiver.received[0]!.headers['webhook-id'] ?? receiver.received[0]!.body.id);
      const delivered = await eventually(
        () => deliveriesOf(again, merchantId),
        (rows) => rows[0]?.status === 'delivered',
      );
      expect(delivered).toEqual([expect.objectContaining({ status: 'delivered' })]);
      again.kill('SIGTERM');
      expect(await again.exited).toBe(0);
    } finally {
      await receiver.close();
      await db.drop();
    }
  });
});
