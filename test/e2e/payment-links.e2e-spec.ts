import { randomBytes } from 'node:crypto';
import { PaymentLinkPagesService } from '../../src/payment-links/payment-link-pages.service';
import { FakeClock } from '../../src/testing/fake-clock';
import { http as send, type HttpResult } from '../helpers/http';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * Payment links over HTTP (docs/api.md, Payment links): the merchant's create of each kind (its
 * replay and its 400s naming fields), read, list and deactivate, another merchant's and malformed
 * ids; the operator's routes; and the service the public pages call (PaymentLinkPagesService),
 * whose payments then show under `GET /v1/payments?paymentLinkId=`. The counts and the limits under
 * concurrency are test/medium/payment-links.spec.ts.
 */
describe('payment links', () => {
  const clock = new FakeClock(new Date());
  let t: TestApp;
  let key: string;
  let merchantId: string;
  let pages: PaymentLinkPagesService;

  beforeAll(async () => {
    t = await startTestApp({ clock });
    const merchant = await t.admin.newMerchant({ name: 'Loja da Ana' });
    [key, merchantId] = [merchant.apiKey, merchant.id];
    pages = t.app.get(PaymentLinkPagesService);
  });
  afterAll(() => t?.close());

  const http = (method: string, path: string, body?: unknown, options: { idempotencyKey?: string | null; apiKey?: string } = {}): Promise<HttpResult> =>
    send(t.url, method, path, {
      headers: {
        'x-merchant-key': options.apiKey ?? key,
        ...(method === 'POST' && body !== undefined && options.idempotencyKey !== null ? { 'idempotency-key': options.idempotencyKey ?? randomBytes(8).toString('hex') } : {}),
      },
      body,
    });
  const admin = (method: string, path: string, body?: unknown) => send(t.url, method, path, { headers: { authorization: `Bearer ${t.config.adminApiToken.reveal()}` }, body });
  const create = async (body: Record<string, unknown>) => {
    const answer = await http('POST', '/v1/payment-links', body);
    expect({ status: answer.status, error: answer.body.error }).toEqual({ status: 201, error: undefined });
    return answer.body.data;
  };
  const slugOf = (link: { url: string }) => link.url.split('/l/')[1]!;
  const fieldsOf = (answer: HttpResult) => {
    expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    return (answer.body.error.details.fields as { field: string }[]).map((f) => f.field);
  };

  it('creates a fixed-price link once per Idempotency-Key, at a URL of its own under /l/', async () => {
    const body = { title: 'Camiseta azul', description: 'Tamanhos P, M e G', amount: 59.9, maxPayments: 50, returnUrl: 'https://shop.example.com/thanks' };
    const idempotencyKey = randomBytes(8).toString('hex');
    const answer = await http('POST', '/v1/payment-links', body, { idempotencyKey });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ success: true, provider: 'sandbox' });
    const link = answer.body.data;
    expect(link).toEqual({
      id: expect.stringMatching(/^plink_[A-Za-z0-9]{24}$/),
      url: expect.stringMatching(new RegExp(`^${t.config.publicBaseUrl}/l/[A-Za-z0-9]{20}$`)),
      title: 'Camiseta azul',
      description: 'Tamanhos P, M e G',
      amount: 59.9,
      amountRange: null,
      expiresAt: null,
      maxPayments: 50,
      collect: { email: false },
      returnUrl: 'https://shop.example.com/thanks',
      active: true,
      state: 'open',
      paymentsCount: 0,
      paidCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    // The slug is not the id.
    expect(link.url).not.toContain(link.id.slice('plink_'.length));

    const replay = await http('POST', '/v1/payment-links', body, { idempotencyKey });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.data).toEqual(link);
    const reused = await http('POST', '/v1/payment-links', { ...body, amount: 10 }, { idempotencyKey });
    expect({ status: reused.status, code: reused.body.error.code }).toEqual({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect((await http('GET', `/v1/payment-links/${link.id}`)).body.data).toEqual(link);
  });

  it('creates a range link that collects the e-mail and expires, and takes each documented example', async () => {
    const expiresAt = new Date(clock.now().getTime() + 7 * 86_400_000).toISOString();
    const link = await create({ title: 'Doação', amountRange: { min: 10, max: 500.5 }, collect: { email: true }, expiresAt });
    expect(link).toMatchObject({ amount: null, amountRange: { min: 10, max: 500.5 }, collect: { email: true }, expiresAt, maxPayments: null, returnUrl: null, description: null });
    const paths = (await send(t.url, 'GET', '/docs/json')).body.paths;
    const examples = Object.entries(paths['/v1/payment-links'].post.requestBody.content['application/json'].examples as Record<string, { value: object }>);
    expect(examples.map(([name]) => name)).toEqual(['fixed', 'range']);
    for (const [, { value }] of examples) await create(value as Record<string, unknown>);
  });

  it('refuses a bad create with 400 naming each field, and stores nothing', async () => {
    const ok = { title: 'Camiseta', amount: 10 };
    const cases: [Record<string, unknown>, string[]][] = [
      [{ title: 'Camiseta' }, ['amount']],
      [{ ...ok, amountRange: { min: 1, max: 2 } }, ['amount']],
      [{ title: 'Doação', amountRange: { min: 50, max: 50 } }, ['amountRange.max']],
      [{ title: 'Doação', amountRange: { min: 0, max: 10 } }, ['amountRange.min']],
      [{ title: 'Doação', amountRange: { min: 1, max: 1_000_000.01 } }, ['amountRange.max']],
      [{ ...ok, amount: 1_000_000.01 }, ['amount']],
      [{ ...ok, amount: 10.001 }, ['amount']],
      [{ ...ok, expiresAt: new Date(clock.now().getTime() - 1000).toISOString() }, ['expiresAt']],
      [{ ...ok, expiresAt: 'tomorrow' }, ['expiresAt']],
      [{ ...ok, expiresAt: '2030-01-01' }, ['expiresAt']],
      [{ ...ok, maxPayments: 0 }, ['maxPayments']],
      [{ ...ok, maxPayments: 100_001 }, ['maxPayments']],
      [{ ...ok, maxPayments: 1.5 }, ['maxPayments']],
      [{ ...ok, title: '' }, ['title']],
      [{ ...ok, title: '   ' }, ['title']],
      [{ ...ok, title: 'x'.repeat(141) }, ['title']],
      [{ ...ok, description: 'x'.repeat(141) }, ['description']],
      [{ ...ok, collect: { email: 'yes' } }, ['collect.email']],
      [{ ...ok, collect: { phone: true } }, ['collect.phone']],
      [{ ...ok, returnUrl: 'http://shop.example.com/back' }, ['returnUrl']],
      [{ ...ok, returnUrl: 'javascript:alert(1)' }, ['returnUrl']],
      [{ ...ok, slug: 'mine' }, ['slug']],
    ];
    for (const [body, fields] of cases) expect({ body, fields: fieldsOf(await http('POST', '/v1/payment-links', body)) }).toEqual({ body, fields });
    expect(fieldsOf(await http('POST', '/v1/payment-links', ok, { idempotencyKey: null }))).toEqual(['Idempotency-Key']);
    const listed = (await http('GET', '/v1/payment-links?limit=100')).body.data.items as { title: string }[];
    expect(listed.filter((l) => l.title === 'Camiseta')).toEqual([]);
  });

  it("answers 404 for another merchant's link and a malformed or unknown id, on read and deactivate", async () => {
    const link = await create({ title: 'Só minha', amount: 5 });
    const other = await t.newMerchant();
    for (const [id, apiKey] of [
      [link.id, other.apiKey],
      ['plink_000000000000000000000000', key],
      ["plink_'--", key],
      ['pay_3kTMd9Q2xLr8VbN1cZp4Wf7A', key],
    ] as const) {
      for (const answer of [
        await http('GET', `/v1/payment-links/${encodeURIComponent(id)}`, undefined, { apiKey }),
        await http('POST', `/v1/payment-links/${encodeURIComponent(id)}/deactivate`, undefined, { apiKey }),
      ]) {
        expect({ id, status: answer.status, code: answer.body.error.code }).toEqual({ id, status: 404, code: 'NOT_FOUND' });
      }
    }
    expect((await http('GET', `/v1/payment-links/${link.id}`)).body.data.active).toBe(true);
  });

  it('deactivates a link for good (again: as it is), lists newest first by active, and its page then takes no payment', async () => {
    const mine = await t.admin.newMerchant({ name: 'Loja das listas' });
    const as = { apiKey: mine.apiKey };
    const create = (title: string) => http('POST', '/v1/payment-links', { title, amount: 15 }, as).then((answer) => answer.body.data);
    const first = await create('Primeiro');
    clock.advance(1000);
    const second = await create('Segundo');
    clock.advance(1000);
    const third = await create('Terceiro');
    const deactivated = await http('POST', `/v1/payment-links/${second.id}/deactivate`, undefined, as);
    expect(deactivated.status).toBe(200);
    expect(deactivated.body.data).toMatchObject({ id: second.id, active: false, state: 'inactive' });
    const again = await http('POST', `/v1/payment-links/${second.id}/deactivate`, undefined, as);
    expect(again.body.data).toEqual(deactivated.body.data);

    const page = (await http('GET', '/v1/payment-links?limit=2', undefined, as)).body.data;
    expect(page.items.map((l: { id: string }) => l.id)).toEqual([third.id, second.id]);
    const rest = (await http('GET', `/v1/payment-links?limit=2&cursor=${page.next_cursor}`, undefined, as)).body.data;
    expect(rest).toEqual({ items: [first], next_cursor: null });
    expect((await http('GET', '/v1/payment-links?active=true', undefined, as)).body.data.items.map((l: { id: string }) => l.id)).toEqual([third.id, first.id]);
    expect((await http('GET', '/v1/payment-links?active=false', undefined, as)).body.data.items.map((l: { id: string }) => l.id)).toEqual([second.id]);
    expect(fieldsOf(await http('GET', '/v1/payment-links?active=yes', undefined, as))).toEqual(['active']);
    expect(fieldsOf(await http('GET', '/v1/payment-links?cursor=bm9wZQ', undefined, as))).toEqual(['cursor']);

    expect(await pages.findBySlug(slugOf(second))).toMatchObject({ linkId: second.id, state: 'inactive' });
    expect(await pages.openPayment(slugOf(second), { name: 'Ana', document: '123.456.789-09' }, '203.0.113.9', 'r')).toEqual({ kind: 'unavailable', reason: 'inactive' });
  });

  it('opens a payment from a link through the pages’ service, listed by GET /v1/payments?paymentLinkId=, with its checkout page', async () => {
    const link = await create({ title: 'Doação', amountRange: { min: 5, max: 100 }, collect: { email: true }, returnUrl: 'https://shop.example.com/obrigado' });
    expect(await pages.findBySlug(slugOf(link))).toEqual({
      linkId: link.id,
      merchantId,
      merchantDisplayName: 'Loja da Ana',
      title: 'Doação',
      description: null,
      amountCents: null,
      amountRangeCents: { min: 500, max: 10000 },
      collectEmail: true,
      expiresAt: null,
      state: 'open',
    });
    const refused = await pages.openPayment(slugOf(link), { name: 'Ana Souza', document: '123.456.789-00', email: 'ana@', amount: '200' }, '203.0.113.1', 'r');
    expect(refused).toEqual({
      kind: 'invalid',
      fields: [
        { field: 'document', message: expect.any(String) },
        { field: 'email', message: expect.any(String) },
        { field: 'amount', message: 'amount must be between 5.00 and 100.00' },
      ],
    });
    const opened = await pages.openPayment(slugOf(link), { name: 'Ana Souza', document: '123.456.789-09', email: 'ana@example.com', amount: '25,90' }, '203.0.113.1', 'r');
    if (opened.kind !== 'created') throw new Error(JSON.stringify(opened));

    const listed = await http('GET', `/v1/payments?paymentLinkId=${link.id}`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.items).toHaveLength(1);
    const payment = listed.body.data.items[0];
    expect(payment).toMatchObject({
      id: opened.paymentId,
      status: 'pending',
      amount: 25.9,
      description: 'Doação',
      externalId: `${link.id}-1`,
      recipient: { name: 'Ana Souza', document: '12345678909', email: 'ana@example.com' },
      paymentLinkId: link.id,
      returnUrl: 'https://shop.example.com/obrigado',
      checkoutUrl: `${t.config.publicBaseUrl}/pay/${opened.checkoutToken}`,
    });
    expect((await http('GET', `/v1/payments/${opened.paymentId}`)).body.data).toEqual(payment);
    expect((await http('GET', `/v1/payments?paymentLinkId=plink_000000000000000000000000`)).body.data.items).toEqual([]);
    expect(fieldsOf(await http('GET', '/v1/payments?paymentLinkId=bat_3kTMd9Q2xLr8VbN1cZp4Wf7A'))).toEqual(['paymentLinkId']);

    // Paid at the simulated PSP: the link counts it.
    expect((await admin('POST', `/admin/api/payments/${opened.paymentId}/simulate`, { event: 'payment.confirmed' })).status).toBe(200);
    expect((await http('GET', `/v1/payment-links/${link.id}`)).body.data).toMatchObject({ paymentsCount: 1, paidCount: 1, state: 'open' });
    expect(await pages.openPayment('AAAAAAAAAAAAAAAAAAAA', { name: 'Ana', document: '12345678909' }, '203.0.113.1', 'r')).toEqual({ kind: 'not_found' });
    expect(await pages.openPayment(link.id, { name: 'Ana', document: '12345678909' }, '203.0.113.1', 'r')).toEqual({ kind: 'not_found' });
    expect(await pages.findBySlug('../../etc')).toBeNull();
  });

  it('serves the operator: list by merchant and active, one with its payments, create for a merchant, deactivate', async () => {
    const shop = await t.admin.newMerchant({ name: 'Loja do operador' });
    const made = await admin('POST', `/admin/api/merchants/${shop.id}/payment-links`, { title: 'Ingresso', amount: 80, maxPayments: 1 });
    expect(made.status).toBe(201);
    const link = made.body.data;
    expect(link).toMatchObject({ merchant_id: shop.id, title: 'Ingresso', amount: 80, maxPayments: 1, state: 'open' });
    const opened = await pages.openPayment(slugOf(link), { name: 'Bruno Lima', document: '11.222.333/0001-81' }, '198.51.100.20', 'r');
    expect(opened.kind).toBe('created');
    // Its one place is held by the pending payment.
    expect(await pages.openPayment(slugOf(link), { name: 'Carla', document: '12345678909' }, '198.51.100.21', 'r')).toEqual({ kind: 'unavailable', reason: 'used_up' });

    const detail = await admin('GET', `/admin/api/payment-links/${link.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data).toMatchObject({ id: link.id, merchant_id: shop.id, paymentsCount: 1, paidCount: 0, state: 'used_up' });
    expect(detail.body.data.payments).toEqual([expect.objectContaining({ paymentLinkId: link.id, recipient: expect.objectContaining({ document: '11222333000181' }) })]);
    const listed = await admin('GET', `/admin/api/payment-links?merchant_id=${shop.id}&active=true`);
    expect(listed.body.data.items.map((l: { id: string }) => l.id)).toEqual([link.id]);

    const off = await admin('POST', `/admin/api/payment-links/${link.id}/deactivate`);
    expect(off.body.data).toMatchObject({ id: link.id, active: false, state: 'inactive', merchant_id: shop.id });
    expect((await admin('GET', `/admin/api/payment-links?merchant_id=${shop.id}&active=true`)).body.data.items).toEqual([]);

    for (const answer of [
      await admin('POST', '/admin/api/merchants/mer_000000000000000000000000/payment-links', { title: 'X', amount: 1 }),
      await admin('GET', '/admin/api/payment-links/plink_000000000000000000000000'),
      await admin('POST', '/admin/api/payment-links/nope/deactivate'),
    ]) {
      expect({ status: answer.status, code: answer.body.error.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    }
    expect(fieldsOf(await admin('POST', `/admin/api/merchants/${shop.id}/payment-links`, { title: 'X' }))).toEqual(['amount']);
  });

  it('shows a link past its expiry as expired, and opens nothing from it', async () => {
    const link = await create({ title: 'Promoção', amount: 20, expiresAt: new Date(clock.now().getTime() + 60_000).toISOString() });
    clock.advance(120_000);
    expect((await http('GET', `/v1/payment-links/${link.id}`)).body.data).toMatchObject({ active: true, state: 'expired' });
    expect((await pages.findBySlug(slugOf(link)))!.state).toBe('expired');
    expect(await pages.openPayment(slugOf(link), { name: 'Ana', document: '12345678909' }, '203.0.113.3', 'r')).toEqual({ kind: 'unavailable', reason: 'expired' });
  });
});
