import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateSigningSecret } from '../../src/merchants/signing-secret';
import { apiClients } from '../helpers/clients';
import { paymentBody } from '../helpers/factories';
import { ensureBuilt, GatewayProcess, startGatewayProcess } from '../helpers/gateway-process';
import { http, HttpResult } from '../helpers/http';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { createTestPostgresDatabase, describeOn, testDatabase } from '../helpers/test-env';

/**
 * Issue 3 item 7: the gateway is SIGKILLed with events acknowledged but not yet delivered, with
 * deliveries in flight (the merchant's endpoint holds the request) and with events arriving; after
 * a restart every event reaches the merchant at least once and none is applied twice. Runs the
 * built gateway (`node dist/src/main.js`) as a child process.
 */

const EVENTS = 12;
/** The worker sends; attempts end after 2 s; a dead process's leases lapse 3 s after they were taken. */
const WORKER_ON = { DELIVERY_POLL_MS: '50', DELIVERY_TIMEOUT_MS: '2000', DELIVERY_LEASE_MS: '3000', DELIVERY_RETRY_SCHEDULE_MS: '200,200,200,200,200,200,200' };
const SLOW_TEST_MS = 180_000;

/** The sandbox's event for a payment; the same object every time, as a provider retrying it would send. */
const eventFor = (paymentId: string) => ({
  event: 'payment.confirmed',
  id: `evt_sbx_crash_${paymentId}`,
  created_at: '2026-01-01T12:00:00.000Z',
  data: { id: paymentId, amount: 10.5, status: 'CONCLUIDA' },
});

/** Posts an event; null when the process died before answering. */
async function postEvent(gw: GatewayProcess, paymentId: string): Promise<HttpResult | null> {
  try {
    return await http(gw.url, 'POST', '/webhooks/sandbox', { body: eventFor(paymentId) });
  } catch {
    return null;
  }
}

async function killHard(gw: GatewayProcess): Promise<void> {
  gw.kill('SIGKILL');
  expect(await gw.exited).toBe('SIGKILL');
}

async function stopGracefully(gw: GatewayProcess): Promise<void> {
  gw.kill('SIGTERM');
  expect(await gw.exited).toBe(0);
}

/** A merchant with a signing secret whose webhook URL is `receiver`, and `count` payments, made over HTTP. */
async function merchantWithPayments(gw: GatewayProcess, receiver: MerchantReceiver, secret: string, count: number): Promise<{ merchantId: string; paymentIds: string[] }> {
  const api = apiClients(gw.url);
  const merchant = await api.admin.newMerchant({ webhook_url: receiver.url, webhook_signing_secret: secret });
  const paymentIds: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await api.merchant(merchant.apiKey).POST('/v1/payments/create', { body: paymentBody(), params: { header: { 'Idempotency-Key': `crash-${i}` } } });
    if (!res.data) throw new Error(`creating a payment failed: ${res.status} ${JSON.stringify(res.body)}`);
    paymentIds.push(res.data.id);
  }
  return { merchantId: merchant.id, paymentIds };
}

