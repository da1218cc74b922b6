import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { paymentBody } from '../helpers/factories';
import { startTestApp, TestApp } from '../helpers/test-app';
import { DESKTOP, launchBrowser, nav, PHONE, screenshot, signIn } from './browser';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A merchant's webhook endpoint: answers 200 and keeps what it got. */
async function startReceiver(): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/pix-events`, received, server };
}

async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The operator's whole path through the dashboard in a real browser: sign in, create a merchant,
 * issue a key, a payment made with that key shows up, a simulated confirmation changes its status
 * and its delivery, and a revoked key stops working.
 */
describe('dashboard (Chromium)', () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  beforeAll(async () => {
    [t, browser, receiver] = await Promise.all([startTestApp({ env: { DELIVERY_POLL_MS: '100' } }), launchBrowser(), startReceiver()]);
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    receiver?.server.close();
  });

  it('takes an operator from sign-in to a paid, delivered payment, and revokes the key', async () => {
    await page.goto(`${t.url}/admin`);
    await page.getByRole('heading', { name: 'Sign in to the dashboard' }).waitFor();
    await screenshot(page, 'desktop-login');
    await signIn(page, t.url);

    // Create a merchant whose webhooks go to the receiver, with a signing secret shown once.
    await nav(page, 'Merchants').click();
    await page.getByRole('button', { name: 'New merchant' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Loja da Ana');
    await page.getByLabel('Webhook URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Create merchant' }).click();
    await page.getByText('Copy this signing secret now. It will not be shown again.').waitFor();
    const secret = (await page.getByTestId('revealed-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have stored it safely' }).click();
    await page.getByRole('heading', { name: /Loja da Ana/ }).waitFor();
    const merchantPath = new URL(page.url()).pathname;
    expect(merchantPath).toMatch(/^\/admin\/merchants\/mer_/);

    // Issue a key: shown once, with a warning and a copy button.
    await page.getByRole('button', { name: 'Issue key' }).click();
    await page.getByText('Copy this API key now. It will not be shown again.').waitFor();
    expect(await page.getByRole('dialog').getByRole('button', { name: 'Copy' }).isVisible()).toBe(true);
    const key = (await page.getByTestId('revealed-secret').textContent())!;
    expect(key).toMatch(/^mk_live_[A-Za-z0-9]{32,}$/);
    await screenshot(page, 'desktop-key-issued');
    await page.getByRole('button', { name: 'I have stored it safely' }).click();
    await page
      .getByRole('table', { name: 'API keys' })
      .getByText(`${key.slice(0, 12)}…`)
      .waitFor();

    // The merchant uses the key through the merchant API.
    const body = paymentBody({ externalId: 'pedido-browser-1', amount: 42.9 });
    const created = await t.merchant(key).POST('/v1/payments/create', { body, params: { header: { 'Idempotency-Key': 'browser-test-1' } } });
    expect(created.status).toBe(201);
    const paymentId = created.data!.id;

    // It shows in the list; its page shows the BR Code and QR image.
    await nav(page, 'Payments').click();
    await page.getByRole('link', { name: 'pedido-browser-1' }).click();
    await page.waitForURL(`**/admin/payments/${paymentId}`);
    await page.getByRole('heading', { name: /pending/ }).waitFor();
    expect(await page.getByLabel('BR Code (Pix copia e cola)').inputValue()).toBe(created.data!.pix.copyPaste);
    expect(await page.getByAltText('QR code of the Pix BR Code').evaluate((img) => (img as unknown as { complete: boolean; naturalWidth: number }).naturalWidth > 0)).toBe(true);

    // Simulate the confirmation: status and delivery change on the page.
    await page.getByRole('button', { name: 'Simulate payment' }).click();
    await page.getByRole('heading', { name: /paid/ }).waitFor();
    await page
      .getByTestId('delivery')
      .filter({ hasText: 'payment.confirmed' })
      .filter({ hasText: /Delivered/ })
      .waitFor();
    const attemptRow = page.getByTestId('delivery').getByRole('table', { name: 'Attempts' }).locator('tbody tr').first();
    expect(await attemptRow.textContent()).toMatch(/200.*\d+ ms/);
    await page.getByText('payment.confirmed').first().waitFor();
    await screenshot(page, 'desktop-payment');

    // The merchant received the event, signed with the secret the dashboard showed once.
    const delivered = await waitFor('the forwarded event', () => receiver.received.find((r) => r.body.includes(paymentId)));
    expect(new Webhook(secret).verify(delivered.body, delivered.headers as Record<string, string>)).toMatchObject({
      event: 'payment.confirmed',
      data: { id: paymentId, status: 'paid' },
    });

    // The overview counts it.
    await nav(page, 'Overview').click();
    await page.getByText('R$ 42,90').first().waitFor();
    await screenshot(page, 'desktop-overview');

    // Revoke the key, with a confirmation; the merchant API then refuses it.
    await page.goto(`${t.url}${merchantPath}`);
    await page.getByRole('table', { name: 'API keys' }).getByRole('button', { name: 'Revoke' }).click();
    await page
      .getByRole('dialog')
      .getByText(`${key.slice(0, 12)}…`)
      .waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page
      .getByRole('table', { name: 'API keys' })
      .getByText(/revoked/)
      .waitFor();
    await screenshot(page, 'desktop-merchant');
    const refused = await t.merchant(key).POST('/v1/payments/create', { body: paymentBody(), params: { header: { 'Idempotency-Key': 'browser-test-2' } } });
    expect(refused.status).toBe(401);
    expect(refused.error?.code).toBe('INVALID_MERCHANT_KEY');
  });

  it('shows every main page at desktop and phone width', async () => {
    const pages: [string, string, RegExp][] = [
      ['overview', '/admin', /Overview/],
      ['merchants', '/admin/merchants', /Merchants/],
      ['payments', '/admin/payments', /Payments/],
      ['deliveries', '/admin/deliveries?status=delivered', /Webhook deliveries/],
    ];
    for (const [label, size] of [
      ['desktop', DESKTOP],
      ['phone', PHONE],
    ] as const) {
      await page.setViewportSize(size);
      for (const [name, path, heading] of pages) {
        await page.goto(`${t.url}${path}`);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        // Every spinner gone: the overview loads its money-invariant card beside the page's own data.
        // Waited on through locators: a string predicate is evaluated in the page, which its Content-Security-Policy forbids.
        while ((await page.locator('.spinner').count()) > 0) await page.locator('.spinner').first().waitFor({ state: 'detached' });
        // Nothing may stick out sideways at phone width.
        expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
        await screenshot(page, `${label}-${name}`);
      }
    }
    await page
      .getByRole('link', { name: 'pedido-browser-1' })
      .first()
      .click()
      .catch(async () => {
        await page.goto(`${t.url}/admin/payments`);
        await page.getByRole('link', { name: 'pedido-browser-1' }).click();
      });
    await page.getByRole('heading', { name: /paid/ }).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await screenshot(page, 'phone-payment');
    await page.getByRole('link', { name: 'Loja da Ana' }).click();
    await page.getByRole('heading', { name: /Loja da Ana/ }).waitFor();
    await page.getByRole('table', { name: 'API keys' }).waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await screenshot(page, 'phone-merchant');
    await page.setViewportSize(DESKTOP);
  });
});
