import { randomBytes } from 'node:crypto';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import { paymentBody } from '../helpers/factories';
import { eventually } from '../helpers/eventually';
import { http as send, type HttpResult } from '../helpers/http';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { sandboxAuth, startTestApp, type TestApp } from '../helpers/test-app';
import { itOn } from '../helpers/test-env';

/**
 * Batches of due-date charges over HTTP against the built-in simulated PSP, which takes batches
 * (docs/api.md, Payment batches): accepted whole in one request, made in the background, each item's
 * outcome (a charge the PSP refuses fails alone), `payment_batch.completed` signed to the merchant
 * once; a bad item refuses the whole batch, naming its index; 1,000 payments in one request.
 */
describe('payment batches with the sandbox PSP', () => {
  let t: TestApp;
  let receiver: MerchantReceiver;
  let key: string;
  let merchantId: string;
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const due = { date: addDays(brasiliaDate(new Date()), 10), fine: { type: 'percent', value: 2 }, interest: { type: 'percent_per_month', value: 1 } };

  beforeAll(async () => {
    [t, receiver] = await Promise.all([startTestApp(), MerchantReceiver.start({ secret })]);
    const merchant = await t.admin.newMerchant({ name: 'Escola', webhook_url: receiver.url, webhook_signing_secret: secret });
    key = merchant.apiKey;
    merchantId = merchant.id;
  });
  afterAll(async () => {
    await Promise.all([t?.close(), receiver?.close()]);
  });

  const http = (method: string, path: string, body?: unknown, options: { idempotencyKey?: string; apiKey?: string } = {}): Promise<HttpResult> =>
    send(t.url, method, path, {
      headers: {
        'x-merchant-key': options.apiKey ?? key,
        ...(method === 'POST' ? { 'idempotency-key': options.idempotencyKey ?? randomBytes(8).toString('hex') } : {}),
      },
      body,
    });
  const item = (n: number, overrides: Record<string, unknown> = {}) =>
    paymentBody({ amount: 450 + n, description: `Mensalidade ${n}`, externalId: `invoice-${randomBytes(3).toString('hex')}-${n}`, due, ...overrides });
  const completed = (id: string) =>
    eventually(
      () => http('GET', `/v1/payment-batches/${id}`),
      (res) => res.body?.data?.status === 'completed',
      30_000,
    );

  it('makes every payment of a batch, fails the one the PSP refuses alone, and tells the merchant once, signed', async () => {
    const payments = [
      item(0),
      item(1),
      item(2, { description: 'Mensalidade 2 sandbox:fail' }),
      item(3, { recipientAddress: { street: 'Rua A, 1', city: 'Recife', state: 'PE', zip: '50000-000' } }),
    ];
    const idempotencyKey = randomBytes(8).toString('hex');
    const accepted = await http('POST', '/v1/payment-batches', { description: 'Mensalidades de dezembro', payments }, { idempotencyKey });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({ success: true, provider: 'sandbox' });
    const batch = accepted.body.data;
    expect(batch).toMatchObject({ description: 'Mensalidades de dezembro', status: 'processing', counts: { created: 0, failed: 0, pending: 4 }, completedAt: null });
    expect(batch.id).toMatch(/^bat_[A-Za-z0-9]{24}$/);
    expect(batch.items).toEqual(payments.map((p, index) => ({ index, externalId: p.externalId, status: 'pending' })));

    const done = (await completed(batch.id)).body.data;
    expect(done.counts).toEqual({ created: 3, failed: 1, pending: 0 });
    expect(done.completedAt).toEqual(expect.any(String));
    expect(done.items.map((i: { status: string }) => i.status)).toEqual(['created', 'created', 'failed', 'created']);
    expect(done.items[2]).toEqual({
      index: 2,
      externalId: payments[2]!.externalId,
      status: 'failed',
      error: { code: 'PAYMENT_CREATE_FAILED', message: expect.stringContaining('CHARGE_REFUSED') },
    });

    // Each payment made is an ordinary due-date payment of the merchant's, with its BR Code.
    for (const made of done.items.filter((i: { status: string }) => i.status === 'created')) {
      const payment = (await http('GET', `/v1/payments/${made.paymentId}`)).body.data;
      const asked = payments[made.index as number]!;
      expect(payment).toMatchObject({ status: 'pending', amount: asked.amount, externalId: asked.externalId, provider: 'sandbox', due: { date: due.date } });
      expect(payment.pix.copyPaste).toMatch(/^000201/);
    }
    expect((await http('GET', `/v1/payments/${done.items[3].paymentId}`)).body.data.recipient.address).toMatchObject({ city: 'Recife', zip: '50000000' });

    await receiver.waitUntil(() => receiver.received.some((r) => r.body?.data?.id === batch.id), 15_000, 'payment_batch.completed');
    const events = receiver.received.filter((r) => r.body?.data?.id === batch.id);
    expect(events).toHaveLength(1);
    expect(events[0]!).toMatchObject({ verified: true, headers: { 'x-webhook-event': 'payment_batch.completed', 'x-webhook-source': 'sandbox' } });
    expect(events[0]!.body).toMatchObject({ event: 'payment_batch.completed', data: { id: batch.id, status: 'completed', counts: { created: 3, failed: 1, pending: 0 } } });
    expect(events[0]!.body.data.items).toBeUndefined();

    // The same key and body replay the acceptance; the list shows the batch first.
    const replay = await http('POST', '/v1/payment-batches', { description: 'Mensalidades de dezembro', payments }, { idempotencyKey });
    expect(replay.status).toBe(202);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data.id).toBe(batch.id);
    const list = (await http('GET', '/v1/payment-batches?limit=1')).body.data;
    expect(list.items[0]).toEqual({ ...done, items: undefined, counts: done.counts });
    expect(list.items[0].items).toBeUndefined();

    // The operator sees it with its delivery; another merchant and a malformed id see nothing.
    const admin = await send(t.url, 'GET', `/admin/api/payment-batches/${batch.id}`, { headers: { authorization: `Bearer ${t.config.adminApiToken.reveal()}` } });
    expect(admin.status).toBe(200);
    expect(admin.body.data).toMatchObject({ id: batch.id, merchant_id: merchantId, provider: 'sandbox', counts: done.counts });
    expect(admin.body.data.items).toHaveLength(4);
    await eventually(
      () => send(t.url, 'GET', `/admin/api/payment-batches/${batch.id}`, { headers: { authorization: `Bearer ${t.config.adminApiToken.reveal()}` } }),
      (res) => res.body.data.deliveries[0]?.status === 'delivered',
    );
    const adminList = await send(t.url, 'GET', `/admin/api/payment-batches?merchant_id=${merchantId}`, { headers: { authorization: `Bearer ${t.config.adminApiToken.reveal()}` } });
    expect(adminList.body.data.items.map((b: { id: string }) => b.id)).toContain(batch.id);
    const other = await t.newMerchant();
    for (const res of [await http('GET', `/v1/payment-batches/${batch.id}`, undefined, { apiKey: other.apiKey }), await http('GET', `/v1/payment-batches/not-a-batch'--`)]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('makes the payments one by one, each once, when the PSP refuses the batch request', async () => {
    const shop = await t.newMerchant();
    const control = (method: string, body?: unknown) => send(t.url, method, '/sandbox/_control/failures', { body, headers: sandboxAuth(t.config) });
    expect((await control('POST', { mode: 'http_400', count: 1, operation: 'batch' })).status).toBe(204);
    try {
      const payments = [item(0), item(1), item(2)];
      const accepted = await http('POST', '/v1/payment-batches', { description: 'Lote recusado pelo PSP', payments }, { apiKey: shop.apiKey });
      expect(accepted.status).toBe(202);
      const id = accepted.body.data.id as string;
      const done = (
        await eventually(
          () => http('GET', `/v1/payment-batches/${id}`, undefined, { apiKey: shop.apiKey }),
          (res) => res.body?.data?.status === 'completed',
          30_000,
        )
      ).body.data;
      expect(done.counts).toEqual({ created: 3, failed: 0, pending: 0 });
      // Each through the payments core under its own key, derived from the batch and the index: one charge each.
      const rows = await t.dataSource.query(`SELECT id, external_id FROM payments WHERE merchant_id = $1 AND batch_id = $2 ORDER BY external_id`, [shop.merchant.id, id]);
      expect(rows.map((row: { external_id: string }) => row.external_id)).toEqual(payments.map((p) => p.externalId).sort());
      const keys = await t.dataSource.query(`SELECT key FROM idempotency_records WHERE merchant_id = $1 AND state = 'completed' ORDER BY key`, [shop.merchant.id]);
      expect(keys.map((row: { key: string }) => row.key)).toEqual(expect.arrayContaining([0, 1, 2].map((i) => `payment-batch:${id}:${i}`)));
      expect(done.items.map((i: { paymentId: string }) => i.paymentId).sort()).toEqual(rows.map((row: { id: string }) => row.id).sort());
    } finally {
      await control('DELETE');
    }
  });

  it('refuses a batch with a bad payment, naming it by index, and creates nothing', async () => {
    const shop = await t.newMerchant();
    const repeated = item(1);
    const bad = {
      description: 'Lote com erro',
      payments: [item(0), repeated, item(2, { due: { ...due, date: addDays(brasiliaDate(new Date()), -1) } }), { ...item(3), externalId: repeated.externalId }],
    };
    const refused = await http('POST', '/v1/payment-batches', bad, { apiKey: shop.apiKey });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    expect(refused.body.error.details.fields.map((f: { field: string }) => f.field).sort()).toEqual(['payments.2.due.date', 'payments.3.externalId']);

    // A shape error is named by its index too (the pipe's own check).
    const shape = await http(
      'POST',
      '/v1/payment-batches',
      { description: 'Lote', payments: [item(0), item(1, { recipientDocument: '123.456.789-00' })] },
      { apiKey: shop.apiKey },
    );
    expect(shape.status).toBe(400);
    expect(shape.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(['payments.1.recipientDocument']);
    const empty = await http('POST', '/v1/payment-batches', { description: 'Lote', payments: [] }, { apiKey: shop.apiKey });
    expect(empty.status).toBe(400);

    expect((await http('GET', '/v1/payment-batches', undefined, { apiKey: shop.apiKey })).body.data.items).toEqual([]);
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM payments WHERE merchant_id = $1`, [shop.merchant.id]);
    expect(n).toBe(0);
  });

  // Once is enough: what it proves (one request takes 1,000, the background makes them all) is the same on both databases, and it is the tier's longest test.
  itOn('embedded', 'the storage is exercised by the tests above on both')(
    'accepts 1,000 payments in one request and makes them in the background',
    async () => {
      const shop = await t.newMerchant();
      const payments = Array.from({ length: 1000 }, (_, n) => item(n, { externalId: `bulk-${n}`, amount: 100 + (n % 50) }));
      const accepted = await http('POST', '/v1/payment-batches', { description: 'Mil boletos', payments }, { apiKey: shop.apiKey });
      expect(accepted.status).toBe(202);
      expect(accepted.body.data.items).toHaveLength(1000);
      const id = accepted.body.data.id as string;

      const done = await eventually(
        () => http('GET', `/v1/payment-batches/${id}`, undefined, { apiKey: shop.apiKey }),
        (res) => res.body?.data?.status === 'completed',
        50_000,
      );
      expect(done.body.data.counts).toEqual({ created: 1000, failed: 0, pending: 0 });
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM payments WHERE merchant_id = $1 AND batch_id = $2`, [shop.merchant.id, id]);
      expect(n).toBe(1000);
    },
    60_000,
  );
});
