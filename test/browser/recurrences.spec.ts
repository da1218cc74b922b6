import { randomUUID } from 'node:crypto';
import type { Page } from 'playwright-core';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import { RecurrenceEvent } from '../../src/recurrences/recurrence-event.entity';
import { Recurrence } from '../../src/recurrences/recurrence.entity';
import { RecurringCharge } from '../../src/recurrences/recurring-charge.entity';
import { startTestApp, TestApp } from '../helpers/test-app';
import { DESKTOP, launchBrowser, nav, PHONE, screenshot, signIn } from './browser';

/** Whether nothing sticks out sideways (phone width). */
const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

const AUTHORIZATION_BR_CODE =
  '00020126180014br.gov.bcb.pix5204000053039865802BR5910Academia X6009SAO PAULO62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac1200026304ABCD';

/**
 * Recurrences on the dashboard (docs/dashboard.md, Recurrences): the list across merchants with its
 * filters, and a recurrence's page with its QR while the payer has not answered, its charges and
 * their attempts, its history and deliveries.
 */
describe('recurrences (Chromium)', () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let active: Recurrence;

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
    page = browser.page;
    const { merchant } = await t.newMerchant({ name: 'Academia X', webhookUrl: 'https://academia.example/webhooks/pix' });
    const start = addDays(brasiliaDate(new Date()), 3);
    active = await newRecurrence(merchant.id, { externalId: 'membership-ana', startDate: start, createdAt: new Date(Date.now() - 120_000) });
    await newRecurrence(merchant.id, {
      externalId: 'membership-bruno',
      payerName: 'Bruno Lima',
      status: 'pending_authorization',
      amountCents: null,
      minimumAmountCents: 5000,
      journey: 'qr',
      authorizationCopyPaste: AUTHORIZATION_BR_CODE,
      authorizationExpiresAt: new Date(Date.now() + 86_400_000),
      createdAt: new Date(Date.now() - 60_000),
    });
    await newRecurrence(merchant.id, { externalId: 'membership-carla', payerName: 'Carla Dias', status: 'cancelled', cancelledBy: 'payer' });
    await history(active, start);
    await signIn(page, t.url);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  afterEach(() => page.setViewportSize(DESKTOP));

  const rows = () => page.getByRole('table', { name: 'Recurrences' }).getByRole('row');
  const heading = () => page.getByRole('heading', { level: 1 });

  it('lists recurrences from the navigation, filtered by status in the URL', async () => {
    await nav(page, 'Recurrences').click();
    await rows().filter({ hasText: 'membership-ana' }).waitFor();
    expect(await rows().count()).toBe(4);
    expect(await rows().filter({ hasText: 'membership-bruno' }).textContent()).toMatch(/Academia X.*Bruno Lima.*from R\$\u00a050,00 \/ month.*waiting for the payer/);
    await screenshot(page, 'recurrences-list-desktop');
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'recurrences-list-phone');
    await page.setViewportSize(DESKTOP);

    await page.getByLabel('Status').selectOption({ label: 'Active' });
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/status=active/);
    await rows().nth(1).waitFor();
    // One row left: the second is gone (a string predicate would be evaluated in the page, which its CSP forbids).
    await page.locator('table[aria-label="Recurrences"] tbody tr').nth(1).waitFor({ state: 'detached' });
    expect(await rows().nth(1).textContent()).toContain('membership-ana');
  });

  it('shows a pending recurrence with the QR code the payer scans, and an active one with its charges, history and deliveries', async () => {
    await page.goto(`${t.url}/admin/recurrences`);
    await page.getByRole('link', { name: 'membership-bruno' }).click();
    await heading().filter({ hasText: 'waiting for the payer' }).waitFor();
    const qr = page.getByRole('img', { name: 'QR code the payer scans to authorize the recurrence' });
    await qr.waitFor();
    // The image decodes: a real PNG of the BR Code, not a broken data URL.
    expect(await page.evaluate(`document.querySelector('.qr img').naturalWidth > 0`)).toBe(true);
    expect(await page.getByRole('textbox', { name: 'BR Code (Pix copia e cola)' }).inputValue()).toBe(AUTHORIZATION_BR_CODE);
    await screenshot(page, 'recurrence-pending-desktop');
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'recurrence-pending-phone');
    await page.setViewportSize(DESKTOP);

    await page.goto(`${t.url}/admin/recurrences/${active.id}`);
    await heading().filter({ hasText: 'R$\u00a089,90 / month active' }).waitFor();
    const charges = page.getByRole('table', { name: 'Charges' });
    await charges.getByRole('row').filter({ hasText: 'insufficient funds' }).waitFor();
    expect(await charges.getByRole('row').count()).toBe(3);
    await page.getByRole('list', { name: 'History' }).getByText('recurring_charge.retrying').waitFor();
    await page.getByTestId('delivery').getByText('recurrence.authorized').waitFor();
    await screenshot(page, 'recurrence-active-desktop');
    await page.setViewportSize(PHONE);
    expect(await fitsWidth(page)).toBe(true);
    await screenshot(page, 'recurrence-active-phone');
  });

  it('leads from a recurrence event on the deliveries page to its recurrence', async () => {
    await page.goto(`${t.url}/admin/deliveries?status=delivered`);
    await page.getByRole('link', { name: active.id }).click();
    await heading().filter({ hasText: 'active' }).waitFor();
    expect(page.url()).toBe(`${t.url}/admin/recurrences/${active.id}`);
  });

  it('makes the sandbox authorize a new recurrence and settle its charge, then cancels it after asking', async () => {
    const { apiKey } = await t.newMerchant({ name: 'Escola Y', provider: 'sandbox' });
    const today = brasiliaDate(new Date());
    const created = await t.merchant(apiKey).POST('/v1/recurrences', {
      params: { header: { 'Idempotency-Key': randomUUID() } },
      body: {
        externalId: 'tuition-1',
        payer: { document: '12345678909', name: 'Ana Souza' },
        contract: { id: 'tuition' },
        frequency: 'monthly',
        amount: 450,
        startDate: addDays(today, 3),
      },
    });
    const id = created.data!.id;
    await page.goto(`${t.url}/admin/recurrences/${id}`);
    const panel = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Test PSP' }) });
    await panel.getByRole('button', { name: 'Payer authorizes' }).click();
    await heading().filter({ hasText: 'active' }).waitFor();
    await page.getByText(/the recurrence is now active/).waitFor();

    const charge = await t.merchant(apiKey).POST('/v1/recurrences/{id}/charges', {
      params: { path: { id }, header: { 'Idempotency-Key': randomUUID() } },
      body: { dueDate: addDays(today, 3) },
    });
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByRole('button', { name: `Settle ${charge.data!.id}` }).click();
    await page.getByText(/the charge is now paid/).waitFor();

    await page.getByRole('button', { name: 'Cancel recurrence' }).click();
    await page.getByRole('dialog', { name: 'Cancel this recurrence?' }).getByRole('button', { name: 'Cancel recurrence' }).click();
    await heading().filter({ hasText: 'cancelled' }).waitFor();
    await screenshot(page, 'recurrence-simulated-desktop');
  });

  function newRecurrence(merchantId: string, overrides: Partial<Recurrence>): Promise<Recurrence> {
    return t.newRecurrence(merchantId, {
      externalId: 'membership',
      contractId: 'plan-gold',
      contractDescription: 'Gym membership, gold plan',
      startDate: addDays(brasiliaDate(new Date()), 3),
      retryPolicy: 'three_in_seven_days',
      ...overrides,
    });
  }

  /** Two cycles of an active recurrence: the first paid, the second failed once and retrying; what the merchant was told. */
  async function history(recurrence: Recurrence, start: string): Promise<void> {
    const charge = (cycle: number, overrides: Partial<RecurringCharge>) => t.newRecurringCharge(recurrence, { cycle, dueDate: start, ...overrides });
    const paid = await charge(0, {
      description: 'First month',
      status: 'paid',
      attempts: [{ date: start, status: 'paid', endToEndId: 'E99999999202611261200abcdefghijk', reason: null }],
      endToEndId: 'E99999999202611261200abcdefghijk',
      paidAt: new Date(),
    });
    const second = addDays(start, 31);
    const retrying = await charge(1, {
      description: 'Second month',
      dueDate: second,
      status: 'retrying',
      retries: 1,
      attempts: [
        { date: second, status: 'failed', endToEndId: null, reason: 'AM04: insufficient funds' },
        { date: addDays(second, 1), status: 'scheduled', endToEndId: null, reason: null },
      ],
    });
    const event = (offsetMs: number, overrides: Partial<RecurrenceEvent>) => t.newRecurrenceEvent(recurrence, { createdAt: new Date(Date.now() - offsetMs), ...overrides });
    const authorized = await event(90_000, {});
    await event(60_000, { type: 'recurring_charge.paid', recurringChargeId: paid.id, fromStatus: 'scheduled', toStatus: 'paid' });
    await event(30_000, { type: 'recurring_charge.retrying', recurringChargeId: retrying.id, fromStatus: 'scheduled', toStatus: 'retrying' });
    await t.newDeliveredRecurrenceEvent(authorized, { url: 'https://academia.example/webhooks/pix', latencyMs: 84 });
  }
});
