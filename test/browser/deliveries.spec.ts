import type { Page } from 'playwright-core';
import { settled } from '../helpers/deliveries';
import { paymentBody } from '../helpers/factories';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { startTestApp, TestApp } from '../helpers/test-app';
import { launchBrowser, PHONE, DESKTOP, screenshot as saveScreenshot, signIn } from './browser';

/** From the top (a full-page shot of a scrolled page draws the sticky top bar mid-page), and nothing wider than the window. */
async function screenshot(page: Page, name: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
  await saveScreenshot(page, name);
}

/**
 * The deliveries page opens on what needs attention (a delivery being retried, then one that
 * failed), a row opens on its payload and each attempt's answer, a test event tells what the
 * endpoint says now, and Redeliver gets the failed one through.
 */
describe('deliveries page (Chromium)', () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let failing: MerchantReceiver;
  let busy: MerchantReceiver;

  beforeAll(async () => {
    // One quick retry, then the delivery is failed.
    [t, browser, failing, busy] = await Promise.all([
      startTestApp({ env: { DELIVERY_POLL_MS: '100', DELIVERY_RETRY_SCHEDULE_MS: '50' } }),
      launchBrowser(),
      MerchantReceiver.start(),
      MerchantReceiver.start(),
    ]);
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await failing?.close();
    await busy?.close();
  });

  async function confirmedPaymentOf(name: string, webhookUrl: string): Promise<{ merchantId: string; paymentId: string }> {
    const shop = await t.admin.newMerchant({ name, webhook_url: webhookUrl });
    const created = await t.merchant(shop.apiKey).POST('/v1/payments/create', { body: paymentBody() });
    expect(created.status).toBe(201);
    const paymentId = created.data!.id;
    expect((await t.admin.POST('/admin/api/payments/{id}/simulate', { params: { path: { id: paymentId } }, body: { event: 'payment.confirmed' } })).status).toBe(200);
    return { merchantId: shop.id, paymentId };
  }

  it('lists the retrying delivery before the failed one, shows payload and answers, tests the endpoint and redelivers', async () => {
    failing.respondWith(() => ({ status: 500, headers: { 'content-type': 'application/json' }, body: '{"error":"database down","retry":"later"}' }));
    // Asks for an hour's wait: its delivery stays pending after one failed attempt (retrying).
    busy.respondWith(() => ({ status: 503, headers: { 'retry-after': '3600' }, body: 'Service Unavailable: maintenance until 03:00' }));
    const padaria = await confirmedPaymentOf('Padaria Central', failing.url);
    const azul = await confirmedPaymentOf('Mercado Azul', busy.url);
    await Promise.all([settled(t, padaria.paymentId, 'failed', 2), settled(t, azul.paymentId, 'pending', 1)]);

    await signIn(page, t.url);
    // The overview's "pending · review" link lands on the same view.
    await page.getByRole('link', { name: /pending · review/ }).click();
    await page.getByRole('tab', { name: 'Needs attention', selected: true }).waitFor();
    const retryingRow = page.getByRole('table', { name: 'retrying deliveries' }).getByRole('row').filter({ hasText: 'Mercado Azul' });
    const failedRow = page.getByRole('table', { name: 'failed deliveries' }).getByRole('row').filter({ hasText: 'Padaria Central' });
    expect(await retryingRow.textContent()).toMatch(/Attempt 2 in (59 min|1 h).*HTTP 503/);
    expect(await failedRow.textContent()).toMatch(/Gave up after 2 attempts.*HTTP 500/);
    const headings = await page.getByRole('heading', { level: 2 }).allTextContents();
    expect(headings.indexOf('Retrying')).toBeLessThan(headings.indexOf('Failed'));
    await screenshot(page, 'desktop-deliveries-attention');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'phone-deliveries-attention');
    await page.setViewportSize(DESKTOP);

    await failedRow.getByRole('button', { name: 'Details' }).click();
    const payload = page.getByLabel('Payload');
    await payload.waitFor();
    expect(JSON.parse((await payload.textContent())!)).toMatchObject({ event: 'payment.confirmed', data: { id: padaria.paymentId } });
    const answers = await page.getByRole('table', { name: 'Attempts' }).locator('td[data-label="Answer"]').allTextContents();
    expect(answers).toEqual(['{"error":"database down","retry":"later"}', '{"error":"database down","retry":"later"}']);
    await page.getByRole('button', { name: 'Send test event' }).click();
    const result = page.getByRole('status', { name: 'Test event result' });
    await result.waitFor();
    expect(await result.textContent()).toMatch(/Answered HTTP 500 in \d+ ms: not 2xx.*Sent to http:\/\/127\.0\.0\.1/);
    expect(failing.received.at(-1)!.body).toMatchObject({ event: 'test.ping', data: { merchant_id: padaria.merchantId } });
    await screenshot(page, 'desktop-deliveries-details');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'phone-deliveries-details');
    await page.setViewportSize(DESKTOP);

    failing.respondWith(() => ({ status: 200, body: 'ok' }));
    await failedRow.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByText('A new attempt is queued').waitFor();

    await page.goto(`${t.url}/admin/payments/${padaria.paymentId}`);
    await page
      .getByTestId('delivery')
      .filter({ hasText: /Delivered/ })
      .waitFor();
    const codes = await page.getByRole('table', { name: 'Attempts' }).locator('td[data-label="Status code"]').allTextContents();
    expect(codes).toEqual(['500', '500', '200']);
    // Two attempts, the test event, the redelivery: the test event was never retried.
    expect(failing.received.map((r) => r.status)).toEqual([500, 500, 500, 200]);
  });

  it('sends a test event from the merchant’s page and shows the answer', async () => {
    const shop = await t.admin.newMerchant({ name: 'Loja Teste', webhook_url: failing.url });
    failing.respondWith(() => ({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"pong":true}' }));
    await page.setViewportSize(DESKTOP);
    await page.goto(`${t.url}/admin/merchants/${shop.id}`);
    await page.getByRole('button', { name: 'Send test event' }).click();
    const result = page.getByRole('status', { name: 'Test event result' });
    await result.waitFor();
    expect(await result.textContent()).toMatch(/Answered HTTP 200 in \d+ ms/);
    expect(await result.textContent()).toContain('{"pong":true}');
    await screenshot(page, 'desktop-merchant-test-event');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'phone-merchant-test-event');
    await page.setViewportSize(DESKTOP);
  });
});
