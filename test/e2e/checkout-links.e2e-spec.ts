import { randomBytes } from 'node:crypto';
import { PUBLIC_PAGE_CSP } from '../../src/checkout/public-pages';
import { http, type HttpResult } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';
import { asFrom, newAddress } from '../helpers/throttling';

/**
 * A payment link's public page over HTTP (docs/checkout.md): the form, a plain form post that opens
 * a payment and sends the payer to its page, the form again with the server's errors, the pages of
 * a deactivated or used-up link, the wait after ten pending payments from one address, and the one
 * 404 page shared with /pay.
 */
describe('payment link pages (HTTP)', () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '1' } });
    key = (await t.admin.newMerchant({ name: 'Camisetas Aurora' })).apiKey;
  });
  afterAll(() => t?.close());

  const api = (method: string, path: string, body?: unknown) =>
    http(t.url, method, path, { headers: { 'x-merchant-key': key, ...(method === 'POST' ? { 'idempotency-key': randomBytes(8).toString('hex') } : {}) }, body });
  const page = (path: string, address = newAddress(), headers: Record<string, string> = {}) => http(t.url, 'GET', path, { headers: asFrom(address, headers) });
  /** A form post as a browser sends one; a redirect is answered, not followed. */
  const submit = async (path: string, fields: Record<string, string>, address = newAddress()): Promise<HttpResult> => {
    const res = await fetch(`${t.url}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: asFrom(address, { 'content-type': 'application/x-www-form-urlencoded' }),
      body: new URLSearchParams(fields).toString(),
    });
    return { status: res.status, headers: res.headers, body: undefined, text: await res.text() };
  };

  async function newLink(body: Record<string, unknown>): Promise<{ id: string; path: string }> {
    const created = await api('POST', '/v1/payment-links', { title: 'Camiseta azul', ...body });
    expect(created.status).toBe(201);
    return { id: created.body.data.id, path: new URL(created.body.data.url).pathname };
  }

  function expectPage(res: HttpResult, status: number): void {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(PUBLIC_PAGE_CSP);
    expect(res.headers.get('cache-control')).toBe('no-store');
  }

  const payer = { name: 'João da Silva', document: '123.456.789-09' };

  it("shows a fixed link's form and, posted, opens a payment and sends the payer to its page", async () => {
    const { id, path } = await newLink({ amount: 59.9, description: 'Tamanhos P, M e G', collect: { email: true } });
    const form = await page(path);
    expectPage(form, 200);
    expect(form.text).toContain('<h1>Camiseta azul</h1>');
    expect(form.text).toContain('R$\u00a059,90');
    expect(form.text).toContain(`<form id="link-form" method="post" action="${path}" novalidate>`);
    for (const field of ['name', 'document', 'email']) expect(form.text).toContain(`name="${field}"`);
    expect(form.text).not.toContain('name="amount"');

    const sent = await submit(path, { ...payer, email: 'joao@example.com', amount: '0,01' });
    expect(sent.status).toBe(303);
    const checkout = sent.headers.get('location')!;
    expect(checkout).toMatch(/^\/pay\/[A-Za-z0-9]{20,64}$/);
    const shown = await page(checkout);
    expectPage(shown, 200);
    // The link's price, whatever amount the form carried.
    expect(shown.text).toContain('R$\u00a059,90');
    expect(shown.text).toContain('João S.');
    const listed = await api('GET', `/v1/payments?paymentLinkId=${id}`);
    expect(listed.body.data.items).toEqual([expect.objectContaining({ amount: 59.9, paymentLinkId: id, checkoutUrl: expect.stringMatching(new RegExp(`${checkout}$`)) })]);
  });

  it('refuses a CPF with wrong check digits: the form again (400) with the error, the fields kept and escaped', async () => {
    const { path } = await newLink({ amount: 10 });
    const res = await submit(path, { name: 'Ana "<b>"', document: '123.456.789-00' });
    expectPage(res, 400);
    expect(res.text).toContain('role="alert"');
    expect(res.text).toMatch(/<input id="document" name="document" type="text" required value="123.456.789-00"[^>]* aria-invalid="true"/);
    expect(res.text).toContain('<p class="error" id="document-error">Informe um CPF ou CNPJ válido.</p>');
    expect(res.text).toContain('value="Ana &quot;&lt;b&gt;&quot;"');
    expect(res.text).not.toMatch(/<input id="name"[^>]*aria-invalid/);
  });

  it('answers an unreadable field (a control character) with the form and its error, not a 5xx', async () => {
    const { path } = await newLink({ amount: 10 });
    const res = await submit(path, { name: 'Ana\u0000', document: payer.document });
    expectPage(res, 400);
    expect(res.text).toContain('<p class="error" id="name-error">Este campo tem caracteres que não podem ser usados.</p>');
  });

  it('takes an amount within a range, in the English page too, and refuses one outside it', async () => {
    const { path } = await newLink({ amountRange: { min: 10, max: 500 } });
    const form = await page(path, newAddress(), { 'accept-language': 'en' });
    expect(form.text).toContain('Between R$10.00 and R$500.00.');
    expect(form.text).toMatch(/<input id="amount" name="amount"[^>]* inputmode="decimal"[^>]* data-min="1000" data-max="50000"/);
    const low = await submit(path, { ...payer, amount: '9,99' });
    expectPage(low, 400);
    expect(low.text).toContain('Informe um valor entre R$\u00a010,00 e R$\u00a0500,00.');
    const ok = await submit(path, { ...payer, amount: '25,90' });
    expect(ok.status).toBe(303);
    expect((await page(ok.headers.get('location')!)).text).toContain('R$\u00a025,90');
  });

  it("says so on a used-up or deactivated link's page, and to its posts", async () => {
    const used = await newLink({ amount: 10, maxPayments: 1 });
    expect((await submit(used.path, payer)).status).toBe(303);
    const full = await page(used.path);
    expectPage(full, 410);
    expect(full.text).toContain('Link esgotado');
    expect(full.text).not.toContain('<form');
    expect((await submit(used.path, payer)).text).toContain('Link esgotado');

    const off = await newLink({ amount: 10 });
    expect((await api('POST', `/v1/payment-links/${off.id}/deactivate`)).status).toBe(200);
    const gone = await page(off.path);
    expectPage(gone, 410);
    expect(gone.text).toContain('Link desativado');
  });

  it('asks an address that opened ten pending payments of a link within the hour to wait (429)', async () => {
    const { path } = await newLink({ amount: 10 });
    const address = newAddress();
    for (let i = 0; i < 10; i++) expect((await submit(path, payer, address)).status).toBe(303);
    const res = await submit(path, payer, address);
    expectPage(res, 429);
    expect(res.text).toContain('Muitas tentativas');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect((await submit(path, payer)).status).toBe(303);
  });

  it('answers an unknown or malformed slug, and any other path under /l, with the same 404 page as /pay', async () => {
    const { id } = await newLink({ amount: 10 });
    const answers = await Promise.all([
      page(`/l/${'A'.repeat(20)}`),
      page(`/l/${id}`),
      page('/l/x'),
      page(`/l/${'y'.repeat(400)}`),
      page('/l/%E0%A4%A'),
      page('/l'),
      page('/l/a/b'),
      submit(`/l/${'B'.repeat(20)}`, payer),
      page(`/pay/${'C'.repeat(24)}`),
    ]);
    for (const res of answers) expectPage(res, 404);
    expect(new Set(answers.map((res) => res.text)).size).toBe(1);
  });
});
