import type { TestingModule } from '@nestjs/testing';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics';
import type { ProviderRecurrence, ProviderRecurringCharge } from '../../src/providers/recurring';
import { RecurrenceEventRepository } from '../../src/recurrences/recurrence-event.repository';
import { type ReportContext, RecurrenceEventsService } from '../../src/recurrences/recurrence-events.service';
import { RecurrenceRepository } from '../../src/recurrences/recurrence.repository';
import type { RecurringCharge } from '../../src/recurrences/recurring-charge.entity';
import { RecurringChargeRepository } from '../../src/recurrences/recurring-charge.repository';
import { MediumContext, newMediumContext } from '../helpers/medium';

/**
 * RecurrenceEventsService against a real database: each move of a recurrence or a charge is
 * written once with its event and the merchant's delivery, however many times and ways the report
 * comes, and a report racing the merchant's cancel settles without a deadlock.
 */
describe('recurrence bookkeeping (RecurrenceEventsService)', () => {
  let ctx: MediumContext;
  let units: TestingModule;
  beforeAll(async () => {
    ctx = await newMediumContext();
    units = await ctx.module([RecurrenceEventsService, RecurrenceRepository, RecurringChargeRepository, RecurrenceEventRepository, GatewayMetrics]);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const service = () => units.get(RecurrenceEventsService);
  const context: ReportContext = { provider: 'sandbox', accountId: null, source: 'webhook', requestId: 'req-test', payload: {} };
  const shopWithRecurrence = async (overrides = {}) => {
    const shop = await ctx.newMerchant({ webhookUrl: 'https://shop.example/pix' });
    return ctx.newRecurrence(shop.merchant.id, overrides);
  };
  const chargeReport = (charge: RecurringCharge, over: Partial<ProviderRecurringCharge> = {}): ProviderRecurringCharge => ({
    txid: charge.txid,
    providerRecurrenceId: 'RR',
    status: 'scheduled',
    open: true,
    amountCents: charge.amountCents,
    dueDate: charge.dueDate,
    attempts: [{ date: charge.dueDate, status: 'scheduled', endToEndId: null, reason: null }],
    endToEndId: null,
    paidAt: null,
    failureReason: null,
    updatedAt: null,
    ...over,
  });
  const failed = (charge: RecurringCharge, tries: number): ProviderRecurringCharge =>
    chargeReport(charge, {
      status: 'failed',
      attempts: Array.from({ length: tries }, (_, i) => ({ date: addDays(charge.dueDate, i), status: 'failed' as const, endToEndId: null, reason: 'AM04 saldo insuficiente' })),
    });
  const forwards = async (recurrenceId: string) =>
    (await ctx.dataSource.query(`SELECT event_type FROM webhook_deliveries WHERE recurrence_id = $1 ORDER BY created_at, id`, [recurrenceId])).map(
      (d: { event_type: string }) => d.event_type,
    );
  const chargeRow = async (id: string) =>
    (await ctx.dataSource.query(`SELECT status, retries, jsonb_array_length(attempts) AS attempts FROM recurring_charges WHERE id = $1`, [id]))[0];

  it('authorizes once however often it is told, and queues one signed forward with the recurrence as data', async () => {
    const recurrence = await shopWithRecurrence({ status: 'pending_authorization' });
    const report: ProviderRecurrence = {
      providerRecurrenceId: recurrence.providerRecurrenceId!,
      status: 'active',
      cancelledBy: null,
      copyPaste: null,
      authorizationExpiresAt: null,
      updatedAt: null,
    };
    expect(await service().applyRecurrence('rec-1', report, context)).toMatchObject({ kind: 'recorded', status: 'active' });
    expect(await service().applyRecurrence('rec-1', report, context)).toEqual({ kind: 'duplicate' });
    expect(await service().applyRecurrence('rec-2', report, context)).toMatchObject({ kind: 'recorded', status: 'active' });
    expect(await forwards(recurrence.id)).toEqual(['recurrence.authorized']);
    const [body] = await ctx.dataSource.query(`SELECT body FROM webhook_deliveries WHERE recurrence_id = $1`, [recurrence.id]);
    expect(body.body).toMatchObject({
      event: 'recurrence.authorized',
      id: expect.stringMatching(/^evt_/),
      created_at: expect.any(String),
      data: { id: recurrence.id, status: 'active' },
    });
  });

  it('ignores report for another account’s recurrence or an unknown charge', async () => {
    const recurrence = await shopWithRecurrence();
    const report: ProviderRecurrence = {
      providerRecurrenceId: recurrence.providerRecurrenceId!,
      status: 'cancelled',
      cancelledBy: 'payer',
      copyPaste: null,
      authorizationExpiresAt: null,
      updatedAt: null,
    };
    expect(await service().applyRecurrence('x-1', report, { ...context, accountId: 'pa_other' })).toEqual({ kind: 'unmatched' });
    const charge = await ctx.newRecurringCharge(recurrence);
    expect(await service().applyCharge('x-2', { ...chargeReport(charge), txid: 'nope' }, context)).toEqual({ kind: 'unmatched' });
  });

  it('takes a pending charge (its create unanswered) to what the PSP report: scheduled silently, paid with its event', async () => {
    const recurrence = await shopWithRecurrence();
    const held = await ctx.newRecurringCharge(recurrence, { status: 'pending' });
    expect(await service().applyCharge('pending-1', chargeReport(held), context)).toMatchObject({ kind: 'recorded', status: 'scheduled' });
    expect(await chargeRow(held.id)).toMatchObject({ status: 'scheduled', attempts: 1 });
    const paid = await ctx.newRecurringCharge(recurrence, { status: 'pending', cycle: 1 });
    const settled = chargeReport(paid, { status: 'paid', endToEndId: 'E1', attempts: [{ date: paid.dueDate, status: 'paid', endToEndId: 'E1', reason: null }] });
    expect(await service().applyCharge('pending-2', settled, context)).toMatchObject({ kind: 'recorded', status: 'paid' });
    expect(await forwards(recurrence.id)).toEqual(['recurring_charge.paid']);
  });

  it('retries a failed attempt up to three times under three_in_seven_days, then fails the charge', async () => {
    const recurrence = await shopWithRecurrence({ retryPolicy: 'three_in_seven_days' });
    const charge = await ctx.newRecurringCharge(recurrence, { dueDate: brasiliaDate(new Date()) });
    for (let tries = 1; tries <= 3; tries++) {
      const result = await service().applyCharge(`f-${tries}`, failed(charge, tries), context);
      expect(result).toMatchObject({ kind: 'recorded', status: 'retrying', retry: { chargeId: charge.id, date: expect.any(String) } });
      // The same failure told again asks for nothing new.
      expect((await service().applyCharge(`f-${tries}`, failed(charge, tries), context)).kind).toBe('duplicate');
      await service().recordRetryAsked(
        charge.id,
        chargeReport(charge, { attempts: [...failed(charge, tries).attempts, { date: 'x', status: 'scheduled', endToEndId: null, reason: null }] }),
      );
      expect(await chargeRow(charge.id)).toEqual({ status: 'retrying', retries: tries, attempts: tries + 1 });
    }
    expect(await service().applyCharge('f-4', failed(charge, 4), context)).toMatchObject({ kind: 'recorded', status: 'failed' });
    expect(await forwards(recurrence.id)).toEqual(['recurring_charge.retrying', 'recurring_charge.retrying', 'recurring_charge.retrying', 'recurring_charge.failed']);
  });

  it('asks again for a retry the PSP could not be reached for, without telling the merchant twice', async () => {
    const recurrence = await shopWithRecurrence({ retryPolicy: 'three_in_seven_days' });
    const charge = await ctx.newRecurringCharge(recurrence, { dueDate: brasiliaDate(new Date()) });
    expect(await service().applyCharge('g-1', failed(charge, 1), context)).toMatchObject({ kind: 'recorded', retry: { chargeId: charge.id } });
    // Reconciliation reads the same failure back under another id: the retry is asked again, the event is not sent again.
    expect(await service().applyCharge('g-1-reconciled', failed(charge, 1), { ...context, source: 'reconciliation' })).toMatchObject({
      kind: 'duplicate',
      retry: { chargeId: charge.id },
    });
    expect(await forwards(recurrence.id)).toEqual(['recurring_charge.retrying']);
  });

  it('a cancel by the payer cancels the charges not yet due, keeps the one due today, and tells the merchant of each', async () => {
    const recurrence = await shopWithRecurrence();
    const later = await ctx.newRecurringCharge(recurrence, { cycle: 1 });
    const today = await ctx.newRecurringCharge(recurrence, { cycle: 0, dueDate: brasiliaDate(new Date()) });
    const report: ProviderRecurrence = {
      providerRecurrenceId: recurrence.providerRecurrenceId!,
      status: 'cancelled',
      cancelledBy: 'payer',
      copyPaste: null,
      authorizationExpiresAt: null,
      updatedAt: null,
    };
    expect(await service().applyRecurrence('c-1', report, context)).toMatchObject({ kind: 'recorded', status: 'cancelled' });
    expect((await chargeRow(later.id)).status).toBe('cancelled');
    expect((await chargeRow(today.id)).status).toBe('scheduled');
    const [row] = await ctx.dataSource.query(`SELECT cancelled_by FROM recurrences WHERE id = $1`, [recurrence.id]);
    expect(row.cancelled_by).toBe('payer');
    expect(await forwards(recurrence.id)).toEqual(['recurrence.cancelled', 'recurring_charge.cancelled']);
  });

  it('settles a charge paid while the merchant cancels the recurrence, each once, in whichever order they meet', async () => {
    const recurrence = await shopWithRecurrence();
    const charge = await ctx.newRecurringCharge(recurrence, { dueDate: brasiliaDate(new Date()) });
    const cancel = ctx.dataSource.transaction(async (tx) => {
      const locked = (await units.get(RecurrenceRepository).lockById(tx, recurrence.id))!;
      await service().recordMerchantCancel(tx, locked, { ...context, source: 'merchant' });
    });
    const paid = service().applyCharge('p-1', chargeReport(charge, { status: 'paid', endToEndId: 'E99999999202612051200abcdefghijk', paidAt: new Date() }), context);
    await Promise.all([cancel, paid]);
    expect(await chargeRow(charge.id)).toMatchObject({ status: 'paid' });
    expect((await forwards(recurrence.id)).sort()).toEqual(['recurrence.cancelled', 'recurring_charge.paid']);
  });

  it('ends an active recurrence once its last day has passed, without an event for the merchant', async () => {
    const yesterday = addDays(brasiliaDate(new Date()), -1);
    const over = await shopWithRecurrence({ startDate: addDays(yesterday, -30), endDate: yesterday });
    const running = await shopWithRecurrence({ endDate: addDays(brasiliaDate(new Date()), 30) });
    expect(await service().endIfPast(over.id, { ...context, source: 'reconciliation' })).toBe(true);
    expect(await service().endIfPast(over.id, { ...context, source: 'reconciliation' })).toBe(false);
    expect(await service().endIfPast(running.id, { ...context, source: 'reconciliation' })).toBe(false);
    const [row] = await ctx.dataSource.query(`SELECT status, next_reconcile_at FROM recurrences WHERE id = $1`, [over.id]);
    expect(row).toEqual({ status: 'ended', next_reconcile_at: null });
    expect(await forwards(over.id)).toEqual([]);
  });

  it('leases recurrences and charges due for reconciliation to one claimer at a time', async () => {
    const past = new Date(Date.now() - 60_000);
    const recurrence = await shopWithRecurrence({ status: 'pending_authorization', nextReconcileAt: past });
    const charge = await ctx.newRecurringCharge(recurrence, { nextReconcileAt: past });
    const now = new Date();
    const [first, second] = await Promise.all([
      units.get(RecurrenceRepository).claimDueForReconciliationSkipLocked(now, 100, 60_000),
      units.get(RecurrenceRepository).claimDueForReconciliationSkipLocked(now, 100, 60_000),
    ]);
    expect([...first, ...second].filter((r) => r.id === recurrence.id)).toHaveLength(1);
    expect((await units.get(RecurringChargeRepository).claimDueForReconciliationSkipLocked(now, 100, 60_000)).map((c) => c.id)).toContain(charge.id);
    expect((await units.get(RecurringChargeRepository).claimDueForReconciliationSkipLocked(now, 100, 60_000)).map((c) => c.id)).not.toContain(charge.id);
  });
});
