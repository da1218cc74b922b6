import type { Page } from 'playwright-core';
import { BRAZIL_CALENDAR } from '../../src/common/calendar/brazil-calendar';
import { amountDueCents, type DueTerms } from '../../src/domain/due-charge';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import { FakeClock } from '../../src/testing/fake-clock';
import { type CreatePaymentBody, paymentBody } from '../helpers/factories';
import { startTestApp, TestApp } from '../helpers/test-app';
import { DESKTOP, launchBrowser, PHONE, screenshot, signIn } from './browser';

/** Whether nothing sticks out sideways. */
const fitsWidth = (page: Page) => page.evaluate('document.documentElement.scrollWidth <= window.innerWidth');

const DAY_MS = 24 * 3600 * 1000;

/** "R$ 1.234,56" as the dashboard writes centavos. */
const brl = (cents: number) => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(cents / 100);

/**
 * A due-date charge on the dashboard (docs/due-charges.md): its page while pending (terms, what is
 * owed today, the last payable day, the payer's address), the same charge days after its due date
 * paid late with less than was owed (paid all the same, the difference first on the page), a due-date
 * test payment made from the form and paid on time, and the account page's word on due-date charges
 * and batches. The gateway and the simulated PSP share one clock, moved forward instead of waiting.
 * At 1,280 and 390 px.
 */
