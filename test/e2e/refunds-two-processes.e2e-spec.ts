import { randomBytes } from 'node:crypto';
import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { pixApiAccountBody } from '../helpers/factories';
import { describeOn, startTestApp, TestApp } from '../helpers/test-app';

/**
 * Money safety across processes: two gateway processes on one PostgreSQL, refunds of one payment
 * racing for the same reais through both. What is left is decided under the payment's row lock,
 * so exactly the refunds that fit are made, at the PSP too, and the rest are 422.
 */
describeOn('postgres', 'two processes share one database')('refunds racing across two gateway processes on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  let psp: PixApiPsp;
  let merchantKey: string;
  beforeAll(async () => {
    psp = await startPixApiPsp();
    a = await startTestApp({ db: 'postgres' });
    b = await startTestApp({ env: { DATABASE_URL: a.config.databaseUrl!.reveal(), SANDBOX_BASE_URL: `${a.url}/sandbox` } });
    const account = (await a.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp) })).data!;
    // The PSP's callbacks (which mark the payments paid) go to the first process.
    expect((await a.admin.POST('/admin/api/provider-accounts/{id}/webhook', { params: { path: { id: account.id } } })).status).toBe(200);
    merchantKey = (await a.admin.newMerchant({ name: 'Loja Corrida', provider_accounts: [account.id] })).apiKey;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await psp?.close();
  });
  afterEach(() => psp.assertNoViolations());

  const paidPayment = async (amount: number) => {
    const key = randomBytes(8).toString('hex');
    const payment = (
      await a.merchant(merchantKey).POST('/v1/payments/create', {
        body: { amount, currency: 'BRL', recipientDocument: '12345678909', recipientName: 'Ana Souza', externalId: `order-${key}` },
        params: { header: { 'Idempotency-Key': key } },
      })
    ).data!;
    const { pix } = await psp.pay(payment.pix.txid);
    return { id: payment.id, endToEndId: pix.endToEndId as string };
  };
  const refund = (app: TestApp, id: string, amount: number) => app.merchant(merchantKey).POST('/v1/payments/{id}/refunds', { params: { path: { id } }, body: { amount } });
  const devolucoes = (endToEndId: string) => ((psp.pixes.get(endToEndId)!.devolucoes ?? []) as { valor: string }[]).map((d) => d.valor);

  it('two refunds for the last reais, one through each process: one 201 and one 422, ten times over', async () => {
    for (let round = 0; round < 10; round++) {
      const { id, endToEndId } = await paidPayment(10);
      expect((await refund(a, id, 7)).status).toBe(201);
      const results = await Promise.all([refund(a, id, 3), refund(b, id, 3)]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
      expect(results.find((r) => r.status === 422)!.error?.code).toBe('REFUND_EXCEEDS_AVAILABLE');
      expect(devolucoes(endToEndId).sort()).toEqual(['3.00', '7.00']);
    }
  });

  it('twenty whole refunds at once across both processes: exactly one is made', async () => {
    const { id, endToEndId } = await paidPayment(25);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => refund(i % 2 ? a : b, id, 25)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(results.filter((r) => r.status === 422)).toHaveLength(19);
    expect(devolucoes(endToEndId)).toEqual(['25.00']);
    const [{ held }] = await a.dataSource.query(`SELECT sum(amount_cents)::int AS held FROM refunds WHERE payment_id = $1 AND status <> 'failed'`, [id]);
    expect(held).toBe(2500);
  });

  it('a refund whose answer was lost, settled meanwhile, then retried through both processes at once: counted once', async () => {
    const { id, endToEndId } = await paidPayment(6);
    const key = randomBytes(8).toString('hex');
    const withKey = (app: TestApp) =>
      app.merchant(merchantKey).POST('/v1/payments/{id}/refunds', { params: { path: { id }, header: { 'Idempotency-Key': key } }, body: { amount: 3 } });
    psp.fail({ kind: 'status', status: 503, path: '/devolucao/', method: 'PUT', afterHandling: true });
    expect((await withKey(a)).status).toBe(502);
    const [lost] = (await b.merchant(merchantKey).GET('/v1/payments/{id}/refunds', { params: { path: { id } } })).data!;
    await psp.refundSettles(endToEndId, lost!.id.replace('_', ''), 'DEVOLVIDO');
    const retries = await Promise.all([withKey(a), withKey(b)]);
    // Each answers the refund as it stands, or that the other process holds the key at that moment.
    for (const retry of retries) expect([201, 409]).toContain(retry.status);
    expect(retries.filter((r) => r.status === 201).map((r) => r.data)).toContainEqual(expect.objectContaining({ id: lost!.id, status: 'succeeded' }));
    expect(devolucoes(endToEndId)).toEqual(['3.00']);
    const payment = (await b.merchant(merchantKey).GET('/v1/payments/{id}', { params: { path: { id } } })).data!;
    expect(payment).toMatchObject({ status: 'partially_refunded', refundedAmount: 3 });
  });
});
