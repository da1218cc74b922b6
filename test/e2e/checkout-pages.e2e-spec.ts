import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { PAGE_REQUESTS_PER_MINUTE, STATUS_REQUESTS_PER_MINUTE } from '../../src/checkout/checkout-limits';
import { PUBLIC_PAGE_CSP } from '../../src/checkout/public-pages';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import { paymentBody, recurrenceBody } from '../helpers/factories';
import { http, type HttpResult } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';
import { asFrom, newAddress } from '../helpers/throttling';

/**
 * The public checkout pages over HTTP (docs/checkout.md): what a payment's, a due-date charge's and
 * a recurrence's page show and withhold, their headers, the one 404 page whatever the reason, the
 * live state as JSON and as server-sent events, the rate limits' wait page, and the first load's weight.
 */
describe('checkout pages (HTTP)', () => {
  let t: TestApp;
  let key: string;
  let merchantId: string;
  beforeAll(async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '1' } });
    ({ id: merchantId, apiKey: key } = await t.admin.newMerchant({ name: 'Padaria Central Ltda' }));
  });
  afterAll(() => t?.close());

  const api = (method: string, path: string, body?: unknown) =>
    http(t.url, method, path, { headers: { 'x-merchant-key': key, ...(method === 'POST' ? { 'idempotency-key': randomBytes(8).toString('hex') } : {}) }, body });
  const admin = (path: string, body: unknown) => http(t.url, 'POST', path, { headers: { authorization: `Bearer ${t.config.adminApiToken.reveal()}` }, body });
  /** A page from an address of its own, so one test's requests never count against another's limit. */
  const get = (path: string, headers: Record<string, string> = {}) => http(t.url, 'GET', path, { headers: asFrom(newAddress(), headers) });
  const pathOf = (url: string) => new URL(url).pathname;

  async function newPayment(overrides: Record<string, unknown> = {}): Promise<{ id: string; page: string }> {
    const created = await api('POST', '/v1/payments/create', paymentBody(overrides));
    expect(created.status).toBe(201);
    return { id: created.body.data.id, page: pathOf(created.body.data.checkoutUrl) };
  }

  function expectPageHeaders(res: HttpResult): void {
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(PUBLIC_PAGE_CSP);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  }

  /** The page's one stylesheet and one script, both from this origin, and nothing inline. */
  function assetsOf(text: string): { stylesheet: string; script: string | undefined } {
    const stylesheets = [...text.matchAll(/<link rel="stylesheet" href="([^"]+)">/g)].map((m) => m[1]!);
    const scripts = [...text.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(stylesheets).toHaveLength(1);
    expect(scripts.length).toBeLessThanOrEqual(1);
    expect(text).not.toMatch(/<style\b|\sstyle=|\son[a-z]+=|javascript:/i);
    for (const src of [...stylesheets, ...scripts]) expect(src).not.toMatch(/\/\/|https?:/);
    const script = scripts[0] && /src="([^"]+)"/.exec(scripts[0])?.[1];
    if (scripts[0]) expect(scripts[0]).toMatch(/^<script type="module" src="\/pay\/assets\/[^"]+"><\/script>$|^<script type="module" src="\/pay\/assets\/[^"]+">$/);
    return { stylesheet: stylesheets[0]!, script: script ?? undefined };
  }

  it("shows a payment's page: the display name, amount, description, QR and code, a masked payer, and none of the rest", async () => {
    const { id, page } = await newPayment({ amount: 1234.5, description: 'Pão <b>& café</b>', recipientName: 'Ana Maria Souza', returnUrl: 'https://shop.example.com/done?o=1' });
    await t.dataSource.query(`UPDATE merchants SET display_name = 'Padaria Central' WHERE id = $1`, [merchantId]);
    const res = await get(page);
    expect(res.status).toBe(200);
    expectPageHeaders(res);
    expect(res.headers.get('content-language')).toBe('pt-BR');
    expect(res.text).toContain('<html lang="pt-BR">');
    expect(res.text).toContain('Padaria Central</p>');
    expect(res.text).not.toContain('Padaria Central Ltda');
    expect(res.text).toContain('R$\u00a01.234,50');
    expect(res.text).toContain('Pão &lt;b&gt;&amp; café&lt;/b&gt;');
    expect(res.text).toContain('Ana S.');
    expect(res.text).not.toMatch(/Maria|Souza|123\.?456\.?789|12345678909/);
    // The payment's id only in the link back to the shop, as the create's returnUrl asked.
    expect(res.text.split(id)).toHaveLength(2);
    const payment = (await api('GET', `/v1/payments/${id}`)).body.data;
    expect(res.text).toContain(`src="${payment.pix.qrCodePng}"`);
    expect(res.text).toContain(`>${payment.pix.copyPaste}</textarea>`);
    expect(res.text).toContain('role="status" aria-live="polite"');
    expect(res.text).toContain('Aguardando pagamento');
    // "Voltar à loja" is there for the paid state, hidden until then.
    expect(res.text).toMatch(new RegExp(`<section class="ending ending-paid" data-when="paid" hidden>[\\s\\S]*href="https://shop.example.com/done\\?o=1&amp;payment_id=${id}"`));
    assetsOf(res.text);
  });

  it('speaks English when the browser prefers it', async () => {
    const { page } = await newPayment();
    const res = await get(page, { 'accept-language': 'en-US,en;q=0.9,pt-BR;q=0.8' });
    expect(res.text).toContain('<html lang="en">');
    expect(res.headers.get('content-language')).toBe('en');
    expect(res.text).toContain('Waiting for payment');
    expect(res.text).toContain('Copy code');
    const portuguese = await get(page, { 'accept-language': 'pt-BR,en;q=0.9' });
    expect(portuguese.text).toContain('Copiar código');
  });

  it("shows a due-date charge's amount due today and its due date", async () => {
    const date = addDays(brasiliaDate(new Date()), 10);
    const { page } = await newPayment({ amount: 200, due: { date, discount: { type: 'fixed_until', until: [{ date, value: 15 }] } } });
    const res = await get(page);
    expect(res.status).toBe(200);
    expect(res.text).toContain('<span data-amount-due>R$\u00a0185,00</span>');
    expect(res.text).toContain('Valor original');
    expect(res.text).toContain('R$\u00a0200,00');
    const [y, m, d] = date.split('-').map(Number) as [number, number, number];
    expect(res.text).toContain(new Intl.DateTimeFormat('pt-BR', { dateStyle: 'long', timeZone: 'UTC' }).format(Date.UTC(y, m - 1, d, 12)));
    expect(res.text).not.toContain('id="time-left"');
    const status = await get(`${page}/status`);
    expect(status.body).toMatchObject({ status: 'pending', amountDue: 185, paidAt: null });
  });

  it("shows a recurrence's authorization QR and its terms, then the authorization", async () => {
    const created = await api('POST', '/v1/recurrences', recurrenceBody({ amount: 89.9, frequency: 'monthly', contract: { id: 'plan-gold', description: 'Plano Ouro' } }));
    expect(created.status).toBe(201);
    const { id, authorization } = created.body.data;
    const page = pathOf(authorization.checkoutUrl);
    const res = await get(page);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Autorizar Pix Automático');
    expect(res.text).toContain('Plano Ouro');
    expect(res.text).toContain('R$\u00a089,90');
    expect(res.text).toContain('Mensal');
    expect(res.text).toContain('Aguardando autorização');
    expect(res.text).toContain(`>${authorization.copyPaste}</textarea>`);
    expect(res.text).not.toContain('plan-gold');
    expect((await admin(`/admin/api/recurrences/${id}/simulate`, { action: 'authorize' })).status).toBe(200);
    expect((await get(`${page}/status`)).body).toMatchObject({ status: 'authorized' });
    const after = await get(page);
    expect(after.text).toContain('Autorização confirmada');
    expect(after.text).not.toContain('<script');
  });

  it('answers every unknown, malformed or other-kind token, and any other path under /pay, with the same 404 page', async () => {
    const { id } = await newPayment();
    const recurrence = (await api('POST', '/v1/recurrences', recurrenceBody())).body.data.id;
    const paths = [
      `/pay/${'A'.repeat(24)}`,
      '/pay/short',
      `/pay/${id}`,
      `/pay/${recurrence}`,
      `/pay/${'x'.repeat(300)}`,
      '/pay/%E0%A4%A',
      '/pay/%00',
      '/pay/..%2f..%2fadmin',
      '/pay',
      '/pay/a/b/c',
      `/pay/${'B'.repeat(24)}/status`,
      `/pay/${id}/status`,
      `/pay/${'C'.repeat(24)}/events`,
      '/pay/assets/checkout.0123456789ab.css',
    ];
    const answers = await Promise.all(paths.map((path) => get(path)));
    for (const [i, res] of answers.entries()) {
      expect([paths[i], res.status]).toEqual([paths[i], 404]);
      expectPageHeaders(res);
    }
    expect(new Set(answers.map((res) => res.text)).size).toBe(1);
    expect(answers[0]!.text).toContain('Página não encontrada');
  });

  it('follows the state as JSON: pending, then cancelled', async () => {
    const { id, page } = await newPayment();
    const before = await get(`${page}/status`);
    expect(before.status).toBe(200);
    expect(before.headers.get('cache-control')).toBe('no-store');
    expect(before.body).toEqual({ status: 'pending', paidAt: null, amountDue: null, expiresAt: expect.any(String) });
    expect((await api('POST', `/v1/payments/${id}/cancel`)).status).toBe(200);
    expect((await get(`${page}/status`)).body.status).toBe('cancelled');
    expect((await get(page)).text).toMatch(/<section class="ending ending-cancelled" data-when="cancelled">/);
  });

  it('streams the state: the current one at once, then a payment made meanwhile within 2 s', async () => {
    const { id, page } = await newPayment();
    const stream = await openStream(`${t.url}${page}/events`);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toBe('text/event-stream; charset=utf-8');
      expect(stream.headers['cache-control']).toBe('no-store');
      expect(await stream.next()).toMatchObject({ status: 'pending' });
      const paidAt = Date.now();
      expect((await admin(`/admin/api/payments/${id}/simulate`, { event: 'payment.confirmed' })).status).toBe(200);
      expect(await stream.next()).toMatchObject({ status: 'paid', paidAt: expect.any(String) });
      expect(Date.now() - paidAt).toBeLessThan(2_000);
      // A final state ends the stream.
      await stream.ended;
    } finally {
      stream.close();
    }
  });

  it('rate-limits each address: past the limit, the page asking to wait (429, Retry-After); another address is served', async () => {
    const { page } = await newPayment();
    const address = newAddress();
    const answers = await Promise.all(Array.from({ length: PAGE_REQUESTS_PER_MINUTE + 5 }, () => http(t.url, 'GET', page, { headers: asFrom(address) })));
    expect(answers.filter((res) => res.status === 200)).toHaveLength(PAGE_REQUESTS_PER_MINUTE);
    const limited = answers.filter((res) => res.status === 429);
    expect(limited).toHaveLength(5);
    expectPageHeaders(limited[0]!);
    expect(limited[0]!.text).toContain('Muitas tentativas');
    expect(Number(limited[0]!.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await get(page)).status).toBe(200);

    const statuses = await Promise.all(Array.from({ length: STATUS_REQUESTS_PER_MINUTE + 1 }, () => http(t.url, 'GET', `${page}/status`, { headers: asFrom(address) })));
    expect(statuses.filter((res) => res.status === 429)).toHaveLength(1);
  });

  it('loads in well under 100 KB compressed: the page with its QR, the stylesheet and the script', async () => {
    const { page } = await newPayment({ description: 'Pedido 1234: dois pães, um café e um bolo de fubá' });
    const res = await get(page);
    const { stylesheet, script } = assetsOf(res.text);
    const css = await get(stylesheet, { 'accept-encoding': 'identity' });
    const js = await get(script!, { 'accept-encoding': 'identity' });
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const raw = [res.text, css.text, js.text].map((text) => Buffer.byteLength(text));
    const gzipped = [res.text, css.text, js.text].map((text) => gzipSync(text).length);
    const total = gzipped.reduce((a, b) => a + b, 0);
    console.log(`checkout page's first load: ${raw.join(' + ')} bytes, gzipped ${gzipped.join(' + ')} = ${total} bytes`);
    expect(total).toBeLessThan(100 * 1024);
  });
});

interface EventStream {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The next `status` event's data. */
  next(): Promise<unknown>;
  ended: Promise<void>;
  close(): void;
}

/** Opens a server-sent event stream over node:http and reads its `status` events in order. */
function openStream(url: string): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers: { accept: 'text/event-stream', 'x-forwarded-for': newAddress() } }, (res) => {
      const queue: unknown[] = [];
      const waiting: ((value: unknown) => void)[] = [];
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let cut;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = /^event: status\ndata: (.*)$/m.exec(block)?.[1];
          if (data === undefined) continue;
          const value = JSON.parse(data);
          const waiter = waiting.shift();
          if (waiter) waiter(value);
          else queue.push(value);
        }
      });
      const ended = new Promise<void>((done) => res.on('end', () => done()));
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        next: () => (queue.length ? Promise.resolve(queue.shift()) : new Promise((r) => waiting.push(r))),
        ended,
        close: () => req.destroy(),
      });
    });
    req.on('error', reject);
    req.end();
  });
}
