import type { Page } from 'playwright-core';
import { startTestApp, TestApp } from '../helpers/test-app';
import { DESKTOP, launchBrowser, PHONE, screenshot } from './browser';

/**
 * Swagger UI at /docs works under the gateway's Content-Security-Policy, asks no other host for
 * anything, and does what it shows: Authorize with a merchant key, then Execute, creates a payment.
 */
describe('API docs (Chromium)', () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp({ env: { PUBLIC_BASE_URL: 'https://pix.example.com' } }), launchBrowser()]);
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders the operations with no CSP violation and no request to another host', async () => {
    const violations: string[] = [];
    const elsewhere: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(t.url) && !request.url().startsWith('data:')) elsewhere.push(request.url());
    });
    await page.goto(`${t.url}/docs`);
    await page.getByText('/v1/payments/create').first().waitFor();
    await screenshot(page, 'api-docs');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'api-docs-phone');
    expect(violations).toEqual([]);
    expect(elsewhere).toEqual([]);
  });

  it('creates a payment after Authorize with a merchant key, with the example body as it is and only the Idempotency-Key filled', async () => {
    const { apiKey } = await t.newMerchant();
    await page.setViewportSize(DESKTOP);
    await page.goto(`${t.url}/docs`);
    // The merchant's operations come first.
    await page.locator('.opblock-tag').first().waitFor();
    expect(await page.locator('.opblock-tag').first().textContent()).toMatch(/^payments/);

    await page.getByRole('button', { name: 'Authorize' }).first().click();
    const dialog = page.locator('.dialog-ux .modal-ux');
    const merchantScheme = dialog.locator('.auth-container').filter({ hasText: 'merchantKey' });
    await merchantScheme.locator('input').fill(apiKey);
    await merchantScheme.getByRole('button', { name: 'Apply credentials' }).click();
    await merchantScheme.getByRole('button', { name: 'Remove authorization' }).waitFor();
    // Authorizing scrolls the dialog; the shot shows the merchant key's section.
    await dialog.locator('.modal-ux-content').evaluate((element) => element.scrollTo(0, 0));
    await screenshot(page, 'api-docs-authorize');
    await dialog.getByRole('button', { name: 'Close' }).first().click();

    const create = page.locator('#operations-payments-createPayment');
    await create.locator('.opblock-summary').click();
    await create.getByRole('button', { name: 'Try it out' }).click();
    // The key is a scheme, not a parameter: the only header to fill is the Idempotency-Key.
    expect(await create.locator('tr[data-param-name="X-Merchant-Key"]').count()).toBe(0);
    await create.locator('tr[data-param-name="Idempotency-Key"] input').fill(`swagger-${Date.now()}`);
    await create.getByRole('button', { name: 'Execute' }).click();

    const answer = create.locator('.live-responses-table .response');
    await answer.waitFor();
    expect((await answer.locator('.response-col_status').textContent())?.trim()).toBe('201');
    expect(await answer.locator('.response-col_description').textContent()).toContain('"status": "pending"');
    // The payment exists for the key's merchant, made of the example body.
    const listed = await t.merchant(apiKey).GET('/v1/payments', {});
    expect(listed.data?.items.map((payment) => [payment.externalId, payment.amount, payment.status])).toEqual([['order-1234', 10.5, 'pending']]);
    await screenshot(page, 'api-docs-create-payment');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'api-docs-create-payment-phone');
  });
});
