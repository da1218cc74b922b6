import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import { type CreatePaymentBody, paymentBody } from '../helpers/factories';
import { http } from '../helpers/http';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { startTestApp, TestApp } from '../helpers/test-app';
import { DESKTOP, launchBrowser, nav, PHONE, screenshot, signIn } from './browser';

/** Whether nothing sticks out sideways. */
const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

/**
 * A batch of due-date charges on the dashboard (docs/due-charges.md, Batches): a school's month of
 * tuition sent in one request, one charge refused by the simulated PSP. The operator finds it under
 * Batches, opens it on the refused charge and its error, sees every charge linked to its payment and
 * the merchant's `payment_batch.completed` delivery. At 1,280 and 390 px.
 */
describe('payment batches (Chromium)', () => {
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  let t: TestApp;
  let receiver: MerchantReceiver;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let school: { id: string; apiKey: string };

  beforeAll(async () => {
    [t, receiver, browser] = await Promise.all([startTestApp(), MerchantReceiver.start({ secret }), launchBrowser()]);
    page = browser.page;
    school = await t.admin.newMerchant({ name: 'Escola Aurora', webhook_url: receiver.url, webhook_signing_secret: secret });
    await signIn(page, t.url);
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([t?.close(), receiver?.close()]);
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

  it('lists the batch, opens it on the refused charge with its error, and links every charge made to its payment', async () => {
    const due = { date: addDays(brasiliaDate(new Date()), 10), daysAfterDue: 30, fine: { type: 'percent', value: 2 }, interest: { type: 'percent_per_month', value: 1 } } as const;
    const students = ['Ana Souza', 'Bruno Lima', 'Carla Dias', 'Davi Rocha', 'Elisa Prado'];
    const payments: CreatePaymentBody[] = students.map((name, n) => ({
      ...paymentBody(),
      amount: 450,
      recipientName: name,
      description: n === 2 ? 'Mensalidade de dezembro sandbox:fail' : 'Mensalidade de dezembro',
      externalId: `mensalidade-2026-12-aluno-${n + 1}`,
      due,
    }));
    const accepted = await http(t.url, 'POST', '/v1/payment-batches', {
      headers: { 'x-merchant-key': school.apiKey, 'idempotency-key': randomBytes(8).toString('hex') },
      body: { description: 'Mensalidades de dezembro', payments },
    });
    expect(accepted.status).toBe(202);
    const id: string = accepted.body.data.id;

    await nav(page, 'Batches').click();
    await page.getByRole('heading', { name: 'Batches', level: 1 }).waitFor();
    const row = page.getByRole('table', { name: 'Batches' }).getByRole('row').filter({ hasText: 'Mensalidades de dezembro' });
    // The list reads a batch being made again until it is done.
    await row.getByText('completed').waitFor({ timeout: 30_000 });
    expect(await row.getByRole('cell').nth(3).textContent()).toBe('5 (4 created · 1 failed)');
    await atBothWidths('payment-batches-list');

    // The navigation, one link longer, fits every width: tightened, then folded into the menu.
    for (const width of [1181, 1180, 1024, 1001, 1000, 701]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await fitsWidth(page)).toBe(true);
      expect(await page.evaluate("document.querySelector('.topbar').scrollWidth <= window.innerWidth")).toBe(true);
    }
    await page.setViewportSize({ width: 1000, height: 800 });
    await screenshot(page, 'payment-batches-list-1000');
    await page.setViewportSize({ width: 1024, height: 800 });
    await screenshot(page, 'payment-batches-list-1024');
    await page.setViewportSize(DESKTOP);

    await row.getByRole('link', { name: 'Mensalidades de dezembro' }).click();
    await page.waitForURL(`**/admin/payment-batches/${id}`);
    await page.getByText('1 of 5 charges was not created.').waitFor();
    expect(await page.getByRole('tab', { name: 'Failed (1)' }).getAttribute('aria-selected')).toBe('true');
    const charges = page.getByRole('table', { name: 'Charges' });
    const refused = charges.getByRole('row').filter({ hasText: 'mensalidade-2026-12-aluno-3' });
    await refused.getByText('PAYMENT_CREATE_FAILED').waitFor();
    expect(await refused.textContent()).toContain('CHARGE_REFUSED');
    // The merchant was told once every charge was settled.
    await page.getByText('payment_batch.completed').waitFor({ timeout: 20_000 });
    await atBothWidths('payment-batch-failed');

    await page.getByRole('tab', { name: 'All (5)' }).click();
    expect(await charges.getByRole('row').count()).toBe(6);
    await atBothWidths('payment-batch-all');
    const first = charges.getByRole('row').filter({ hasText: 'mensalidade-2026-12-aluno-1' }).getByRole('link');
    const paymentId = await first.textContent();
    await first.click();
    await page.waitForURL(`**/admin/payments/${paymentId}`);
    await page.getByRole('heading', { name: 'Due date' }).waitFor();
  });
});
