import type { Page } from 'playwright-core';
import { startTestApp, TestApp } from '../helpers/test-app';
import { DESKTOP, launchBrowser, nav, PHONE, screenshot, signIn } from './browser';

/** Whether nothing sticks out sideways. */
const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

/**
 * Payment links on the dashboard (docs/dashboard.md, Payment links): the operator makes one for a
 * merchant from the form, copies its address, sees the payments payers opened from it (and no other
 * payment of the merchant's), opens one and comes back through it, deactivates the link once
 * confirmed, and finds it with the list's filters; a second link whose payer chooses the amount. The
 * payers' payments are written as the link's page writes them (payment_link_id), so that this spec
 * is about the dashboard. At 1,280 and 390 px.
 */
describe('payment links (Chromium)', () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let shop: { id: string; apiKey: string };

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    page = browser.page;
    shop = await t.admin.newMerchant({ name: 'Ana Doces' });
    await signIn(page, t.url);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  afterEach(() => page.setViewportSize(DESKTOP));

  async function atBothWidths(name: string): Promise<void> {
    await screenshot(page, `${name}-desktop`);
    await page.setViewportSize(PHONE);
    try {
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `${name}-phone`);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  }

  it('makes a link from the form, lists its payments alone, and deactivates it once confirmed', async () => {
    await nav(page, 'Payment links').click();
    await page.getByRole('heading', { name: 'Payment links', level: 1 }).waitFor();
    await page.getByText(/^No payment links yet\./).waitFor();

    await page.getByRole('button', { name: 'New payment link' }).click();
    const dialog = page.getByRole('dialog', { name: 'New payment link' });
    await dialog.getByLabel('Merchant').selectOption(shop.id);
    await dialog.getByLabel('Title').fill('Caixa de brigadeiros gourmet com 24 unidades sortidas');
    await dialog.getByLabel('Description (optional)').fill('Entrega em São Paulo em até 2 dias úteis.');
    await dialog.getByLabel('Amount (R$)').fill('89,90');
    await dialog.getByLabel('Most payments (optional)').fill('2');
    await dialog.getByLabel('Return URL (optional)').fill('https://anadoces.example.com/obrigado');
    await dialog.getByLabel(/Ask the payer's e-mail too/).check();
    await screenshot(page, 'payment-link-form-desktop');
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'payment-link-form-phone');
    await page.setViewportSize(DESKTOP);
    await dialog.getByRole('button', { name: 'Create link' }).click();

    await page.waitForURL(/\/admin\/payment-links\/plink_[A-Za-z0-9]{24}$/);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('heading', { name: /Caixa de brigadeiros/, level: 1 }).waitFor();
    const link = (await t.admin.GET('/admin/api/payment-links/{id}', { params: { path: { id } } })).data!;
    expect(link).toMatchObject({ merchant_id: shop.id, amount: 89.9, maxPayments: 2, collect: { email: true }, returnUrl: 'https://anadoces.example.com/obrigado', state: 'open' });
    expect(await page.getByLabel('Address to send payers').inputValue()).toBe(link.url);
    expect(await page.getByRole('link', { name: "Open the payment link's page in a new tab" }).getAttribute('href')).toBe(link.url);
    await page.getByText('No payer has opened this link yet.').waitFor();

    // Two payers open it (one pays), and the merchant has a payment of its own besides.
    const paid = await t.newPayment(shop.id, { paymentLinkId: id, status: 'paid', paidAt: new Date(), amountCents: 8990, recipientName: 'Bruno Lima' });
    const pending = await t.newPayment(shop.id, { paymentLinkId: id, amountCents: 8990, recipientName: 'Carla Dias' });
    const other = await t.newPayment(shop.id, { recipientName: 'Outro Pedido' });
    await page.getByRole('button', { name: 'Refresh' }).click();
    const payments = page.getByRole('table', { name: 'Payments of this link' });
    await payments.getByRole('link', { name: pending.id }).waitFor();
    expect(await payments.getByRole('link').allTextContents()).toEqual([pending.id, paid.id]);
    expect(await page.getByText(other.id).count()).toBe(0);
    // Its paid and pending payments reach its limit of two.
    await page.getByText(/^This link is used up/).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Caixa de brigadeiros gourmet com 24 unidades sortidas used up');
    await atBothWidths('payment-link-used-up');

    // A payment's page names the link it came from, and leads back to it.
    await payments.getByRole('link', { name: paid.id }).click();
    await page.waitForURL(`**/admin/payments/${paid.id}`);
    const checkout = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Checkout page' }) });
    await checkout.getByRole('link', { name: id }).click();
    await page.waitForURL(`**/admin/payment-links/${id}`);

    await page.getByRole('button', { name: 'Deactivate' }).click();
    const confirm = page.getByRole('dialog', { name: 'Deactivate this payment link?' });
    await confirm.getByText(/cannot be reactivated/).waitFor();
    await screenshot(page, 'payment-link-deactivate-confirm-desktop');
    await confirm.getByRole('button', { name: 'Deactivate link' }).click();
    await page.getByText('The link is deactivated.').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Caixa de brigadeiros gourmet com 24 unidades sortidas deactivated');
    expect(await page.getByRole('button', { name: 'Deactivate' }).count()).toBe(0);
    expect((await t.admin.GET('/admin/api/payment-links/{id}', { params: { path: { id } } })).data).toMatchObject({ active: false, state: 'inactive' });
    await atBothWidths('payment-link-deactivated');
  });

  it('makes a link whose payer chooses the amount, and finds each link with the filters', async () => {
    await page.goto(`${t.url}/admin/payment-links?merchant_id=${shop.id}`);
    await page.getByRole('button', { name: 'New payment link' }).click();
    const dialog = page.getByRole('dialog', { name: 'New payment link' });
    expect(await dialog.getByLabel('Merchant').inputValue()).toBe(shop.id);
    await dialog.getByLabel('Title').fill('Encomenda de bolo');
    await dialog.getByLabel('The payer chooses, within a range').check();
    await dialog.getByLabel('At least (R$)').fill('50');
    await dialog.getByLabel('At most (R$)').fill('40');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await dialog.getByText('The most must be more than the least.').waitFor();
    await dialog.getByLabel('At most (R$)').fill('350,00');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await page.getByRole('heading', { name: /Encomenda de bolo/, level: 1 }).waitFor();
    expect(await page.getByText('Amount', { exact: true }).locator('xpath=following-sibling::dd[1]').textContent()).toBe('R$\u00a050,00 – R$\u00a0350,00, the payer chooses');

    await nav(page, 'Payment links').click();
    const table = page.getByRole('table', { name: 'Payment links' });
    await table.getByRole('link', { name: 'Encomenda de bolo' }).waitFor();
    expect(await table.getByRole('row').count()).toBe(3);
    const bolo = table.getByRole('row').filter({ hasText: 'Encomenda de bolo' });
    expect(await bolo.getByRole('cell').nth(3).textContent()).toBe('R$\u00a050,00 – R$\u00a0350,00');
    await atBothWidths('payment-links-list');

    await page.getByLabel('Active').selectOption('false');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/active=false/);
    // The URL changes before the filtered page arrives: wait for the other link to leave the table, not for one that was already there.
    await table.getByRole('link', { name: 'Encomenda de bolo' }).waitFor({ state: 'detached' });
    await table.getByRole('link', { name: /Caixa de brigadeiros/ }).waitFor();
    expect(await table.getByRole('row').count()).toBe(2);
    await page.getByLabel('Active').selectOption('true');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/active=true/);
    await table.getByRole('link', { name: /Caixa de brigadeiros/ }).waitFor({ state: 'detached' });
    await table.getByRole('link', { name: 'Encomenda de bolo' }).waitFor();
    expect(await table.getByRole('row').count()).toBe(2);
  });

  it('keeps the navigation, one link longer, inside the bar at every width', async () => {
    await page.goto(`${t.url}/admin/payment-links`);
    await page.getByRole('heading', { name: 'Payment links', level: 1 }).waitFor();
    for (const width of [1400, 1381, 1380, 1280, 1181, 1180, 1024, 1000, 701]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await fitsWidth(page)).toBe(true);
      expect(await page.evaluate("document.querySelector('.topbar').scrollWidth <= window.innerWidth")).toBe(true);
      // No link's name wraps onto a second line where the links are shown in a row.
      const heights = await page.evaluate("[...document.querySelectorAll('.nav a')].map((a) => a.getBoundingClientRect().height)");
      expect(new Set(heights as number[]).size).toBeLessThanOrEqual(1);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await screenshot(page, 'payment-links-nav-1280');
  });
});
