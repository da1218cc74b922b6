import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { MerchantFixture, paymentBody, pixApiAccountBody } from '../helpers/factories';
import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';

/** The Receita Federal's example of an alphanumeric CNPJ; its check digits are worked by hand in brazilian-document.spec.ts. */
const ALPHANUMERIC_CNPJ = '12.ABC.345/01DE-35';

/** Every body rule of payment creation (docs/api.md, Payments): each bad input is a VALIDATION_ERROR naming its field, and stores nothing. */
describe('payment validation (HTTP)', () => {
  let t: TestApp;
  let shop: MerchantFixture;
  beforeAll(async () => {
    t = await startTestApp({ env: { MAX_PAYMENT_AMOUNT: '1000000.00' } });
    shop = await t.newMerchant();
  });
  afterAll(() => t.close());

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    http(t.url, 'POST', '/v1/payments/create', { body, headers: { 'x-merchant-key': shop.apiKey, 'idempotency-key': 'validation-key', ...headers } });

  it.each([
    ['amount', { amount: '10.50' }],
    ['amount', { amount: 0 }],
    ['amount', { amount: -5 }],
    ['amount', { amount: 10.505 }],
    ['amount', { amount: 1000000.01 }],
    ['amount', { amount: null }],
    ['currency', { currency: 'USD' }],
    ['currency', { currency: 'brl' }],
    ['recipientDocument', { recipientDocument: '123.456.789-00' }],
    ['recipientDocument', { recipientDocument: '11111111111' }],
    ['recipientDocument', { recipientDocument: '11.222.333/0001-82' }],
    ['recipientDocument', { recipientDocument: '12.ABC.345/01DE-36' }],
    ['recipientDocument', { recipientDocument: '12.ABC.345/01DE-A5' }],
    ['recipientDocument', { recipientDocument: '123.A56.789-09' }],
    ['recipientDocument', { recipientDocument: 12345678909 }],
    ['recipientName', { recipientName: '   ' }],
    ['recipientName', { recipientName: 'x'.repeat(141) }],
    ['description', { description: 'x'.repeat(141) }],
    ['externalId', { externalId: 'order 1' }],
    ['externalId', { externalId: 'x'.repeat(65) }],
    ['externalId', { externalId: '' }],
    ['method', { method: 'boleto' }],
    ['surprise', { surprise: true }],
  ])('refuses a bad %s (%j)', async (field, override) => {
    const res = await post(paymentBody(override));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, provider: 'sandbox', error: { code: 'VALIDATION_ERROR' } });
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
  });

  it('names each missing required field once, "<field> is required", and no other message for it', async () => {
    const { currency: _currency, externalId: _externalId, ...rest } = paymentBody();
    const res = await post(rest, { 'idempotency-key': 'missing-fields' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.fields).toEqual([
      { field: 'currency', message: 'currency is required' },
      { field: 'externalId', message: 'externalId is required' },
    ]);
    const empty = await post({}, { 'idempotency-key': 'missing-all' });
    expect(empty.body.error.details.fields).toEqual(
      ['amount', 'currency', 'recipientDocument', 'recipientName', 'externalId'].map((field) => ({ field, message: `${field} is required` })),
    );
  });

  it('accepts the edges: 0.01, the maximum, a CNPJ, a trimmed 140-character name, no description', async () => {
    const bodies = [
      paymentBody({ amount: 0.01 }),
      paymentBody({ amount: 1000000 }),
      paymentBody({ recipientDocument: '11.222.333/0001-81' }),
      paymentBody({ recipientName: `  ${'y'.repeat(140)}  `, description: undefined }),
    ];
    for (const [i, body] of bodies.entries()) {
      const res = await post(body, { 'idempotency-key': `edge-${i}` });
      expect(res.status).toBe(201);
    }
  });

  it('accepts an alphanumeric CNPJ, written with punctuation or in lower case, and stores it upper-cased without punctuation', async () => {
    for (const [i, written] of [ALPHANUMERIC_CNPJ, '12.abc.345/01de-35'].entries()) {
      const res = await post(paymentBody({ recipientDocument: written }), { 'idempotency-key': `alphanumeric-cnpj-${i}` });
      expect(res.status).toBe(201);
      expect(res.body.data.recipient.document).toBe('12ABC34501DE35');
      const read = await t.merchant(shop.apiKey).GET('/v1/payments/{id}', { params: { path: { id: res.body.data.id } } });
      expect(read.data!.recipient.document).toBe('12ABC34501DE35');
    }
  });

  it('requires a well-formed Idempotency-Key, named as a field', async () => {
    const missing = await http(t.url, 'POST', '/v1/payments/create', { body: paymentBody(), headers: { 'x-merchant-key': shop.apiKey } });
    const tooLong = await post(paymentBody(), { 'idempotency-key': 'k'.repeat(256) });
    for (const res of [missing, tooLong]) {
      expect(res.status).toBe(400);
      expect(res.body.error.details.fields).toEqual([expect.objectContaining({ field: 'Idempotency-Key' })]);
    }
  });

  it('refuses bodies that are not JSON objects', async () => {
    for (const rawBody of ['[]', '"text"', 'null', '42']) {
      const res = await http(t.url, 'POST', '/v1/payments/create', {
        rawBody,
        headers: { 'content-type': 'application/json', 'x-merchant-key': shop.apiKey, 'idempotency-key': 'shape' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('stores nothing for a refused request, so the key stays usable', async () => {
    expect((await post(paymentBody({ amount: -1 }), { 'idempotency-key': 'reuse-after-400' })).status).toBe(400);
    expect((await post(paymentBody(), { 'idempotency-key': 'reuse-after-400' })).status).toBe(201);
  });
});

/** The alphanumeric CNPJ reaches a real PSP as the standard's `devedor.cnpj` (`^[0-9A-Z]{14}$`), checked by the fake PSP against the BCB's OpenAPI document. */
describe('an alphanumeric CNPJ sent to a Pix API PSP', () => {
  let t: TestApp;
  let psp: PixApiPsp;
  let merchantKey: string;
  beforeAll(async () => {
    [t, psp] = await Promise.all([startTestApp(), startPixApiPsp()]);
    const account = (await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp) })).data!;
    merchantKey = (await t.admin.newMerchant({ name: 'Loja CNPJ', provider_accounts: [account.id] })).apiKey;
  });
  afterAll(async () => {
    await Promise.all([t.close(), psp.close()]);
  });
  afterEach(() => psp.assertNoViolations());

  it('creates the charge with devedor.cnpj upper-cased and unpunctuated', async () => {
    for (const [i, written] of [ALPHANUMERIC_CNPJ, '12.abc.345/01de-35'].entries()) {
      const res = await t.merchant(merchantKey).POST('/v1/payments/create', {
        body: paymentBody({ recipientDocument: written }),
        params: { header: { 'Idempotency-Key': `alphanumeric-cnpj-psp-${i}` } },
      });
      expect(res.status).toBe(201);
      expect(res.data!.recipient.document).toBe('12ABC34501DE35');
      expect(psp.charges.get(res.data!.pix.txid)).toMatchObject({ devedor: { cnpj: '12ABC34501DE35', nome: 'Ana Souza' } });
    }
  });
});
