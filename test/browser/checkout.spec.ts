import { randomBytes } from 'node:crypto';
import axe from 'axe-core';
import type { Page, Response } from 'playwright-core';
import { PUBLIC_PAGE_CSP } from '../../src/checkout/public-pages';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import { paymentBody, recurrenceBody } from '../helpers/factories';
import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';
import { DESKTOP, launchBrowser, screenshot } from './browser';

/** The narrowest phone the pages are made for. */
const NARROW = { width: 360, height: 780 };
/** How soon a page open in the browser shows a change the gateway knows of. */
const LIVE_WITHIN_MS = 2_000;
const PORTUGUESE = { 'accept-language': 'pt-BR,pt;q=0.9' };

/**
 * The payer's pages in Chromium (docs/checkout.md), at 1,280 and 360 px: a payment paid and one
 * cancelled while their pages are open (each turns without a reload), a due-date charge's page, a
 * recurrence's authorization, a payment link bought by two payers, a range link, a CPF the server
 * refuses, a used-up link and the 404 page; each kind checked with axe-core (no serious or critical
 * finding), its Content-Security-Policy asserted, and no request to any other origin.
 */
describe('checkout pages (Chromium)', () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let key: string;
  let merchantId: string;
  /** Every URL the browser asked for, to find any of another origin. */
  const requested: string[] = [];

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    page = browser.page;
    ({ id: merchantId, apiKey: key } = await t.admin.newMerchant({ name: 'Padaria Central Comércio de Alimentos Ltda' }));
    await t.dataSource.query(`UPDATE merchants SET display_name = 'Padaria Central', brand_color = '#7a2e0e' WHERE id = $1`, [merchantId]);
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
    page.on('request', (request) => requested.push(request.url()));
    // Headless Chromium asks for American English; a Brazilian payer's browser for Portuguese.
    await page.setExtraHTTPHeaders(PORTUGUESE);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  afterEach(async () => {
    await page.setViewportSize(DESKTOP);
    const foreign = requested.filter((url) => !url.startsWith(`${t.url}/`) && !url.startsWith('data:'));
    requested.length = 0;
    expect(foreign).toEqual([]);
  });

  const api = (method: string, path: string, body?: unknown) =>
    http(t.url, method, path, { headers: { 'x-merchant-key': key, ...(method === 'POST' ? { 'idempotency-key': randomBytes(8).toString('hex') } : {}) }, body });
  const admin = (path: string, body: unknown) => http(t.url, 'POST', path, { headers: { authorization: `Bearer ${t.config.adminApiToken.reveal()}` }, body });
  const status = () => page.locator('#status');

  async function open(path: string): Promise<Response> {
    const response = await page.goto(`${t.url}${path}`);
    expect(response!.headers()['content-security-policy']).toBe(PUBLIC_PAGE_CSP);
    expect(response!.headers()['cache-control']).toBe('no-store');
    return response!;
  }

  /** axe-core's serious and critical findings on the page as it is now. */
  async function accessibilityProblems(): Promise<string[]> {
    await page.evaluate(axe.source);
    const results = await page.evaluate<axe.AxeResults>("axe.run(document, { resultTypes: ['violations'] })");
    return results.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  }

  /** Screenshots at 1,280 and 360 px, with nothing sticking out sideways and no serious accessibility finding at either. */
  async function atBothWidths(name: string): Promise<void> {
    expect(await accessibilityProblems()).toEqual([]);
    await screenshot(page, `checkout-${name}-desktop`);
    await page.setViewportSize(NARROW);
    try {
      expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      expect(await accessibilityProblems()).toEqual([]);
      await screenshot(page, `checkout-${name}-phone`);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  }

  async function newPayment(overrides: Record<string, unknown> = {}): Promise<{ id: string; path: string }> {
    const created = await api('POST', '/v1/payments/create', paymentBody(overrides));
    expect(created.status).toBe(201);
    return { id: created.body.data.id, path: new URL(created.body.data.checkoutUrl).pathname };
  }

  async function newLink(body: Record<string, unknown>): Promise<string> {
    const created = await api('POST', '/v1/payment-links', { title: 'Cesta de café da manhã', ...body });
    expect(created.status).toBe(201);
    return new URL(created.body.data.url).pathname;
  }

  it('turns paid while open, without a reload, and offers the way back to the shop', async () => {
    const { id, path } = await newPayment({
      amount: 87.4,
      description: 'Pedido 1234: pães, bolo de fubá e café',
      recipientName: 'Ana Maria Souza',
      returnUrl: 'https://padaria.example/pedido/1234',
    });
    await open(path);
    await page.getByRole('heading', { name: 'Pagamento via Pix' }).waitFor();
    expect(await status().textContent()).toBe('Aguardando pagamento');
    expect(await page.getByRole('img', { name: 'QR Code do Pix de R$ 87,40' }).isVisible()).toBe(true);
    expect(await page.locator('#time-left').textContent()).toMatch(/^\d+:\d{2}(:\d{2})?$/);
    // Keyboard only: the code, then the copy button, which copies and says so.
    await page.locator('#pix-code').focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('copy-code');
    await page.keyboard.press('Enter');
    await page.getByText('Código copiado.', { exact: true }).waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(await page.locator('#pix-code').inputValue());
    await atBothWidths('payment-pending');

    const asked = Date.now();
    expect((await admin(`/admin/api/payments/${id}/simulate`, { event: 'payment.confirmed' })).status).toBe(200);
    await status().filter({ hasText: 'Pagamento confirmado' }).waitFor({ timeout: LIVE_WITHIN_MS });
    expect(Date.now() - asked).toBeLessThan(LIVE_WITHIN_MS + 1_000);
    expect(await page.getByRole('img').count()).toBe(0);
    const back = page.getByRole('link', { name: 'Voltar à loja' });
    expect(await back.getAttribute('href')).toBe(`https://padaria.example/pedido/1234?payment_id=${id}`);
    await atBothWidths('payment-paid');
  });

  it('turns cancelled while open, in English for a browser that asks for it', async () => {
    const { id, path } = await newPayment({ amount: 15 });
    await page.setExtraHTTPHeaders({ 'accept-language': 'en-US,en;q=0.9' });
    try {
      await open(path);
      expect(await status().textContent()).toBe('Waiting for payment');
      expect((await api('POST', `/v1/payments/${id}/cancel`)).status).toBe(200);
      await status().filter({ hasText: 'Charge cancelled' }).waitFor({ timeout: LIVE_WITHIN_MS });
      await page.getByText('The shop cancelled this charge. Nothing was charged.').waitFor();
      await atBothWidths('payment-cancelled-en');
    } finally {
      await page.setExtraHTTPHeaders(PORTUGUESE);
    }
  });

  it("shows a due-date charge's amount due today and its due date", async () => {
    const date = addDays(brasiliaDate(new Date()), 12);
    const { path } = await newPayment({
      amount: 450,
      description: 'Mensalidade de dezembro',
      due: { date, fine: { type: 'percent', value: 2 }, discount: { type: 'fixed_until', until: [{ date, value: 20 }] } },
    });
    await open(path);
    expect(await page.locator('[data-amount-due]').textContent()).toBe('R$\u00a0430,00');
    await page.getByText('Vencimento').waitFor();
    await atBothWidths('due-charge');
  });

  it("shows a recurrence's authorization QR and terms, then its authorization", async () => {
    const created = await api('POST', '/v1/recurrences', recurrenceBody({ amount: 89.9, contract: { id: 'plan-gold', description: 'Plano Ouro: academia e piscina' } }));
    expect(created.status).toBe(201);
    await open(new URL(created.body.data.authorization.checkoutUrl).pathname);
    expect(await status().textContent()).toBe('Aguardando autorização');
    await page.getByText('Plano Ouro: academia e piscina').waitFor();
    await atBothWidths('recurrence-pending');
    expect((await admin(`/admin/api/recurrences/${created.body.data.id}/simulate`, { action: 'authorize' })).status).toBe(200);
    await status().filter({ hasText: 'Autorização confirmada' }).waitFor({ timeout: LIVE_WITHIN_MS });
    await atBothWidths('recurrence-authorized');
  });

  it('sells a payment link to two payers, each sent to a payment of their own', async () => {
    const path = await newLink({ amount: 45.5, description: 'Pães, frutas, bolo e café para duas pessoas.', collect: { email: true } });
    const pages: string[] = [];
    for (const [name, document, email] of [
      ['Bruna Lima', '529.982.247-25', 'bruna@example.com'],
      ['Carlos Nunes', '11.222.333/0001-81', 'carlos@example.com'],
    ] as const) {
      await open(path);
      await page.getByLabel('Nome completo').fill(name);
      await page.getByLabel('CPF ou CNPJ').fill(document);
      await page.getByLabel('E-mail').fill(email);
      if (pages.length === 0) await atBothWidths('link-form');
      await page.getByRole('button', { name: 'Continuar para o pagamento' }).click();
      await page.getByRole('heading', { name: 'Pagamento via Pix' }).waitFor();
      expect(await page.locator('.amount [data-amount-due]').textContent()).toBe('R$\u00a045,50');
      expect(await page.getByText(`${name.split(' ')[0]} ${name.split(' ')[1]![0]}.`).count()).toBe(1);
      pages.push(new URL(page.url()).pathname);
    }
    expect(new Set(pages).size).toBe(2);
  });

  it("takes a range link's amount, checking it in the browser before sending", async () => {
    const path = await newLink({ title: 'Doação para a festa junina', amountRange: { min: 10, max: 300 } });
    await open(path);
    await page.getByLabel(/Valor/).fill('5');
    await page.getByLabel('Nome completo').fill('Diego Alves');
    await page.getByLabel('CPF ou CNPJ').fill('529.982.247-25');
    await page.getByRole('button', { name: 'Continuar para o pagamento' }).click();
    await page.getByText('Informe um valor entre R$ 10,00 e R$ 300,00.').waitFor();
    expect(new URL(page.url()).pathname).toBe(path);
    expect(await page.evaluate('document.activeElement && document.activeElement.id')).toBe('amount');
    await atBothWidths('link-range-error');
    await page.getByLabel(/Valor/).fill('42,50');
    await page.getByRole('button', { name: 'Continuar para o pagamento' }).click();
    await page.getByRole('heading', { name: 'Pagamento via Pix' }).waitFor();
    expect(await page.locator('[data-amount-due]').textContent()).toBe('R$\u00a042,50');
  });

  it('shows the CPF the server refused, on the form again', async () => {
    const path = await newLink({ amount: 20 });
    await open(path);
    await page.getByLabel('Nome completo').fill('Elisa Prado');
    await page.getByLabel('CPF ou CNPJ').fill('123.456.789-00');
    // Sent as a browser without the script would: the server's own check answers.
    await Promise.all([page.waitForNavigation(), page.evaluate("document.getElementById('link-form').submit()")]);
    await page.getByText('Informe um CPF ou CNPJ válido.').waitFor();
    expect(await page.getByLabel('CPF ou CNPJ').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Nome completo').inputValue()).toBe('Elisa Prado');
    await atBothWidths('link-refused-cpf');
  });

  it('says a used-up link takes no more payments, and shows the 404 page for a link that never was', async () => {
    const path = await newLink({ amount: 20, maxPayments: 1 });
    await open(path);
    await page.getByLabel('Nome completo').fill('Fábio Rocha');
    await page.getByLabel('CPF ou CNPJ').fill('529.982.247-25');
    await page.getByRole('button', { name: 'Continuar para o pagamento' }).click();
    await page.getByRole('heading', { name: 'Pagamento via Pix' }).waitFor();
    await open(path);
    await page.getByRole('heading', { name: 'Link esgotado' }).waitFor();
    await atBothWidths('link-used-up');
    const missing = await page.goto(`${t.url}/pay/${'Z'.repeat(24)}`);
    expect(missing!.status()).toBe(404);
    await page.getByRole('heading', { name: 'Página não encontrada' }).waitFor();
    await atBothWidths('not-found');
  });
});
