import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { paymentBody } from '../helpers/factories';
import { startTestApp, TestApp } from '../helpers/test-app';
import { launchBrowser, PHONE, DESKTOP, screenshot, signIn } from './browser';

/** A merchant endpoint that answers 500 until told to recover. */
async function startFlakyReceiver(): Promise<{ url: string; server: Server; recover: () => void; statuses: number[] }> {
  let healthy = false;
  const statuses: number[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const status = healthy ? 200 : 500;
      statuses.push(status);
      res.writeHead(status).end(healthy ? 'ok' : 'database down');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server, recover: () => (healthy = true), statuses };
}

/** A delivery that exhausted its retries shows on the deliveries page, and Redeliver gets it through. */
describe('deliveries page (Chromium)', () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let receiver: Awaited<ReturnType<typeof startFlakyReceiver>>;

  beforeAll(async () => {
    // One quick retry, then the delivery is failed.
    [t, browser, receiver] = await Promise.all([startTestApp({ env: { DELIVERY_POLL_MS: '100', DELIVERY_RETRY_SCHEDULE_MS: '50' } }), launchBrowser(), startFlakyReceiver()]);
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    receiver?.server.close();
  });

  it('lists the failed delivery with its last result, and redelivers it', async () => {
    const shop = await t.admin.newMerchant({ name: 'Padaria Central', webhook_url: receiver.url });
    const created = await t.merchant(shop.apiKey).POST('/v1/payments/create', { body: paymentBody({ externalId: 'pao-42' }) });
    expect(created.status).toBe(201);
    const paymentId = created.data!.id;
    expect((await t.admin.POST('/admin/api/payments/{id}/simulate', { params: { path: { id: paymentId } }, body: { event: 'payment.confirmed' } })).status).toBe(200);

    await signIn(page, t.url);
    await page.goto(`${t.url}/admin/deliveries`);
    const row = page.getByRole('table', { name: 'failed deliveries' }).getByRole('row').filter({ hasText: 'Padaria Central' });
    for (let i = 0; (await row.count()) === 0; i++) {
      if (i > 50) throw new Error('the delivery never failed');
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page.waitForTimeout(200);
    }
    expect(await row.textContent()).toMatch(/Gave up after 2 attempts.*HTTP 500/);
    await screenshot(page, 'desktop-deliveries-failed');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'phone-deliveries-failed');
    await page.setViewportSize(DESKTOP);

    receiver.recover();
    await row.getByRole('button', { name: 'Redeliver' }).click();
    await page.getByText('A new attempt is queued').waitFor();

    await page.goto(`${t.url}/admin/payments/${paymentId}`);
    await page
      .getByTestId('delivery')
      .filter({ hasText: /Delivered/ })
      .waitFor();
    const codes = await page.getByRole('table', { name: 'Attempts' }).locator('td[data-label="Status code"]').allTextContents();
    expect(codes).toEqual(['500', '500', '200']);
    expect(receiver.statuses).toEqual([500, 500, 200]);
  });
});
