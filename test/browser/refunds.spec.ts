import type { Page } from 'playwright-core';
import { PaymentAttempt } from '../../src/payments/routing/payment-attempt.entity';
import { paymentBody } from '../helpers/factories';
import { startTestApp, TestApp } from '../helpers/test-app';
import { DESKTOP, launchBrowser, PHONE, screenshot, signIn } from './browser';

/** Whether nothing sticks out sideways (phone width). */
const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

/**
 * The operator refunds a paid sandbox payment in two parts through the dashboard's dialog, sees each
 * refund settle and the payment's status follow, finds it under the refunded filter, and cancels a
 * pending payment. The sandbox settles refunds by itself after SANDBOX_REFUND_DELAY_MS (1.5 s by
 * default) and posts their callbacks; the payment page follows a pending refund until it settles.
 */
describe('refunds and cancellation (Chromium)', () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let key: string;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    page = browser.page;
    key = (await t.admin.newMerchant({ name: 'Loja da Ana' })).apiKey;
    await signIn(page, t.url);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function newPayment(externalId: string, paid: boolean): Promise<string> {
    const created = await t.merchant(key).POST('/v1/payments/create', {
      body: paymentBody({ externalId, amount: 10.5 }),
      params: { header: { 'Idempotency-Key': `browser-${externalId}` } },
    });
    expect(created.status).toBe(201);
    const id = created.data!.id;
    if (paid) expect((await t.admin.POST('/admin/api/payments/{id}/simulate', { params: { path: { id } }, body: { event: 'payment.confirmed' } })).status).toBe(200);
    return id;
  }

  const heading = () => page.getByRole('heading', { level: 1 });
  const refundsTable = () => page.getByRole('table', { name: 'Refunds' });

  /** Opens the refund dialog and reviews: part of it when `amount` is given, else everything left; answers the confirmation. */
  async function refund(confirmation: RegExp, amount?: string) {
    await page.getByRole('button', { name: 'Refund', exact: true }).click();
    const form = page.getByRole('dialog', { name: 'Refund this payment' });
    await form.waitFor();
    if (amount) {
      await form.getByRole('radio', { name: 'Part of it' }).check();
      await form.getByRole('textbox', { name: 'Amount (R$)' }).fill(amount);
      await form.getByRole('textbox', { name: 'Reason (optional)' }).fill('Item returned');
    }
    await form.getByRole('button', { name: 'Review refund' }).click();
    const confirm = page.getByRole('dialog', { name: 'Confirm the refund' });
    await confirm.getByText(confirmation).waitFor();
    return confirm;
  }

  it('refunds part of a paid payment, then the rest, and shows both refunds and the statuses', async () => {
    const id = await newPayment('pedido-refund-1', true);
    await page.goto(`${t.url}/admin/payments/${id}`);
    await heading()
      .filter({ hasText: /paid test$/ })
      .waitFor();
    await page.getByText('No refund yet.').waitFor();

    // Part of it: R$ 3,50 with a reason, confirmed in reais before anything is sent.
    const first = await refund(/^Refund R\$\s3,50 to the payer\?$/, '3,50');
    await screenshot(page, 'desktop-refund-confirm');
    await first.getByRole('button', { name: /^Refund R\$\s3,50$/ }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /Refund of R\$\s3,50 asked for|R\$\s3,50 refunded to the payer/ })
      .waitFor();
    await refundsTable()
      .getByRole('row')
      .filter({ hasText: 'Item returned' })
      .filter({ hasText: /refunded/ })
      .waitFor({ timeout: 20_000 });
    await heading()
      .filter({ hasText: /partially refunded test$/ })
      .waitFor();
    await page.getByText(/R\$\s3,50 of R\$\s10,50 refunded · R\$\s7,00 left/).waitFor();

    // The rest: the dialog offers what is left.
    const second = await refund(/^Refund R\$\s7,00 to the payer\?$/);
    await second.getByRole('button', { name: /^Refund R\$\s7,00$/ }).click();
    await heading()
      .filter({ hasText: /10,50\srefunded test$/ })
      .waitFor({ timeout: 20_000 });
    await page.getByText(/R\$\s10,50 of R\$\s10,50 refunded/).waitFor();
    const rows = refundsTable().locator('tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toMatch(/3,50.*refunded.*merchant.*Item returned/);
    expect(await rows.nth(1).textContent()).toMatch(/7,00.*refunded.*merchant/);
    expect(await page.getByRole('button', { name: 'Refund', exact: true }).count()).toBe(0);
    await screenshot(page, 'desktop-payment-refunded');
    await page.setViewportSize(PHONE);
    await screenshot(page, 'phone-payment-refunded');
    expect(await fitsWidth(page)).toBe(true);
    await page.setViewportSize(DESKTOP);

    // The list finds it under its status.
    await page.goto(`${t.url}/admin/payments?status=refunded`);
    await page.getByRole('link', { name: 'pedido-refund-1' }).waitFor();
    await screenshot(page, 'desktop-payments-refunded');
  });

  it('shows the refund dialog and its confirmation at phone width, and Escape sends nothing', async () => {
    const id = await newPayment('pedido-refund-2', true);
    await page.setViewportSize(PHONE);
    try {
      await page.goto(`${t.url}/admin/payments/${id}`);
      await heading()
        .filter({ hasText: /paid test$/ })
        .waitFor();
      await page.getByRole('button', { name: 'Refund', exact: true }).click();
      const form = page.getByRole('dialog', { name: 'Refund this payment' });
      await form.getByRole('radio', { name: 'Part of it' }).check();
      await form.getByRole('textbox', { name: 'Amount (R$)' }).fill('20');
      await form.getByRole('button', { name: 'Review refund' }).click();
      await form.getByText(/At most R\$\s10,50 is left to refund\./).waitFor();
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, 'phone-refund-dialog');
      await form.getByRole('textbox', { name: 'Amount (R$)' }).fill('3,50');
      await form.getByRole('button', { name: 'Review refund' }).click();
      const confirm = page.getByRole('dialog', { name: 'Confirm the refund' });
      await confirm.getByText(/^Refund R\$\s3,50 to the payer\?$/).waitFor();
      expect(await fitsWidth(page)).toBe(true);
      await screenshot(page, 'phone-refund-confirm');
      // Escape closes it, and nothing was sent.
      await page.keyboard.press('Escape');
      await confirm.waitFor({ state: 'detached' });
      expect((await t.merchant(key).GET('/v1/payments/{id}/refunds', { params: { path: { id } } })).data).toEqual([]);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it("tells each refund's origin and a failure's reason, and routing's refund of a paid orphan on its attempt", async () => {
    // Recorded straight in the database: refunds the PSP reported (portal, MED) and routing's, as the core records them.
    const { merchant } = await t.newMerchant({ name: 'Loja da Bia' });
    const settled = new Date();
    const payment = await t.newPayment(merchant.id, {
      status: 'partially_refunded',
      paidAt: settled,
      paidAmountCents: 1050,
      refundedAmountCents: 550,
      externalId: 'pedido-origens',
    });
    await t.newRefund(payment, { amountCents: 350, status: 'succeeded', reason: 'Item returned', providerRefundId: 'D1234567820261126abcdef0123456789', settledAt: settled });
    await t.newRefund(payment, { amountCents: 200, status: 'succeeded', origin: 'med', providerRefundId: 'D9876543220261126fedcba9876543210', settledAt: settled });
    await t.newRefund(payment, { amountCents: 100, status: 'failed', failureReason: 'Conta do pagador encerrada.', settledAt: settled });
    const orphan = await t.dataSource.getRepository(PaymentAttempt).save({
      id: `att_${payment.id.slice(4)}`,
      paymentId: payment.id,
      merchantId: merchant.id,
      attempt: 1,
      accountId: null,
      provider: 'sandbox',
      environment: 'sandbox',
      txid: 'orphanTxid0000000000000000000001',
      providerPaymentId: null,
      outcome: 'ambiguous',
      upstreamStatus: 504,
      error: 'timeout after 10 s',
      durationMs: 10_000,
      createdAt: settled,
      orphanStatus: 'paid',
      orphanTries: 1,
      orphanLastError: null,
      orphanNextAt: null,
      orphanLockedUntil: null,
      orphanUpdatedAt: settled,
    });
    await t.newRefund(payment, { amountCents: 1050, status: 'succeeded', origin: 'routing', attemptId: orphan.id, txid: orphan.txid, settledAt: settled });

    await page.goto(`${t.url}/admin/payments/${payment.id}`);
    await heading()
      .filter({ hasText: /partially refunded test$/ })
      .waitFor();
    await page.getByText(/R\$\s5,50 of R\$\s10,50 refunded · R\$\s5,00 left/).waitFor();
    const rows = refundsTable().locator('tbody tr');
    expect(await rows.count()).toBe(4);
    expect(await rows.nth(1).textContent()).toMatch(/2,00.*refunded.*MED return/);
    expect(await rows.nth(2).textContent()).toMatch(/1,00.*failed.*Conta do pagador encerrada\..*merchant/);
    expect(await rows.nth(3).textContent()).toMatch(/10,50.*refunded.*routing \(orphan charge\).*orphan charge of attempt 1/);
    expect(await refundsTable().getByText('MED return').getAttribute('title')).toMatch(/^A MED return/);
    const attempts = page.getByRole('table', { name: 'Provider attempts' });
    expect(await attempts.locator('tbody tr').first().textContent()).toMatch(/orphan paid.*refunded R\$\s10,50 back to the payer/);
    expect(await page.getByText(/Action needed/).count()).toBe(0);
    await screenshot(page, 'desktop-payment-refund-origins');
    await page.setViewportSize(PHONE);
    try {
      await screenshot(page, 'phone-payment-refund-origins');
      expect(await fitsWidth(page)).toBe(true);
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  it('cancels a pending payment after a confirmation', async () => {
    const id = await newPayment('pedido-cancel-1', false);
    await page.goto(`${t.url}/admin/payments/${id}`);
    await heading()
      .filter({ hasText: /pending test$/ })
      .waitFor();
    await page.getByRole('button', { name: 'Cancel payment' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel this payment?' });
    await confirm.getByText(/can no longer pay it/).waitFor();
    await page.setViewportSize(PHONE);
    await screenshot(page, 'phone-cancel-confirm');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'desktop-cancel-confirm');
    await confirm.getByRole('button', { name: 'Cancel payment' }).click();
    await page.getByRole('status').filter({ hasText: 'The payment was cancelled at the PSP' }).waitFor();
    await heading()
      .filter({ hasText: /cancelled test$/ })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Cancel payment' }).count()).toBe(0);
    const payment = await t.merchant(key).GET('/v1/payments/{id}', { params: { path: { id } } });
    expect(payment.data?.status).toBe('cancelled');
  });
});