describe('due-date charges (Chromium)', () => {
  const clock = new FakeClock(new Date());
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launchBrowser>>;
  let page: Page;
  let school: { id: string; apiKey: string };

  beforeAll(async () => {
    [t, browser] = await Promise.all([startTestApp({ clock }), launchBrowser()]);
    page = browser.page;
    school = await t.admin.newMerchant({ name: 'Escola Aurora' });
    await signIn(page, t.url);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });
  afterEach(() => page.setViewportSize(DESKTOP));

  const heading = () => page.getByRole('heading', { level: 1 });
  const card = (title: string) => page.locator('section').filter({ has: page.getByRole('heading', { name: title, exact: true }) });
  /** The text beside a label of the due-date card. */
  const term = (label: string) =>
    card('Due date')
      .locator('dt', { hasText: new RegExp(`^${label}$`) })
      .locator('xpath=following-sibling::dd[1]');

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

  it("shows a pending charge's terms and what is owed today, then, paid late with less than was owed, says so first and labels it paid", async () => {
    const today = brasiliaDate(clock.now());
    const due = addDays(today, 5);
    const terms: DueTerms = {
      date: due,
      daysAfterDue: 30,
      fine: { type: 'percent', value: 200 },
      interest: { type: 'percent_per_month', days: 'calendar', value: 100 },
      discount: {
        type: 'fixed_until',
        until: [
          { date: addDays(today, 2), value: 2000 },
          { date: due, value: 1000 },
        ],
      },
      abatement: null,
    };
    const body: CreatePaymentBody = {
      ...paymentBody(),
      amount: 450,
      externalId: 'mensalidade-dezembro-ana',
      description: 'Mensalidade de dezembro',
      due: {
        date: due,
        daysAfterDue: 30,
        fine: { type: 'percent', value: 2 },
        interest: { type: 'percent_per_month', days: 'calendar', value: 1 },
        discount: {
          type: 'fixed_until',
          until: [
            { date: addDays(today, 2), value: 20 },
            { date: due, value: 10 },
          ],
        },
      },
      recipientAddress: { street: 'Rua das Flores, 80, Boa Vista', city: 'Recife', state: 'PE', zip: '50050-000' },
    };
    const created = await t.merchant(school.apiKey).POST('/v1/payments/create', { body });
    expect(created.status).toBe(201);
    const id = created.data!.id;

    await page.goto(`${t.url}/admin/payments/${id}`);
    await heading()
      .filter({ hasText: /pending test$/ })
      .waitFor();
    expect(await term('Amount due today').locator('[data-testid="amount-due"]').textContent()).toBe(brl(amountDueCents(45000, terms, today, BRAZIL_CALENDAR)));
    expect(await term('Fine').textContent()).toBe('2% of the amount, once (when paid after the due date)');
    expect(await term('Interest').textContent()).toBe('1% a month, counted in calendar days (for each day late)');
    expect(await term('Discounts').locator('li').count()).toBe(2);
    await page.getByText('Rua das Flores, 80, Boa Vista · Recife – PE · CEP 50050-000').waitFor();
    const panel = card('Test PSP');
    expect(await panel.getByRole('button').allTextContents()).toEqual(['Pay on time', 'Pay late…', 'Expire']);
    await atBothWidths('due-charge-pending');

    // Twelve days on: seven days late, a fine and a week's interest are owed.
    clock.advance(12 * DAY_MS);
    const later = brasiliaDate(clock.now());
    const owed = amountDueCents(45000, terms, later, BRAZIL_CALENDAR);
    expect(owed).toBeGreaterThan(45000);
    await page.reload();
    await term('Amount due today')
      .getByText(/ late \(on /)
      .waitFor();
    expect(await term('Amount due today').locator('[data-testid="amount-due"]').textContent()).toBe(brl(owed));
    await panel.getByRole('button', { name: 'Pay late…' }).click();
    await panel.getByLabel('Amount paid (R$)').fill('450,00');
    await atBothWidths('due-charge-pay-late');
    await panel.getByRole('button', { name: /^Pay R\$\s450,00$/ }).click();

    await heading()
      .filter({ hasText: /paid test$/ })
      .waitFor();
    const notice = page.locator('.notice').filter({ hasText: 'than was due.' });
    expect(await notice.locator('strong').textContent()).toBe(`Paid ${brl(owed - 45000)} less than was due.`);
    expect(await notice.textContent()).toContain(`when ${brl(owed)} was due`);
    // First on the page: above the details.
    const [noticeTop, detailsTop] = await Promise.all([notice.boundingBox(), card('Details').boundingBox()]);
    expect(noticeTop!.y).toBeLessThan(detailsTop!.y);
    const timeline = card('Event timeline');
    await timeline.getByText('paid: amount differs from what was due').waitFor();
    expect(await timeline.getByText('not applied: amount differs').count()).toBe(0);
    await atBothWidths('due-charge-paid-late-mismatch');
  });

  it('makes a due-date test payment from the form, and pays it on time with no mismatch', async () => {
    const today = brasiliaDate(clock.now());
    await page.goto(`${t.url}/admin/payments`);
    await page.getByRole('button', { name: 'New test payment' }).click();
    const dialog = page.getByRole('dialog', { name: 'New test payment' });
    await dialog.getByLabel('Amount (R$)').fill('89,90');
    await dialog.getByLabel('Description').fill('Condomínio, janeiro');
    await dialog.getByRole('checkbox', { name: /^Due-date charge/ }).check();
    await dialog.getByLabel('Due date', { exact: true }).fill(addDays(today, 10));
    await dialog.getByLabel('Fine (%)').fill('2');
    await dialog.getByLabel('Interest (% a month)').fill('1');
    await dialog.getByLabel('Discount (R$)').fill('5,00');
    await dialog.getByLabel('Discount if paid by').fill(addDays(today, 5));
    await atBothWidths('due-charge-test-payment-form');
    await dialog.getByRole('button', { name: /^Create test payment of R\$\s89,90$/ }).click();

    await heading()
      .filter({ hasText: /pending test$/ })
      .waitFor();
    expect(await term('Discount').textContent()).toMatch(/^R\$\s5,00 off if paid by /);
    expect(await term('Amount due today').locator('[data-testid="amount-due"]').textContent()).toBe(brl(8490));
    await page.getByText('Rua de Teste, 100 · São Paulo – SP · CEP 01001-000').waitFor();
    await card('Test PSP').getByRole('button', { name: 'Pay on time' }).click();
    await heading()
      .filter({ hasText: /paid test$/ })
      .waitFor();
    await page.getByText(/Pay on time: the test PSP sent payment\.confirmed of R\$\s84,90 to the gateway; the payment is now paid\./).waitFor();
    expect(await page.locator('.notice').filter({ hasText: 'than was due.' }).count()).toBe(0);
    await atBothWidths('due-charge-paid-on-time');
  });

  it("shows on a sandbox account's page that it offers due-date charges and batches of 1,000", async () => {
    const account = await t.admin.POST('/admin/api/provider-accounts', {
      body: { name: 'Sandbox da Escola', provider: 'sandbox', credentials: { webhook_secret: 'whsec_sandbox_school_0123456789' } },
    });
    expect(account.status).toBe(201);
    await page.goto(`${t.url}/admin/provider-accounts/${account.data!.id}`);
    const due = page.getByTestId('capability-due-charges');
    await due.waitFor();
    expect(await due.textContent()).toMatch(/^Offered \(stated at .+\)$/);
    expect(await page.getByTestId('capability-charge-batches').textContent()).toMatch(/^Up to 1,000 charges a request \(stated at .+\)$/);
    await atBothWidths('due-charge-account-capabilities');
  });
});
