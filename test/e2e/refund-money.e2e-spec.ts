import { randomBytes } from 'node:crypto';
import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { eventually } from '../helpers/eventually';
import { pixApiAccountBody } from '../helpers/factories';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * Money that adds up (docs/api.md, Refunds and cancellation): a refund is counted once however its answer
 * is retried, a retry answers what happened, and a MED return is never taken for the merchant's own
 * refund. Each case is a sequence the gateway once got wrong, through a Pix API account at the fake
 * PSP (which checks every request against the BCB's OpenAPI).
 */
describe('refund money: counted once, replays answered, reports matched by id', () => {
  let t: TestApp;
  let psp: PixApiPsp;
  let receiver: MerchantReceiver;
  let merchantKey: string;
  beforeAll(async () => {
    [t, psp, receiver] = await Promise.all([startTestApp(), startPixApiPsp(), MerchantReceiver.start()]);
    const account = (await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp) })).data!;
    expect((await t.admin.POST('/admin/api/provider-accounts/{id}/webhook', { params: { path: { id: account.id } } })).status).toBe(200);
    merchantKey = (await t.admin.newMerchant({ name: 'Loja Contas', webhook_url: receiver.url, provider_accounts: [account.id] })).apiKey;
  });
  afterAll(async () => {
    await Promise.all([t.close(), psp.close(), receiver.close()]);
  });
  afterEach(() => {
    psp.reset();
    psp.assertNoViolations();
  });

  const api = () => t.merchant(merchantKey);
  const newKey = () => randomBytes(8).toString('hex');
  const paidPayment = async (amount: number) => {
    const key = newKey();
    const payment = (
      await api().POST('/v1/payments/create', {
        body: { amount, currency: 'BRL', recipientDocument: '123.456.789-09', recipientName: 'Ana Souza', externalId: `order-${key}` },
        params: { header: { 'Idempotency-Key': key } },
      })
    ).data!;
    const { pix } = await psp.pay(payment.pix.txid);
    return { payment, endToEndId: pix.endToEndId as string };
  };
  const refund = (paymentId: string, body: { amount?: number }, key = newKey()) =>
    api().POST('/v1/payments/{id}/refunds', { params: { path: { id: paymentId }, header: { 'Idempotency-Key': key } }, body });
  const read = async (id: string) => (await api().GET('/v1/payments/{id}', { params: { path: { id } } })).data!;
  const refundsOf = async (id: string) => (await api().GET('/v1/payments/{id}/refunds', { params: { path: { id } } })).data!;
  const devolucaoPuts = () => psp.requests.filter((r) => r.method === 'PUT' && r.path.includes('/devolucao/')).length;
  const loseNextRefundAnswer = () => psp.fail({ kind: 'status', status: 503, path: '/devolucao/', method: 'PUT', afterHandling: true });
  const refundEvents = (refundId: string) =>
    receiver.received.filter((r) => r.body?.event?.startsWith('refund.') && r.body.data.id === refundId).map((r) => r.body.event as string);

  it('answers a retry of a lost refund that settled meanwhile as it stands: never re-opened, counted once', async () => {
    const { payment, endToEndId } = await paidPayment(6);
    const key = newKey();
    loseNextRefundAnswer();
    expect((await refund(payment.id, { amount: 3 }, key)).status).toBe(502);
    const [lost] = await refundsOf(payment.id);
    await psp.refundSettles(endToEndId, lost!.id.replace('_', ''), 'DEVOLVIDO');
    expect(await read(payment.id)).toMatchObject({ status: 'partially_refunded', refundedAmount: 3 });
    const puts = devolucaoPuts();

    const retried = await refund(payment.id, { amount: 3 }, key);
    expect(retried.status).toBe(201);
    expect(retried.data).toMatchObject({ id: lost!.id, status: 'succeeded', amount: 3 });
    expect(devolucaoPuts()).toBe(puts);
    expect(await read(payment.id)).toMatchObject({ status: 'partially_refunded', refundedAmount: 3 });
    // What is really left can still be returned, and the payment ends refunded at exactly its amount.
    const rest = await refund(payment.id, { amount: 3 });
    expect(rest.status).toBe(201);
    await psp.refundSettles(endToEndId, rest.data!.id.replace('_', ''), 'DEVOLVIDO');
    expect(await read(payment.id)).toMatchObject({ status: 'refunded', refundedAmount: 6 });
    await receiver.waitUntil(() => refundEvents(rest.data!.id).length === 1, 15_000, 'refund.succeeded of the rest');
    expect(refundEvents(lost!.id)).toEqual(['refund.succeeded']);
  });

  it('replays a completed refund byte for byte, even for the whole amount and after the payment is refunded', async () => {
    const { payment, endToEndId } = await paidPayment(5);
    const key = newKey();
    const first = await refund(payment.id, {}, key);
    expect(first.status).toBe(201);
    const replayed = await refund(payment.id, {}, key);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(first.body);
    await psp.refundSettles(endToEndId, first.data!.id.replace('_', ''), 'DEVOLVIDO');
    expect(await read(payment.id)).toMatchObject({ status: 'refunded' });
    const afterRefunded = await refund(payment.id, {}, key);
    expect(afterRefunded.status).toBe(201);
    expect(afterRefunded.body).toEqual(first.body);
  });

  it('resumes a retry of a lost 502 as the same refund, without counting it against itself', async () => {
    const { payment, endToEndId } = await paidPayment(10);
    const key = newKey();
    loseNextRefundAnswer();
    expect((await refund(payment.id, {}, key)).status).toBe(502);
    const retried = await refund(payment.id, {}, key);
    expect(retried.status).toBe(201);
    expect(retried.data).toMatchObject({ amount: 10, status: 'pending' });
    expect((psp.pixes.get(endToEndId)!.devolucoes as unknown[]).length).toBe(1);
  });

  it('answers a retry of a refund the PSP refused with the failed refund, never asking again', async () => {
    const { payment } = await paidPayment(10);
    const key = newKey();
    psp.fail({ kind: 'problem', status: 400, path: '/devolucao/', method: 'PUT' });
    expect((await refund(payment.id, {}, key)).status).toBe(502);
    const puts = devolucaoPuts();
    const retried = await refund(payment.id, {}, key);
    expect(retried.status).toBe(201);
    expect(retried.data).toMatchObject({ status: 'failed', failureReason: expect.any(String) });
    expect(devolucaoPuts()).toBe(puts);
    expect(await read(payment.id)).toMatchObject({ status: 'paid', refundedAmount: 0 });
  });

  it('records a MED return of the same amount as its own refund, not as the merchant refund whose answer was lost', async () => {
    const { payment, endToEndId } = await paidPayment(10);
    loseNextRefundAnswer();
    expect((await refund(payment.id, { amount: 4 })).status).toBe(502);
    const [mine] = await refundsOf(payment.id);
    await psp.refundOutside(endToEndId, 400, 'MED_FRAUDE');
    expect((await refundsOf(payment.id)).map((r) => [r.origin, r.amount, r.status])).toEqual([
      ['merchant', 4, 'pending'],
      ['med', 4, 'succeeded'],
    ]);
    await psp.refundSettles(endToEndId, mine!.id.replace('_', ''), 'NAO_REALIZADO', { motivo: 'Conta encerrada' });
    expect((await refundsOf(payment.id)).map((r) => [r.origin, r.amount, r.status])).toEqual([
      ['merchant', 4, 'failed'],
      ['med', 4, 'succeeded'],
    ]);
    expect(await read(payment.id)).toMatchObject({ status: 'partially_refunded', refundedAmount: 4 });
    await receiver.waitUntil(() => refundEvents(mine!.id).length === 1, 15_000, 'refund.failed of the merchant refund');
    expect(refundEvents(mine!.id)).toEqual(['refund.failed']);
  });

  it('replays a completed payment create byte for byte after the account that charged it became unusable', async () => {
    const account = (await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp) })).data!;
    const shopKey = (await t.admin.newMerchant({ name: 'Loja Fechada', provider_accounts: [account.id] })).apiKey;
    const create = (key: string) =>
      t.merchant(shopKey).POST('/v1/payments/create', {
        body: { amount: 2, currency: 'BRL', recipientDocument: '12345678909', recipientName: 'Ana', externalId: `order-${key}` },
        params: { header: { 'Idempotency-Key': key } },
      });
    const key = newKey();
    const first = await create(key);
    expect(first.status).toBe(201);
    // Its credentials can no longer be opened (another SECRETS_KEY, say): a new create is refused.
    await t.dataSource.query(`UPDATE provider_accounts SET credentials_enc = 'unreadable', updated_at = now() WHERE id = $1`, [account.id]);
    await eventually(
      async () => (await create(newKey())).status,
      (status) => status !== 201,
    );
    const replayed = await create(key);
    expect({ status: replayed.status, replayed: replayed.headers.get('idempotent-replayed') }).toEqual({ status: 201, replayed: 'true' });
    expect(replayed.body).toEqual(first.body);
  });
});