async function deliveriesOf(gw: GatewayProcess, merchantId: string, status: 'pending' | 'delivered' | 'failed'): Promise<{ id: string; payment_id: string | null }[]> {
  const res = await apiClients(gw.url).admin.GET('/admin/api/webhook-deliveries', { params: { query: { merchant_id: merchantId, status, limit: 100 } } });
  if (!res.data) throw new Error(`listing deliveries failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.data.items;
}

async function waitForAllDelivered(gw: GatewayProcess, merchantId: string, count: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((await deliveriesOf(gw, merchantId, 'delivered')).length < count) {
    if (Date.now() > deadline) throw new Error(`not all ${count} deliveries were delivered within ${timeoutMs} ms:\n${gw.output().slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * What must hold at the end whatever happened: each payment was moved by exactly one event and
 * has exactly one delivery, delivered; the merchant received and verified every forward (possibly
 * more than once, always with the same webhook-id); nothing is pending or failed.
 */
async function expectEveryEventOnceAndDelivered(gw: GatewayProcess, receiver: MerchantReceiver, merchantId: string, paymentIds: string[]): Promise<void> {
  for (const id of paymentIds) {
    const detail = (await apiClients(gw.url).admin.GET('/admin/api/payments/{id}', { params: { path: { id } } })).data!;
    expect(detail.status).toBe('paid');
    expect(detail.events.map((e) => e.outcome)).toEqual(['applied']);
    expect(detail.deliveries).toHaveLength(1);
    const delivery = detail.deliveries[0]!;
    expect(delivery.status).toBe('delivered');
    const got = receiver.forDelivery(delivery.id);
    expect(got.length).toBeGreaterThanOrEqual(1);
    expect(got.every((r) => r.verified && r.body.data.id === id && r.headers['x-request-id'] === got[0]!.headers['x-request-id'])).toBe(true);
    expect(got.some((r) => r.status === 200)).toBe(true);
  }
  expect(await deliveriesOf(gw, merchantId, 'pending')).toEqual([]);
  expect(await deliveriesOf(gw, merchantId, 'failed')).toEqual([]);
  expect(new Set(receiver.received.map((r) => r.body.data.id))).toEqual(new Set(paymentIds));
}

interface Database {
  name: string;
  env: () => Promise<Record<string, string>>;
  cleanup: () => Promise<void>;
}

function embedded(): Database {
  let dir: string | undefined;
  return {
    name: 'the embedded database',
    env: async () => ({ DATA_DIR: (dir = mkdtempSync(join(tmpdir(), 'gw-crash-'))) }),
    cleanup: async () => {
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

function postgres(): Database {
  let db: { url: string; drop: () => Promise<void> } | undefined;
  return {
    name: 'PostgreSQL',
    env: async () => ({ DATABASE_URL: (db = await createTestPostgresDatabase()).url }),
    cleanup: async () => db?.drop(),
  };
}

const databases = [testDatabase() === 'postgres' ? postgres() : embedded()];

beforeAll(() => ensureBuilt(), SLOW_TEST_MS);

describe.each(databases.map((db) => [db.name, db] as const))('crash safety on %s', (_name, database) => {
  const SECRET = generateSigningSecret();
  let receiver: MerchantReceiver;
  const running: GatewayProcess[] = [];
  const start = async (env: Record<string, string>) => {
    const gw = await startGatewayProcess(env);
    running.push(gw);
    return gw;
  };
  beforeAll(async () => {
    receiver = await MerchantReceiver.start({ secret: SECRET });
  });
  afterAll(async () => {
    for (const gw of running) gw.kill('SIGKILL');
    await receiver.close();
    await database.cleanup();
  });

  it(
    'loses no event and applies none twice when killed with deliveries queued and in flight and events arriving',
    async () => {
      const dbEnv = await database.env();

      // First life: the merchant's endpoint hangs and at most 4 deliveries are in flight, so of the
      // acknowledged events some are being delivered and the rest are queued, not yet claimed.
      receiver.respondWith(() => 'hold');
      const first = await start({ ...dbEnv, ...WORKER_ON, DELIVERY_CONCURRENCY: '4' });
      const { merchantId, paymentIds } = await merchantWithPayments(first, receiver, SECRET, EVENTS);
      const half = EVENTS / 2;
      for (const id of paymentIds.slice(0, half)) expect((await postEvent(first, id))?.body.data).toMatchObject({ applied: true, forward: 'queued' });
      await receiver.waitForCount(4);
      // The rest arrive as the process dies: some may be applied, some not, none answered for sure.
      const burst = Promise.all(paymentIds.slice(half).map((id) => postEvent(first, id)));
      await killHard(first);
      await burst;
      const inFlightAtCrash = receiver.received.map((r) => r.headers['webhook-id']);

      // Second life (the embedded lock of the killed process is taken over): the provider sends
      // every event again, since it never saw some answers; the endpoint answers now. Everything
      // queued, or stranded in flight until its lease lapses, arrives.
      receiver.respondWith(() => ({ status: 200 }));
      const second = await start({ ...dbEnv, ...WORKER_ON });
      for (const id of paymentIds) expect((await postEvent(second, id))?.status).toBe(200);
      await waitForAllDelivered(second, merchantId, EVENTS);
      await expectEveryEventOnceAndDelivered(second, receiver, merchantId, paymentIds);
      for (const webhookId of inFlightAtCrash) expect(receiver.received.some((r) => r.headers['webhook-id'] === webhookId && r.status === 200)).toBe(true);
      await stopGracefully(second);
    },
    SLOW_TEST_MS,
  );
});

describeOn('postgres', 'two processes share one database')('crash safety with two gateway processes on one PostgreSQL', () => {
  const SECRET = generateSigningSecret();
  let receiver: MerchantReceiver;
  let db: { url: string; drop: () => Promise<void> };
  const running: GatewayProcess[] = [];
  beforeAll(async () => {
    receiver = await MerchantReceiver.start({ secret: SECRET });
    db = await createTestPostgresDatabase();
  });
  afterAll(async () => {
    for (const gw of running) gw.kill('SIGKILL');
    await receiver.close();
    await db.drop();
  });

  it(
    'the survivor delivers what the killed process had claimed, once its leases lapse',
    async () => {
      const env = { DATABASE_URL: db.url, ...WORKER_ON };
      const [doomed, survivor] = await Promise.all([startGatewayProcess(env), startGatewayProcess(env)]);
      running.push(doomed, survivor);
      const { merchantId, paymentIds } = await merchantWithPayments(survivor, receiver, SECRET, EVENTS);

      // Both take events and both claim deliveries; the endpoint hangs, so claims pile up in flight.
      receiver.respondWith(() => 'hold');
      const answers = await Promise.all(paymentIds.map((id, i) => postEvent(i % 2 ? doomed : survivor, id)));
      expect(answers.every((a) => a?.status === 200)).toBe(true);
      await receiver.waitForCount(EVENTS / 2);
      await killHard(doomed);

      receiver.respondWith(() => ({ status: 200 }));
      await waitForAllDelivered(survivor, merchantId, EVENTS);
      await expectEveryEventOnceAndDelivered(survivor, receiver, merchantId, paymentIds);
      await stopGracefully(survivor);
    },
    SLOW_TEST_MS,
  );
});
