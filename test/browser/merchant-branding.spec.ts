import type { Page } from 'playwright-core';
import { paymentBody } from '../helpers/factories';
import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';
import { DESKTOP, launchBrowser, PHONE, screenshot, signIn } from './browser';

/** Whether nothing sticks out sideways. */
const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

/**
 * A merchant's branding on the dashboard (docs/dashboard.md, Merchants): the display name payers see
 * and the checkout pages' colour, picked or typed, with a warning for a colour too light to read on
 * white; and a payment's checkout link, to copy or open. At 1,280 and 390 px.
 */
describe("a merchant's display name and brand colour (Chromium)", () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    page = browser.page;
    await signIn(page, t.url);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  afterEach(() => page.setViewportSize(DESKTOP));

  const readMerchant = async (id: string) => (await t.admin.GET('/admin/api/merchants/{id}', { params: { path: { id } } })).data!;

  it('sets the display name and a colour, warns of one too light on white, and clears both', async () => {
    const shop = await t.admin.newMerchant({ name: 'Ana Souza Comércio de Doces LTDA' });
    await page.goto(`${t.url}/admin/merchants/${shop.id}`);
    const form = page.getByRole('form', { name: 'Merchant settings' });
    await form.getByLabel('Display name').waitFor();
    expect(await form.getByLabel('Display name').getAttribute('placeholder')).toBe('Ana Souza Comércio de Doces LTDA');

    await form.getByLabel('Display name').fill('Ana Doces');
    const hex = form.getByLabel('Brand colour', { exact: true });
    await hex.fill('#F7C948');
    const warning = form.getByText(/below the 4.5:1 that text needs/);
    await warning.waitFor();
    expect(await warning.textContent()).toContain('contrast of 1.5:1 on white');
    expect(await form.getByLabel('Pick the brand colour').inputValue()).toBe('#f7c948');
    await screenshot(page, 'merchant-branding-light-desktop');
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'merchant-branding-light-phone');
    await page.setViewportSize(DESKTOP);

    // The picker writes the hex text; a dark green reads well on white.
    await form.getByLabel('Pick the brand colour').fill('#0b6e4f');
    expect(await hex.inputValue()).toBe('#0b6e4f');
    await form.getByText('Contrast on white 6.2:1').waitFor();
    expect(await warning.count()).toBe(0);
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    expect(await readMerchant(shop.id)).toMatchObject({ display_name: 'Ana Doces', brand_color: '#0b6e4f' });
    await screenshot(page, 'merchant-branding-saved-desktop');
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'merchant-branding-saved-phone');
    await page.setViewportSize(DESKTOP);

    // Emptied, both go back to the name and the gateway's colour (null).
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await form.getByLabel('Display name').fill('');
    await form.getByRole('button', { name: 'Clear' }).click();
    await form.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    expect(await readMerchant(shop.id)).toMatchObject({ display_name: null, brand_color: null });
    expect(await form.getByTestId('brand-preview').count()).toBe(0);
  });

  it('refuses a colour that is not #RRGGBB beside the field, and creates a merchant with its branding', async () => {
    await page.goto(`${t.url}/admin/merchants`);
    await page.getByRole('button', { name: 'New merchant' }).click();
    const dialog = page.getByRole('dialog', { name: 'New merchant' });
    await dialog.getByLabel('Name', { exact: true }).fill('Padaria Pão Quente');
    await dialog.getByLabel('Display name').fill('Pão Quente');
    await dialog.getByLabel('Brand colour', { exact: true }).fill('teal');
    await dialog.getByRole('button', { name: 'Create merchant' }).click();
    await dialog.getByText('Enter a colour as # and six hexadecimal digits (#0F766E), or leave it empty.').waitFor();
    await dialog.getByLabel('Brand colour', { exact: true }).fill('#1D4ED8');
    await dialog.getByRole('button', { name: 'Create merchant' }).click();
    // A generated signing secret is shown once, then the merchant's page.
    await page.getByRole('button', { name: 'I have stored it safely' }).click();
    await page.getByRole('heading', { name: 'Padaria Pão Quente', level: 1 }).waitFor();
    const id = new URL(page.url()).pathname.split('/').pop()!;
    expect(await readMerchant(id)).toMatchObject({ display_name: 'Pão Quente', brand_color: '#1d4ed8' });
  });

  it("shows a payment's checkout link, to copy or open", async () => {
    const shop = await t.admin.newMerchant({ name: 'Loja do Link' });
    const created = await http(t.url, 'POST', '/v1/payments/create', {
      headers: { 'x-merchant-key': shop.apiKey, 'idempotency-key': `checkout-link-${shop.id}` },
      body: { ...paymentBody(), returnUrl: 'https://loja.example.com/pedidos/1234/obrigado' },
    });
    expect(created.status).toBe(201);
    const payment = created.body.data;
    await page.goto(`${t.url}/admin/payments/${payment.id}`);
    const card = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Checkout page' }) });
    await card.waitFor();
    expect(await card.getByLabel('Checkout link').inputValue()).toBe(payment.checkoutUrl);
    expect(await card.getByRole('link', { name: 'Open the checkout page in a new tab' }).getAttribute('href')).toBe(payment.checkoutUrl);
    expect(await card.getByText('Returns to').locator('xpath=following-sibling::dd[1]').textContent()).toBe('https://loja.example.com/pedidos/1234/obrigado');
    await screenshot(page, 'payment-checkout-link-desktop');
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'payment-checkout-link-phone');
  });

  it("shows a recurrence's authorization page while the payer has not answered", async () => {
    const { merchant } = await t.newMerchant({ name: 'Academia Link' });
    const recurrence = await t.newRecurrence(merchant.id, {
      status: 'pending_authorization',
      journey: 'qr',
      authorizationCopyPaste:
        '00020101021226990014br.gov.bcb.pix2577pix.example.com/qr/v2/rec/7d9f0335-8dcc-4054-9bf9-0dbd61d36906520400005303986540589.905802BR5912ACADEMIA LINK6009SAO PAULO62070503***6304A1B2',
      authorizationExpiresAt: new Date(Date.now() + 86_400_000),
    });
    const view = (await t.admin.GET('/admin/api/recurrences/{id}', { params: { path: { id: recurrence.id } } })).data!;
    await page.goto(`${t.url}/admin/recurrences/${recurrence.id}`);
    const address = page.getByRole('textbox', { name: 'Authorization page' });
    await address.waitFor();
    expect(await address.inputValue()).toBe(view.authorization!.checkoutUrl);
    expect(await page.getByRole('link', { name: 'Open the authorization page in a new tab' }).getAttribute('href')).toBe(view.authorization!.checkoutUrl);
    await screenshot(page, 'recurrence-authorization-page-desktop');
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'recurrence-authorization-page-phone');
  });
});
