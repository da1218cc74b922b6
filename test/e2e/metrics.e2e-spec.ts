import { randomBytes } from 'node:crypto';
import { paymentBody } from '../helpers/factories';
import { eventually } from '../helpers/eventually';
import { http } from '../helpers/http';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';

const METRICS_TOKEN = 'metrics-scraper-token-0123456789';

/** One sample of the exposition text: a series name, its labels and its value. */
interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)$/.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample of `name` whose labels include `labels` (undefined when there is none). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
}

describe('GET /metrics', () => {
  let t: TestApp;
  let receiver: MerchantReceiver;
  beforeAll(async () => {
    t = await startTestApp({ env: { METRICS_TOKEN, DELIVERY_POLL_MS: '50', DELIVERY_TIMEOUT_MS: '2000', DELIVERY_LEASE_MS: '5000' } });
    receiver = await MerchantReceiver.start();
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const scrape = async (token = METRICS_TOKEN) => {
    const res = await http(t.url, 'GET', '/metrics', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    return parseExposition(res.text);
  };

  it.each([
    ['without a token', {}],
    ['with a wrong token', { authorization: 'Bearer not-the-metrics-token' }],
    ['with a merchant key instead', { 'x-merchant-key': 'mk_live_0123456789abcdef0123456789abcdef' }],
  ])('answers 401 in the envelope %s', async (_name, headers: Record<string, string>) => {
    const res = await http(t.url, 'GET', '/metrics', { headers });
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' }, request_id: expect.any(String) });
  });

  it.each([
    ['METRICS_TOKEN', METRICS_TOKEN],
    ['the admin token', TEST_ADMIN_TOKEN],
  ])('answers Prometheus text, not the envelope, with %s', async (_name, token) => {
    const res = await http(t.url, 'GET', '/metrics', { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).not.toContain('"success"');
    const samples = parseExposition(res.text);
    expect(valueOf(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
  });

  it('counts a payment, its provider call, the intake of its events, the delivery and the backlog', async () => {
    const shop = await t.newMerchant({ webhookUrl: receiver.url });
    const created = await t.merchant(shop.apiKey).POST('/v1/payments/create', { body: paymentBody() });
    expect(created.status).toBe(201);
    const paymentId = created.data!.id;
    const sameAgain = await t.merchant(shop.apiKey).GET('/v1/payments/{id}', { params: { path: { id: paymentId } } });
    expect(sameAgain.status).toBe(200);

    const event = {
      event: 'payment.confirmed',
      id: `evt_sbx_${randomBytes(8).toString('hex')}`,
      created_at: new Date().toISOString(),
      data: { id: paymentId, amount: 10.5, status: 'CONCLUIDA' },
    };
    expect((await http(t.url, 'POST', '/webhooks/sandbox', { body: event })).body.data).toMatchObject({ applied: true });
    expect((await http(t.url, 'POST', '/webhooks/sandbox', { body: event })).body.data).toMatchObject({ duplicate: true });
    const stranger = { ...event, id: `evt_sbx_${randomBytes(8).toString('hex')}`, data: { ...event.data, id: 'pay_doesnotexist000000000000' } };
    expect((await http(t.url, 'POST', '/webhooks/sandbox', { body: stranger })).body.data).toMatchObject({ matched: false });
    await receiver.waitForCount(1);
    expect((await http(t.url, 'GET', '/no/such/route')).status).toBe(404);

    const samples = await eventually(
      () => scrape(),
      (s) => valueOf(s, 'webhook_delivery_attempts_total', { outcome: 'delivered' }) === 1,
    );
    const http_ = (labels: Record<string, string>) => valueOf(samples, 'http_request_duration_seconds_count', labels);
    expect(http_({ method: 'POST', route: '/v1/payments/create', status: '201' })).toBe(1);
    expect(http_({ method: 'GET', route: '/v1/payments/:id', status: '200' })).toBe(1);
    expect(http_({ method: 'POST', route: '/webhooks/:provider', status: '200' })).toBe(3);
    expect(http_({ method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(valueOf(samples, 'http_request_duration_seconds_bucket', { method: 'POST', route: '/v1/payments/create', status: '201', le: '+Inf' })).toBe(1);
    expect(samples.some((s) => s.name.startsWith('http_request') && (s.labels.route ?? '').includes(paymentId))).toBe(false);

    expect(valueOf(samples, 'payments_created_total', { provider: 'sandbox', outcome: 'created' })).toBe(1);
    expect(valueOf(samples, 'provider_call_duration_seconds_count', { account: 'sandbox', operation: 'create_charge', outcome: 'ok' })).toBe(1);
    expect(valueOf(samples, 'webhook_intake_total', { provider: 'sandbox', result: 'applied' })).toBe(1);
    expect(valueOf(samples, 'webhook_intake_total', { provider: 'sandbox', result: 'duplicate' })).toBe(1);
    expect(valueOf(samples, 'webhook_intake_total', { provider: 'sandbox', result: 'unmatched' })).toBe(1);
    expect(valueOf(samples, 'webhook_deliveries_waiting')).toBe(0);
    expect(valueOf(samples, 'webhook_deliveries_oldest_waiting_age_seconds')).toBe(0);

    // The backlog gauges are read from the table when scraped: a forward waiting for two minutes shows.
    await t.dataSource.query(
      `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now() + interval '1 hour', created_at = now() - interval '120 seconds' WHERE payment_id = $1`,
      [paymentId],
    );
    const later = await scrape(TEST_ADMIN_TOKEN);
    expect(valueOf(later, 'webhook_deliveries_waiting')).toBe(1);
    expect(valueOf(later, 'webhook_deliveries_oldest_waiting_age_seconds')).toBeGreaterThanOrEqual(120);
    expect(valueOf(later, 'webhook_deliveries_oldest_waiting_age_seconds')).toBeLessThan(180);
  });

  it('counts a payment the provider refused, and the refused call by its kind of failure', async () => {
    const shop = await t.newMerchant();
    const before = await scrape();
    const failed = (s: Sample[]) => valueOf(s, 'payments_created_total', { provider: 'sandbox', outcome: 'failed' }) ?? 0;
    const refusedCalls = (s: Sample[]) => valueOf(s, 'provider_call_duration_seconds_count', { account: 'sandbox', operation: 'create_charge', outcome: 'http' }) ?? 0;
    const inject = await http(t.url, 'POST', '/sandbox/_control/failures', {
      body: { mode: 'http_422', operation: 'create' },
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(inject.status).toBe(204);
    const res = await t.merchant(shop.apiKey).POST('/v1/payments/create', { body: paymentBody() });
    expect(res.status).toBe(502);
    const after = await scrape();
    expect(failed(after) - failed(before)).toBe(1);
    expect(refusedCalls(after) - refusedCalls(before)).toBe(1);
  });

  it('counts a failed delivery attempt that will be retried', async () => {
    const failing = await MerchantReceiver.start();
    try {
      failing.respondWith(() => ({ status: 500 }));
      const shop = await t.newMerchant({ webhookUrl: failing.url });
      const created = await t.merchant(shop.apiKey).POST('/v1/payments/create', { body: paymentBody() });
      const event = {
        event: 'payment.confirmed',
        id: `evt_sbx_${randomBytes(8).toString('hex')}`,
        created_at: new Date().toISOString(),
        data: { id: created.data!.id, amount: 10.5, status: 'CONCLUIDA' },
      };
      await http(t.url, 'POST', '/webhooks/sandbox', { body: event });
      await eventually(
        () => scrape(),
        (s) => (valueOf(s, 'webhook_delivery_attempts_total', { outcome: 'will_retry' }) ?? 0) >= 1,
      );
    } finally {
      await failing.close();
    }
  });
});
