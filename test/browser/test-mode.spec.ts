import type { Page } from 'playwright-core';
import { testPki } from '../../src/testing/certificates';
import { startTestApp, TestApp } from '../helpers/test-app';
import { DESKTOP, launchBrowser, PHONE, screenshot, signIn } from './browser';

/** Whether nothing sticks out sideways (phone width). */
const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

/**
 * Test mode on the dashboard (docs/dashboard.md, Test mode): the payments list and page mark the
 * payments that went through a test PSP, the operator creates a test payment from the payments page,
 * and the payment page makes the sandbox pay it and refund it, the events running through the
 * gateway's whole intake path.
 */
describe('test mode (Chromium)', () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let shop: { id: string };

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    page = browser.page;
    shop = await t.admin.newMerchant({ name: 'Loja da Ana' });
    // A live payment beside the test ones (a PSP's production account; nothing is called).
    await t.newPayment(shop.id, { externalId: 'pedido-live-1', provider: 'efi', environment: 'production', providerPaymentId: null });
    await signIn(page, t.url);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  afterEach(() => page.setViewportSize(DESKTOP));

  const heading = () => page.getByRole('heading', { level: 1 });
  const row = (externalId: string) => page.getByRole('table', { name: 'Payments' }).getByRole('row').filter({ hasText: externalId });

  it('creates a test payment from the payments page, marked "test" on the list and on its page, where the sandbox pays and refunds it', async () => {
    await page.goto(`${t.url}/admin/payments`);
    await row('pedido-live-1').waitFor();
    await page.getByRole('button', { name: 'New test payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'New test payment' });
    await dialog.getByLabel('Amount (R$)').fill('12,34');
    await dialog.getByLabel('Description').fill('Trying the checkout');
    await screenshot(page, 'test-mode-form-desktop');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'test-mode-form-phone');
    await page.setViewportSize(DESKTOP);
    await dialog.getByRole('button', { name: 'Create test payment of R$\u00a012,34' }).click();

    // The payment's page: the test badge beside its status, and the test PSP's panel.
    await heading()
      .filter({ hasText: /pending test$/ })
      .waitFor();
    expect(await heading().getByText('test', { exact: true }).getAttribute('class')).toBe('badge badge-test');
    const panel = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Test PSP' }) });
    expect(await panel.getByRole('button').allTextContents()).toEqual(['Simulate payment', 'Simulate expiry', 'Simulate failure', 'Simulate cancel']);
    await screenshot(page, 'test-mode-payment-desktop');
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'test-mode-payment-phone');
    await page.setViewportSize(DESKTOP);

    // Paid by the sandbox: the event ran through intake; the page shows the Pix as a PSP reports it.
    await panel.getByRole('button', { name: 'Simulate payment' }).click();
    await heading()
      .filter({ hasText: /paid test$/ })
      .waitFor();
    await page.getByText(/the test PSP sent payment\.confirmed to the gateway; the payment is now paid/).waitFor();
    await page.getByText(/^E99999999\d{12}[a-zA-Z0-9]{11}$/).waitFor();
    await page
      .getByText(/Test payer/)
      .first()
      .waitFor();
    await screenshot(page, 'test-mode-paid-desktop');
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'test-mode-paid-phone');
    await page.setViewportSize(DESKTOP);

    await panel.getByRole('button', { name: 'Simulate refund at the PSP' }).click();
    await heading()
      .filter({ hasText: /refunded test$/ })
      .waitFor();

    // The list: "test" on the test payment's row, nothing on the live one's.
    await page.goto(`${t.url}/admin/payments`);
    const testRow = row('test-');
    await row('pedido-live-1').waitFor();
    expect(await row('pedido-live-1').locator('.badge-test').count()).toBe(0);
    expect(await testRow.first().locator('.badge-test').textContent()).toBe('test');
    await screenshot(page, 'test-mode-list-desktop');
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'test-mode-list-phone');
  });

  it('says on the merchant page that a merchant charged only through test PSPs is in test mode, and that its keys are ordinary live keys', async () => {
    await page.goto(`${t.url}/admin/merchants/${shop.id}`);
    await page.getByText(/^Test mode\. Every account this merchant is charged through is a test PSP/).waitFor();
    await page.getByText('Its API keys are ordinary', { exact: false }).waitFor();
    await screenshot(page, 'test-mode-merchant-desktop');
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'test-mode-merchant-phone');
  });

  it("shows the gateway's refusal in the form for a merchant whose route holds a live account, and creates nothing", async () => {
    const pki = testPki();
    const live = await t.admin.POST('/admin/api/provider-accounts', {
      body: {
        name: 'Banco (live)',
        provider: 'pix-api',
        environment: 'production',
        base_url: 'https://8.8.8.8/api/v2',
        token_url: 'https://8.8.8.8/oauth/token',
        pix_key: 'recebedor@example.com',
        credentials: { client_id: 'client-1', client_secret: 'secret-1', certificate_pem: pki.client.cert, private_key_pem: pki.client.key },
      },
    });
    const merchant = await t.admin.newMerchant({ name: 'Loja ao Vivo', provider_accounts: [live.data!.id] });
    await page.goto(`${t.url}/admin/payments`);
    await page.getByRole('button', { name: 'New test payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'New test payment' });
    await dialog.getByLabel('Merchant').selectOption({ label: 'Loja ao Vivo' });
    await dialog.getByLabel('Amount (R$)').fill('10');
    await dialog.getByRole('button', { name: /^Create test payment/ }).click();
    await dialog.getByRole('alert').filter({ hasText: 'a production account' }).waitFor();
    await screenshot(page, 'test-mode-refused-desktop');
    expect(await t.dataSource.query('SELECT id FROM payments WHERE merchant_id = $1', [merchant.id])).toEqual([]);
  });
});
