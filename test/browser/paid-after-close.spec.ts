import type { Page } from 'playwright-core';
import { paymentBody } from '../helpers/factories';
import { startTestApp, TestApp } from '../helpers/test-app';
import { DESKTOP, launchBrowser, screenshot, signIn } from './browser';

/** The narrowest phones in use. */
const NARROW = { width: 360, height: 780 };

/** Whether nothing sticks out sideways. */
const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

/**
 * Money received after close (docs/dashboard.md): a sandbox payment cancelled, then paid anyway. The
 * operator is told on the overview, finds it marked in the payments list (and under its filter),
 * reads "Action needed: refund it" at the top of its page, refunds it from the notice, and sees the
 * notice say it went back. At 1,280 and 360 px.
 */
describe('money received after close (Chromium)', () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let merchant: { id: string; apiKey: string };

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    page = browser.page;
    merchant = await t.admin.newMerchant({ name: 'Loja da Ana' });
    await signIn(page, t.url);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function paidAfterCancel(externalId: string): Promise<string> {
    const created = await t.merchant(merchant.apiKey).POST('/v1/payments/create', { body: paymentBody({ externalId, amount: 10.5 }) });
    const id = created.data!.id;
    expect((await t.merchant(merchant.apiKey).POST('/v1/payments/{id}/cancel', { params: { path: { id } } })).data?.status).toBe('cancelled');
    expect((await t.admin.POST('/admin/api/payments/{id}/simulate', { params: { path: { id } }, body: { event: 'payment.confirmed' } })).status).toBe(200);
    return id;
  }

  async function atWidths(name: string): Promise<void> {
    await screenshot(page, `desktop-${name}`);
    await page.setViewportSize(NARROW);
    try {
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, `narrow-${name}`);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  }

  it('marks it in the list, asks for its refund at the top of its page, and says when it went back', async () => {
    const id = await paidAfterCancel('pedido-depois');
    await t.merchant(merchant.apiKey).POST('/v1/payments/create', { body: paymentBody({ externalId: 'pedido-aberto' }) });

    // The overview, first: how many hold a payer's money, linked to them.
    await page.goto(`${t.url}/admin`);
    const overview = page.locator('.notice').filter({ hasText: 'Action needed: refund it.' });
    await overview.waitFor();
    expect(await overview.textContent()).toMatch(/1 payment received a Pix after it was cancelled or expired/);
    await atWidths('overview-paid-after-close');
    await overview.getByRole('link', { name: 'See them' }).click();
    await page.waitForURL(/\/admin\/payments\?status=paid&paid_after_close=true$/);
    await page.getByRole('link', { name: 'pedido-depois' }).waitFor();

    await page.goto(`${t.url}/admin/payments`);
    const row = page.getByRole('row').filter({ hasText: 'pedido-depois' });
    await row.getByText('after close: refund it').waitFor();
    expect(
      await page
        .getByRole('row')
        .filter({ hasText: 'pedido-aberto' })
        .getByText(/after close/)
        .count(),
    ).toBe(0);
    await atWidths('payments-paid-after-close');
    await page.getByLabel('Paid after close').selectOption({ label: 'Only paid after close' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/paid_after_close=true/);
    await page.getByRole('link', { name: 'pedido-depois' }).waitFor();
    await page.getByRole('link', { name: 'pedido-aberto' }).waitFor({ state: 'detached' });

    await page.getByRole('link', { name: 'pedido-depois' }).click();
    const notice = page.locator('.notice').filter({ hasText: 'Action needed: refund it' });
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/The Pix of R\$\s10,50 arrived after this payment was cancelled/);
    await atWidths('payment-paid-after-close');

    await notice.getByRole('button', { name: /^Refund R\$\s10,50$/ }).click();
    const form = page.getByRole('dialog', { name: 'Refund this payment' });
    await form.getByRole('button', { name: 'Review refund' }).click();
    await page
      .getByRole('dialog', { name: 'Confirm the refund' })
      .getByRole('button', { name: /^Refund R\$\s10,50$/ })
      .click();
    // The sandbox settles the refund by itself (SANDBOX_REFUND_DELAY_MS) and the page follows it.
    await page.getByText(/Money received after close was returned to the payer/).waitFor({ timeout: 20_000 });
    expect(await page.getByText('Action needed: refund it').count()).toBe(0);
    await atWidths('payment-paid-after-close-refunded');
    expect((await t.admin.GET('/admin/api/payments/{id}', { params: { path: { id } } })).data).toMatchObject({ status: 'refunded', paidAfterClose: true });
  });

  it("shows the merchant's refund_after_close and turns it on", async () => {
    await page.goto(`${t.url}/admin/merchants/${merchant.id}`);
    const card = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Money received after close' }) });
    await card.getByText('Left to the operator').waitFor();
    await card.getByRole('button', { name: 'Refund automatically' }).click();
    await card.getByText('Refunded automatically').waitFor();
    await atWidths('merchant-refund-after-close');
    expect((await t.admin.GET('/admin/api/merchants/{id}', { params: { path: { id: merchant.id } } })).data).toMatchObject({ refund_after_close: true });
  });
});
