import { paymentBody, pixApiAccountBody } from '../helpers/factories';
import { randomBytes } from 'node:crypto';
import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics';
import { ReconciliationService } from '../../src/payments/payment-reconciliation.service';
import { FakeClock } from '../../src/testing/fake-clock';
import { http } from '../helpers/http';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { startTestApp, TestApp } from '../helpers/test-app';

const PIX_KEY = 'recebedor@example.com';

/** A merchant whose payments go to a pix-api account at the fake PSP, end to end: create, callback, forward. */
describe('payments through a Pix API provider account', () => {
  let t: TestApp;
  let psp: PixApiPsp;
  let receiver: MerchantReceiver;
  let account: { id: string; webhook_url: string };
  let merchantKey: string;
  beforeAll(async () => {
    [t, psp, receiver] = await Promise.all([startTestApp(), startPixApiPsp(), MerchantReceiver.start()]);
    const created = await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp, { pix_key: PIX_KEY }) });
    account = created.data!;
    expect((await t.admin.POST('/admin/api/provider-accounts/{id}/webhook', { params: { path: { id: account.id } } })).status).toBe(200);
    merchantKey = (await t.admin.newMerchant({ name: 'Loja Real', webhook_url: receiver.url, provider_accounts: [account.id] })).apiKey;
  });
  afterAll(async () => {
    await Promise.all([t.close(), psp.close(), receiver.close()]);
  });
  afterEach(() => psp.assertNoViolations());

  const create = (key = randomBytes(8).toString('hex'), amount = 10.5) =>
    t.merchant(merchantKey).POST('/v1/payments/create', {
      body: { amount, currency: 'BRL', recipientDocument: '123.456.789-09', recipientName: 'Ana Souza', externalId: `order-${key}` },
      params: { header: { 'Idempotency-Key': key } },
    });
  const get = (id: string, key = merchantKey) => t.merchant(key).GET('/v1/payments/{id}', { params: { path: { id } } });
  const read = async (id: string) => (await get(id)).data!;
  const adminPayment = async (id: string) => (await t.admin.GET('/admin/api/payments/{id}', { params: { path: { id } } })).data!;
  const eventCount = async () => Number((await t.dataSource.query('SELECT count(*) AS n FROM payment_events'))[0].n);

  it("charges at the PSP with a derived txid and returns the PSP's own BR Code; a retry with the key makes no second charge", async () => {
    const key = randomBytes(8).toString('hex');
    const first = await create(key);
    expect(first.status).toBe(201);
    const payment = first.data!;
    expect(first.body.provider).toBe('pix-api');
    expect(payment).toMatchObject({ status: 'pending', provider: 'pix-api', amount: 10.5 });
    expect(payment.pix.txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    const charge = psp.charges.get(payment.pix.txid) as { pixCopiaECola: string; chave: string; valor: { original: string } };
    expect(charge).toMatchObject({ chave: PIX_KEY, valor: { original: '10.50' } });
    expect(payment.pix.copyPaste).toBe(charge.pixCopiaECola);
    expect(payment.pix.qrCodePng).toMatch(/^data:image\/png;base64,/);
    const charges = psp.charges.size;
    const again = await create(key);
    expect(again.data!.id).toBe(payment.id);
    expect(psp.charges.size).toBe(charges);
  });

  it('applies a callback the PSP confirms, keeps the payer masked, and forwards payment.confirmed from the provider', async () => {
    const payment = (await create()).data!;
    const { callback } = await psp.pay(payment.pix.txid, { payer: { name: 'Bruno Lima', cpf: '12345678909' } });
    expect(callback?.status).toBe(200);
    const paid = await read(payment.id);
    expect(paid).toMatchObject({ status: 'paid', paidAmount: 10.5, payer: { name: 'Bruno Lima', document: '***.456.789-**' } });
    expect(paid.pix.endToEndId).toMatch(/^E[a-zA-Z0-9]{31}$/);
    const forwardOf = () => receiver.received.find((r) => r.body?.data?.id === payment.id);
    await receiver.waitUntil(() => forwardOf() !== undefined, 15_000, 'the forward');
    const forwarded = forwardOf()!;
    expect(forwarded.headers['x-webhook-source']).toBe('pix-api');
    expect(forwarded.body.event).toBe('payment.confirmed');
  });

  it('refuses a forged callback the PSP does not confirm with 401, changing nothing', async () => {
    const payment = (await create()).data!;
    const before = await eventCount();
    const forged = { pix: [{ endToEndId: `E${randomBytes(16).toString('hex').slice(0, 31)}`, txid: payment.pix.txid, valor: '10.50', horario: new Date().toISOString() }] };
    const res = await http(t.url, 'POST', new URL(`${account.webhook_url}/pix`).pathname, { body: forged });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('INVALID_SIGNATURE');
    expect((await read(payment.id)).status).toBe('pending');
    expect(await eventCount()).toBe(before);
  });

  it('applies every entry of a batch once, however often it is repeated', async () => {
    const [a, b] = await Promise.all([create(), create()]).then(([x, y]) => [x.data!, y.data!] as const);
    const pixA = (await psp.pay(a.pix.txid, { postCallback: false })).pix;
    const pixB = (await psp.pay(b.pix.txid, { postCallback: false })).pix;
    const url = `${account.webhook_url}/pix`;
    const intake = async (result: string) =>
      (await t.app.get(GatewayMetrics).webhookIntake.get()).values.find((v) => v.labels.provider === 'pix-api' && v.labels.result === result)?.value ?? 0;
    const [appliedBefore, duplicateBefore] = [await intake('applied'), await intake('duplicate')];
    const first = await psp.postCallback(url, { pix: [pixA, pixB, pixA] });
    expect(first.status).toBe(200);
    expect(JSON.parse(first.responseBody!).data.events).toHaveLength(2);
    const again = await psp.postCallback(url, { pix: [pixB] });
    expect(JSON.parse(again.responseBody!).data).toMatchObject({ duplicate: true });
    // The intake series counts events, not callbacks: two applied by the batch, one duplicate after.
    expect([(await intake('applied')) - appliedBefore, (await intake('duplicate')) - duplicateBefore]).toEqual([2, 1]);
    expect([(await read(a.id)).status, (await read(b.id)).status]).toEqual(['paid', 'paid']);
    const events = await t.dataSource.query('SELECT payment_id FROM payment_events WHERE payment_id = ANY($1)', [[a.id, b.id]]);
    expect(events).toHaveLength(2);
  });

  it('answers a PSP that fails with 502 and no payment; the retry with the same key charges once', async () => {
    const key = randomBytes(8).toString('hex');
    psp.fail({ kind: 'status', status: 503, times: 3, path: /\/cob\// });
    const failed = await create(key);
    expect(failed.status).toBe(502);
    expect(failed.error).toMatchObject({ code: 'PAYMENT_CREATE_FAILED', upstream_status: 503 });
    psp.reset();
    const retried = await create(key);
    expect(retried.status).toBe(201);
    const puts = psp.requests.filter((r) => r.method === 'PUT' && r.path.endsWith(`/cob/${retried.data!.pix.txid}`));
    expect(new Set(puts.map((r) => r.path)).size).toBe(1);
  });

  it("names the account's provider in every answer about the payment, its metrics and the overview, never the merchant's default", async () => {
    const created = (await create()).data!;
    expect((await get(created.id)).body).toMatchObject({ success: true, provider: 'pix-api', data: { provider: 'pix-api' } });
    expect((await t.merchant(merchantKey).GET('/v1/pix/{id}', { params: { path: { id: created.id } } })).body.provider).toBe('pix-api');

    const failedCount = async () =>
      (await t.app.get(GatewayMetrics).paymentsCreated.get()).values.find((v) => v.labels.provider === 'pix-api' && v.labels.outcome === 'failed')?.value ?? 0;
    const before = await failedCount();
    psp.fail({ kind: 'status', status: 503, times: 3, path: /\/cob\// });
    const failed = await create();
    psp.reset();
    expect(failed.status).toBe(502);
    expect(failed.body.provider).toBe('pix-api');
    expect((await failedCount()) - before).toBe(1);
    const overview = (await t.admin.GET('/admin/api/stats')).data!;
    expect(overview.providers.find((p) => p.provider === 'pix-api')).toMatchObject({ failed_attempts: expect.any(Number) });
    expect(overview.providers.find((p) => p.provider === 'pix-api')!.failed_attempts).toBeGreaterThanOrEqual(1);
    expect(overview.providers.find((p) => p.provider === 'sandbox')?.failed_attempts ?? 0).toBe(0);
  });

  it("tells the merchant neither the PSP's error code nor its text; the operator's admin routes do", async () => {
    psp.fail({ kind: 'problem', status: 400, times: 3, path: /\/cob\// });
    const refused = await create();
    psp.reset();
    expect(refused.status).toBe(502);
    expect(refused.error).toMatchObject({ code: 'PAYMENT_CREATE_FAILED', upstream_status: 400 });
    expect(refused.error!.details).toBeUndefined();
    expect(JSON.stringify(refused.body)).not.toMatch(/CobOperacaoInvalida|Operação inválida|O PSP recusou|pa_/);

    psp.fail({ kind: 'problem', status: 400, times: 3, path: /\/webhook\// });
    const registration = await t.admin.POST('/admin/api/provider-accounts/{id}/webhook', { params: { path: { id: account.id } } });
    psp.reset();
    expect(registration.status).toBe(502);
    expect(registration.error!.details).toMatchObject({ provider_code: expect.stringContaining('WebhookOperacaoInvalida') });
  });

  it('shows the environment of the account that charged, to the merchant and in the admin views', async () => {
    const payment = (await create()).data!;
    expect(payment.environment).toBe('sandbox');
    const production = (
      await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp, { name: 'Banco Teste (produção)', environment: 'production', pix_key: PIX_KEY }) })
    ).data!;
    const merchant = await t.admin.newMerchant({ name: 'Loja Produção', provider_accounts: [production.id] });
    const live = await t.merchant(merchant.apiKey).POST('/v1/payments/create', {
      body: { amount: 7, currency: 'BRL', recipientDocument: '123.456.789-09', recipientName: 'Ana Souza', externalId: 'order-live' },
    });
    expect(live.data!.environment).toBe('production');
    expect((await get(live.data!.id, merchant.apiKey)).data!.environment).toBe('production');
    expect((await adminPayment(live.data!.id)).environment).toBe('production');
    expect((await adminPayment(payment.id)).environment).toBe('sandbox');
    const listed = (await t.admin.GET('/admin/api/payments', { params: { query: { merchant_id: merchant.id } } })).data!.items;
    expect(listed.map((p) => p.environment)).toEqual(['production']);
  });

  it('deduplicates events per account: a Pix first posted to another account with the same credentials still pays its payment', async () => {
    // A second account with the same credentials at the same PSP (two merchants on one platform contract).
    const twin = (await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp, { name: 'Banco Teste (gêmea)', pix_key: PIX_KEY }) })).data!;
    const payment = (await create()).data!;
    const { pix } = await psp.pay(payment.pix.txid, { postCallback: false });
    // The PSP confirms the Pix to either account; under the twin it matches no payment of the twin's.
    const wrong = await psp.postCallback(`${twin.webhook_url}/pix`, { pix: [pix] });
    expect(JSON.parse(wrong.responseBody!).data.events).toEqual([expect.objectContaining({ matched: false })]);
    const right = await psp.postCallback(`${account.webhook_url}/pix`, { pix: [pix] });
    expect(JSON.parse(right.responseBody!).data).toMatchObject({ duplicate: false, events: [expect.objectContaining({ matched: true, applied: true })] });
    expect((await read(payment.id)).status).toBe('paid');
    const again = await psp.postCallback(`${account.webhook_url}/pix`, { pix: [pix] });
    expect(JSON.parse(again.responseBody!).data.duplicate).toBe(true);
  });

  it("a callback to an unknown account, or under another provider's name, is 404", async () => {
    expect((await http(t.url, 'POST', '/webhooks/pix-api/pa_unknownunknownunknown1/pix', { body: { pix: [] } })).status).toBe(404);
    expect((await http(t.url, 'POST', `/webhooks/efi/${account.id}/pix`, { body: { pix: [] } })).status).toBe(404);
  });
});

const DAY = 24 * 3600_000;
/** Thursday 2026-12-10, noon in Brasília: a business day with business days around it. */
const START = '2026-12-10T15:00:00.000Z';

/**
 * Due-date charges (`cobv`) through a Pix API account at the fake PSP, which checks every request and
 * answer against the Central Bank's document: made with their terms (`PUT /cobv`), paid late for
 * another amount and read back (`/cob` 404, then `/cobv`), changed (`PATCH /cobv`, the same BR Code),
 * cancelled and expired. The gateway and the PSP share one clock, so both agree on the day a Pix was paid.
 */
describe('due-date charges through a Pix API account', () => {
  const clock = new FakeClock(START);
  let t: TestApp;
  let psp: PixApiPsp;
  let receiver: MerchantReceiver;
  let merchantKey: string;
  beforeAll(async () => {
    [t, psp, receiver] = await Promise.all([startTestApp({ clock }), startPixApiPsp({ clock }), MerchantReceiver.start()]);
    const account = (await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp, { pix_key: PIX_KEY }) })).data!;
    expect((await t.admin.POST('/admin/api/provider-accounts/{id}/webhook', { params: { path: { id: account.id } } })).status).toBe(200);
    merchantKey = (await t.admin.newMerchant({ name: 'Escola Vencimento', webhook_url: receiver.url, provider_accounts: [account.id] })).apiKey;
  });
  afterAll(async () => {
    await Promise.all([t?.close(), psp?.close(), receiver?.close()]);
  });
  beforeEach(() => clock.set(START));
  afterEach(() => {
    psp.reset();
    psp.assertNoViolations();
  });

  const due = (overrides: Record<string, unknown> = {}) => ({ date: '2026-12-15', daysAfterDue: 10, ...overrides });
  const send = (method: 'POST' | 'PATCH', path: string, body?: unknown) =>
    http(t.url, method, path, { body, headers: { 'x-merchant-key': merchantKey, 'idempotency-key': randomBytes(8).toString('hex') } });
  const create = async (body: Record<string, unknown>) => {
    const res = await send('POST', '/v1/payments/create', paymentBody({ amount: 100, ...body }));
    expect(res.status).toBe(201);
    return res.body.data;
  };
  const read = async (id: string) => (await http(t.url, 'GET', `/v1/payments/${id}`, { headers: { 'x-merchant-key': merchantKey } })).body.data;
  const outcomes = async (id: string) => (await t.admin.GET('/admin/api/payments/{id}', { params: { path: { id } } })).data!.events.map((e) => [e.outcome, e.to_status, e.note]);
  /** The API routes the PSP was asked for since `from` (an index into its log), without the base path nor the token requests. */
  const askedSince = (from: number) =>
    psp.requests
      .slice(from)
      .filter((r) => r.path.startsWith('/v2/'))
      .map((r) => `${r.method} ${r.path.slice('/v2'.length)}`);

  it('is made at the PSP with its terms, and paid late for another amount: read back from /cobv, paid, the difference in its history', async () => {
    const payment = await create({
      due: due({
        fine: { type: 'percent', value: 2 },
        interest: { type: 'percent_per_month', value: 3 },
        discount: { type: 'fixed_until', until: [{ date: '2026-12-11', value: 5 }] },
      }),
      recipientAddress: { street: 'Rua das Flores, 80', city: 'Recife', state: 'PE', zip: '50050-000' },
    });
    expect(payment).toMatchObject({ status: 'pending', provider: 'pix-api', amount: 100, amountDue: 95, due: { date: '2026-12-15', daysAfterDue: 10 } });
    const txid: string = payment.pix.txid;
    const put = psp.requests.find((r) => r.method === 'PUT' && r.path.endsWith(`/cobv/${txid}`));
    expect(put?.body).toMatchObject({
      calendario: { dataDeVencimento: '2026-12-15', validadeAposVencimento: 10 },
      devedor: { cpf: '12345678909', logradouro: 'Rua das Flores, 80', cidade: 'Recife', uf: 'PE', cep: '50050000' },
      valor: {
        original: '100.00',
        multa: { modalidade: 2, valorPerc: '2.00' },
        juros: { modalidade: 3, valorPerc: '3.00' },
        desconto: { modalidade: 1, descontoDataFixa: [{ data: '2026-12-11', valorPerc: '5.00' }] },
      },
      chave: PIX_KEY,
    });
    // The BR Code is the PSP's, pointing at the charge's location; there is no immediate charge of that txid.
    expect(payment.pix.copyPaste).toBe(psp.dueCharges.get(txid).pixCopiaECola);
    expect(psp.charges.has(txid)).toBe(false);

    clock.set('2026-12-16T15:00:00.000Z'); // a day late: 100 + 2% fine + 3% a month for one day (0.10)
    expect((await read(payment.id)).amountDue).toBe(102.1);
    const logged = psp.requests.length;
    const { pix, callback } = await psp.pay(txid, { amountCents: 10000 });
    expect(callback?.status).toBe(200);
    expect(askedSince(logged)).toEqual([`GET /pix/${pix.endToEndId}`, `GET /cob/${txid}`, `GET /cobv/${txid}`]);
    expect(await read(payment.id)).toMatchObject({ status: 'paid', paidAmount: 100, amount: 100 });
    const events = await outcomes(payment.id);
    expect(events).toContainEqual(['applied', 'paid', null]);
    expect(events).toContainEqual(['amount_mismatch', 'paid', 'Paid 100.00 on 2026-12-16, when 102.10 was due; recorded as paid (the money has moved).']);
    await receiver.waitUntil(() => receiver.received.some((r) => r.body?.event === 'payment.confirmed' && r.body.data.id === payment.id), 15_000, 'payment.confirmed');
  });

  it('is paid on time for what is due that day, with nothing in its history but the payment', async () => {
    const payment = await create({ due: due({ discount: { type: 'fixed_until', until: [{ date: '2026-12-15', value: 10 }] } }) });
    expect((await psp.pay(payment.pix.txid, { amountCents: 9000 })).callback?.status).toBe(200);
    expect(await read(payment.id)).toMatchObject({ status: 'paid', paidAmount: 90 });
    expect((await outcomes(payment.id)).map(([outcome]) => outcome)).toEqual(['applied']);
  });

  it('is changed at the PSP (PATCH /cobv) with the same BR Code, a term it drops removed there', async () => {
    const payment = await create({ due: due({ discount: { type: 'fixed_until', until: [{ date: '2026-12-11', value: 5 }] } }) });
    const logged = psp.requests.length;
    const changed = await send('PATCH', `/v1/payments/${payment.id}`, { amount: 150, due: due({ date: '2026-12-20', fine: { type: 'percent', value: 2 } }) });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ amount: 150, amountDue: 150, due: { date: '2026-12-20', fine: { type: 'percent', value: 2 } } });
    expect(changed.body.data.pix.copyPaste).toBe(payment.pix.copyPaste);
    expect(askedSince(logged)).toEqual([`PATCH /cobv/${payment.pix.txid}`]);
    const held = psp.dueCharges.get(payment.pix.txid);
    expect(held).toMatchObject({ revisao: 1, calendario: { dataDeVencimento: '2026-12-20' }, valor: { original: '150.00', multa: { modalidade: 2, valorPerc: '2.00' } } });
    expect(held.valor.desconto).toBeUndefined();
    expect(held.pixCopiaECola).toBe(payment.pix.copyPaste);
  });

  it('is cancelled at the PSP (PATCH /cobv to REMOVIDA_PELO_USUARIO_RECEBEDOR)', async () => {
    const payment = await create({ due: due() });
    const res = await send('POST', `/v1/payments/${payment.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'cancelled', due: { date: '2026-12-15' } });
    expect(psp.dueCharges.get(payment.pix.txid).status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
  });

  it('expires when read back from /cobv past its last payable day, and not before', async () => {
    const payment = await create({ due: due({ daysAfterDue: 1 }) });
    const reconciliation = t.app.get(ReconciliationService);
    clock.set('2026-12-16T15:00:00.000Z'); // the last payable day: still pending
    await reconciliation.runOnce();
    expect((await read(payment.id)).status).toBe('pending');
    clock.advance(2 * DAY);
    const logged = psp.requests.length;
    await reconciliation.runOnce();
    expect(askedSince(logged)).toContain(`GET /cobv/${payment.pix.txid}`);
    expect((await read(payment.id)).status).toBe('expired');
  });
});
