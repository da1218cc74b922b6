import type { Page } from 'playwright-core';
import { Payment } from '../../src/payments/payment.entity';
import { SandboxCharges } from '../helpers/sandbox-charges';
import { sandboxAuth, sandboxSettings, startTestApp, type TestApp } from '../helpers/test-app';
import { DESKTOP, launchBrowser, screenshot, signIn } from './browser';

/** The narrowest phone the dashboard is drawn for. */
const NARROW_PHONE = { width: 360, height: 780 };

/**
 * The money invariant check in the dashboard (docs/operations.md, Money invariant check): an
 * operator on the overview runs it, and each payment whose PSP and gateway disagree becomes a line
 * that opens the payment. Screenshots at desktop and phone width.
 */
describe('money invariant check (Chromium)', () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('runs the check from the overview and lists each mismatch as a line that opens its payment', async () => {
    // Two payments the PSP and the gateway see differently, their callbacks lost: a Pix taken for a
    // payment the gateway holds cancelled, and R$ 3,00 returned at the PSP's portal.
    const shop = await t.newMerchant({ name: 'Loja da Ana' });
    const charges = new SandboxCharges(sandboxSettings(t.config).baseUrl, sandboxAuth(t.config));
    const cancelled = await charges.lostCharge(t, shop.merchant.id);
    const refunded = await charges.lostCharge(t, shop.merchant.id);
    for (const { chargeId } of [cancelled, refunded]) expect((await charges.call('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' })).status).toBe(202);
    expect((await charges.refundOutside(refunded.chargeId, 'portal', '3.00')).status).toBe(201);
    const payments = t.dataSource.getRepository(Payment);
    await payments.update(cancelled.payment.id, { status: 'cancelled' });
    await payments.update(refunded.payment.id, { status: 'paid', paidAmountCents: 1050, paidAt: new Date() });

    await signIn(page, t.url);
    const card = page.locator('section.card', { has: page.getByRole('heading', { name: 'Money invariant' }) });
    await card.getByText('No check has run yet').waitFor();
    await card.getByRole('button', { name: 'Run check now' }).click();
    const lines = card.getByRole('table', { name: 'Money invariant mismatches' });
    await lines.waitFor();
    await card.getByText('2 mismatches.').waitFor();
    expect(await lines.getByRole('row').count()).toBe(3); // the heading and two lines

    await screenshot(page, 'desktop-overview-money-invariant');
    await page.setViewportSize(NARROW_PHONE);
    await screenshot(page, 'phone-overview-money-invariant');
    // At phone width no line is wider than the screen.
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await page.setViewportSize(DESKTOP);

    await lines.getByRole('link', { name: cancelled.payment.id }).click();
    await page.waitForURL(`**/admin/payments/${cancelled.payment.id}`);
    await page.getByText(cancelled.payment.id).first().waitFor();
  });
});
