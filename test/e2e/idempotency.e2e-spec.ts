import { IdempotencyService } from '../../src/idempotency/idempotency.service';
import { eventually } from '../helpers/eventually';
import { MerchantFixture, paymentBody } from '../helpers/factories';
import { http } from '../helpers/http';
import { sandboxAuth, startTestApp, TestApp } from '../helpers/test-app';

/** Idempotency (docs/api.md, Idempotency): every rule, through real HTTP against the real sandbox PSP. */
describe('idempotency (HTTP)', () => {
  let t: TestApp;
  let shop: MerchantFixture;
  beforeAll(async () => {
    t = await startTestApp({ env: { UPSTREAM_TIMEOUT_MS: '1500' } });
    shop = await t.newMerchant();
  });
  afterEach(() => http(t.url, 'DELETE', '/sandbox/_control/failures', { headers: sandboxAuth(t.config) }));
  afterAll(() => t.close());

  const post = (key: string, body: unknown, path = '/v1/payments/create', merchant = shop) =>
    http(t.url, 'POST', path, { body, headers: { 'x-merchant-key': merchant.apiKey, 'idempotency-key': key } });
  const countPayments = async (merchantId: string) => Number((await t.dataSource.query('SELECT count(*) AS n FROM payments WHERE merchant_id = $1', [merchantId]))[0].n);
  const failNext = (mode: string, count = 1) => http(t.url, 'POST', '/sandbox/_control/failures', { body: { mode, count, operation: 'create' }, headers: sandboxAuth(t.config) });
  const sandboxCharges = async (txid: string) =>
    ((await http(t.url, 'GET', '/sandbox/_control/charges', { headers: sandboxAuth(t.config) })).body as { txid: string }[]).filter((charge) => charge.txid === txid);

  it('replays the first response byte for byte, with its request id and Idempotent-Replayed', async () => {
    const merchant = await t.newMerchant();
    const body = paymentBody();
    const first = await post('replay-1', body, '/v1/payments/create', merchant);
    const again = await post('replay-1', { ...body }, '/v1/payments/create', merchant);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe(first.text);
    expect(again.headers.get('x-request-id')).toBe(first.body.request_id);
    expect(await countPayments(merchant.merchant.id)).toBe(1);
  });

  it('treats the same fields in another order as the same request', async () => {
    const body = paymentBody();
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    await post('order-1', body);
    expect((await post('order-1', reordered)).headers.get('idempotent-replayed')).toBe('true');
  });

  it('refuses the key with a different body or path (422)', async () => {
    const body = paymentBody();
    await post('reuse-1', body);
    const otherBody = await post('reuse-1', { ...body, amount: 99 });
    const otherPath = await post('reuse-1', body, '/v1/pix/create');
    for (const res of [otherBody, otherPath]) {
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    }
  });

  it('scopes keys per merchant', async () => {
    const other = await t.newMerchant();
    const body = paymentBody();
    expect((await post('shared-key', body)).status).toBe(201);
    const theirs = await post('shared-key', body, '/v1/payments/create', other);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
  });

  it('answers 409 while the first request is still in flight', async () => {
    await failNext('timeout');
    const body = paymentBody();
    const first = post('inflight-1', body);
    // The first request holds the key while the provider hangs: its record is in progress.
    const record = () => t.dataSource.query(`SELECT state FROM idempotency_records WHERE merchant_id = $1 AND key = $2`, [shop.merchant.id, 'inflight-1']);
    await eventually(record, (rows) => rows[0]?.state === 'in_progress');
    const second = await post('inflight-1', body);
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
    expect((await first).status).toBe(502);
  });

  it.each([
    ['http_500', 500],
    ['http_503', 503],
    ['http_400', 400],
    ['malformed', 201], // the provider answered, with a body that is not a charge
    ['timeout', undefined],
    ['reset', undefined],
  ])('maps an upstream %s to 502 PAYMENT_CREATE_FAILED, stores nothing final, and a retry charges once', async (mode, upstreamStatus) => {
    const merchant = await t.newMerchant();
    const body = paymentBody();
    // The transport sends a request once more on a fresh socket when a kept-alive one is reset
    // before any answer (the PSP closed it while idle): a reset fails the create only when the
    // fresh socket is reset too. What is left queued is cleared before the retry.
    await failNext(mode, mode === 'reset' ? 2 : 1);
    const failed = await post(`upstream-${mode}`, body, '/v1/payments/create', merchant);
    await http(t.url, 'DELETE', '/sandbox/_control/failures', { headers: sandboxAuth(t.config) });
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ success: false, provider: 'sandbox', error: { code: 'PAYMENT_CREATE_FAILED' } });
    expect(failed.body.error.upstream_status).toBe(upstreamStatus);
    expect(await countPayments(merchant.merchant.id)).toBe(0);

    const retried = await post(`upstream-${mode}`, body, '/v1/payments/create', merchant);
    expect(retried.status).toBe(201);
    expect(await countPayments(merchant.merchant.id)).toBe(1);
    const txid = retried.body.data.pix.txid;
    expect(await sandboxCharges(txid)).toHaveLength(1); // the provider never saw two charges for one key
    const [record] = await t.dataSource.query('SELECT txid, attempt FROM idempotency_records WHERE merchant_id = $1', [merchant.merchant.id]);
    expect(record).toEqual({ txid, attempt: 2 });
  });

  it('creates exactly one payment when many requests with one key race', async () => {
    const merchant = await t.newMerchant();
    const body = paymentBody();
    const results = await Promise.all(Array.from({ length: 20 }, () => post('race-1', body, '/v1/payments/create', merchant)));
    const statuses = results.map((res) => res.status);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    const created = results.filter((res) => res.status === 201);
    expect(new Set(created.map((res) => res.body.data.id)).size).toBe(1);
    expect(await countPayments(merchant.merchant.id)).toBe(1);
  });

  it('forgets records after their retention: purged, and the key then starts afresh', async () => {
    const merchant = await t.newMerchant();
    const body = paymentBody();
    const first = await post('expire-1', body, '/v1/payments/create', merchant);
    await t.dataSource.query(`UPDATE idempotency_records SET expires_at = now() - interval '1 second' WHERE merchant_id = $1`, [merchant.merchant.id]);
    const fresh = await post('expire-1', body, '/v1/payments/create', merchant);
    expect(fresh.status).toBe(201);
    expect(fresh.body.data.id).not.toBe(first.body.data.id);
    await t.dataSource.query(`UPDATE idempotency_records SET expires_at = now() - interval '1 second' WHERE merchant_id = $1`, [merchant.merchant.id]);
    expect(await t.app.get(IdempotencyService).purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await t.dataSource.query('SELECT 1 FROM idempotency_records WHERE merchant_id = $1', [merchant.merchant.id])).toHaveLength(0);
  });
});
