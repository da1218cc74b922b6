import { Inject, Injectable, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { newId } from '../common/ids';
import { DELIVERY_NUDGE, type DeliveryNudge } from '../deliveries/delivery-nudge';
import { Clock } from '../domain/clock';
import { GatewayMetrics } from '../metrics/gateway-metrics';
import { brasiliaDate, isChargeFinal, isRecurrenceFinal, type RecurrenceEventType, type RecurringChargeEventType } from '../domain/recurrence';
import type { ProviderRecurrence, ProviderRecurringCharge } from '../providers/recurring';
import type { RecurrenceEventSource } from './recurrence-event.entity';
import { RecurrenceEventRepository } from './recurrence-event.repository';
import { decideCharge, decideRecurrence } from './recurrence-decision';
import type { Recurrence } from './recurrence.entity';
import { type LockedRecurrence, RecurrenceRepository } from './recurrence.repository';
import { toRecurrenceView, toRecurringChargeView } from './recurrence.view';
import type { RecurringCharge } from './recurring-charge.entity';
import { RecurringChargeRepository } from './recurring-charge.repository';
import { AppConfig } from '../config/app-config';

/** Where reports came from, and what to keep of it. */
export interface ReportContext {
  provider: string;
  accountId: string | null;
  source: RecurrenceEventSource;
  requestId: string;
  payload: unknown;
}

export type ReportResult =
  /** Told before: nothing written. A retry the PSP was not yet reached for is asked again (`retry`). */
  | { kind: 'duplicate'; retry?: { chargeId: string; txid: string; date: string } }
  | { kind: 'unmatched' }
  | {
      kind: 'recorded';
      eventId: string;
      recurrenceId: string;
      chargeId: string | null;
      status: string;
      /** Set when the decision asks the PSP for a retry: the caller asks it after the commit. */
      retry?: { chargeId: string; txid: string; date: string };
    };

/** How long a recurrence waiting for the payer, or a charge past its due date, waits before it is read back again. */
const ACTIVE_RECHECK_MS = 24 * 3_600_000;
/** How often a charge past its due date that is still open is read back. */
const OPEN_CHARGE_RECHECK_MS = 3_600_000;

/**
 * The one place recurrences and their charges change after creation (docs/recurrences.md): the
 * PSP's reports (callbacks, reconciliation) and the merchant's cancels. Each change locks its row,
 * and writes the move, the event and the merchant's delivery in one transaction (the outbox), so
 * the merchant hears of every change exactly once.
 */
@Injectable()
export class RecurrenceEventsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly recurrences: RecurrenceRepository,
    private readonly charges: RecurringChargeRepository,
    private readonly events: RecurrenceEventRepository,
    private readonly clock: Clock,
    private readonly metrics: GatewayMetrics,
    private readonly config: AppConfig,
    @Optional() @Inject(DELIVERY_NUDGE) private readonly delivery?: DeliveryNudge,
  ) {}

  /** A PSP's word about a recurrence, read back from it. */
  async applyRecurrence(eventId: string, report: ProviderRecurrence, context: ReportContext): Promise<ReportResult> {
    const result = await this.dataSource.transaction(async (tx) => {
      const locked = await this.recurrences.lockForProviderReport(tx, context.provider, context.accountId, report.providerRecurrenceId);
      if (!locked) return { kind: 'unmatched' } as const;
      return this.applyRecurrenceIn(tx, locked, eventId, report, context);
    });
    this.nudge(result);
    return result;
  }

  /** The same, for a recurrence the caller already found (reconciliation, the merchant's cancel answered by the PSP). */
  async applyRecurrenceById(recurrenceId: string, eventId: string, report: ProviderRecurrence, context: ReportContext): Promise<ReportResult> {
    const result = await this.dataSource.transaction(async (tx) => {
      const locked = await this.recurrences.lockById(tx, recurrenceId);
      if (!locked) return { kind: 'unmatched' } as const;
      return this.applyRecurrenceIn(tx, locked, eventId, report, context);
    });
    this.nudge(result);
    return result;
  }

  /** Inside the caller's transaction, with the recurrence locked. */
  async applyRecurrenceIn(tx: EntityManager, locked: LockedRecurrence, eventId: string, report: ProviderRecurrence, context: ReportContext): Promise<ReportResult> {
    const recurrence = locked.recurrence;
    const from = recurrence.status;
    const decision = decideRecurrence(from, report);
    const now = this.clock.now();
    if (decision.to) {
      recurrence.status = decision.to;
      if (decision.to === 'cancelled') recurrence.cancelledBy = report.cancelledBy ?? 'psp';
      recurrence.updatedAt = now;
    }
    if (recurrence.status === 'pending_authorization' && report.copyPaste && !recurrence.authorizationCopyPaste) {
      recurrence.authorizationCopyPaste = report.copyPaste;
      recurrence.authorizationExpiresAt = report.authorizationExpiresAt;
    }
    recurrence.nextReconcileAt = this.nextRecurrenceCheck(recurrence, now);
    const recorded = await this.record(tx, locked, null, eventId, decision.event, from, recurrence.status, decision.note, report, context);
    if (!recorded) {
      // Told before: only when it is next read back moves (a reconciliation read that changed nothing).
      if (!decision.to) await this.recurrences.update(tx, recurrence);
      return { kind: 'duplicate' };
    }
    await this.recurrences.update(tx, recurrence);
    if (decision.to === 'cancelled') await this.cancelChargesNotYetAttempted(tx, locked, context);
    return { kind: 'recorded', eventId: recorded, recurrenceId: recurrence.id, chargeId: null, status: recurrence.status };
  }

  /** A PSP's word about a recurring charge, read back from it. */
  async applyCharge(eventId: string, report: ProviderRecurringCharge, context: ReportContext): Promise<ReportResult> {
    const result = await this.dataSource.transaction(async (tx) => {
      // The recurrence first, then the charge: the order the merchant's cancel takes them in.
      const found = await this.charges.findByTxid(report.txid, tx);
      const locked = found && (await this.recurrences.lockById(tx, found.recurrenceId));
      const atThisAccount = locked?.recurrence.provider === context.provider && locked.recurrence.providerAccountId === context.accountId;
      const charge = atThisAccount ? await this.charges.lockByTxid(tx, report.txid) : null;
      if (!locked || !charge) return { kind: 'unmatched' } as const;
      return this.applyChargeIn(tx, locked, charge, eventId, report, context);
    });
    this.nudge(result);
    return result;
  }

  private async applyChargeIn(
    tx: EntityManager,
    locked: LockedRecurrence,
    charge: RecurringCharge,
    eventId: string,
    report: ProviderRecurringCharge,
    context: ReportContext,
  ): Promise<ReportResult> {
    const from = charge.status;
    const now = this.clock.now();
    const decision = decideCharge(charge, locked.recurrence.retryPolicy, report, brasiliaDate(now));
    charge.attempts = report.attempts.map((a) => ({ date: a.date, status: a.status, endToEndId: a.endToEndId, reason: a.reason }));
    let event: RecurringChargeEventType | null = null;
    let note: string | null = null;
    let retry: { chargeId: string; txid: string; date: string } | undefined;
    if (decision.kind === 'move') {
      charge.status = decision.to;
      event = decision.event;
      if (decision.to === 'paid') {
        charge.endToEndId = report.endToEndId;
        charge.paidAt = report.paidAt ?? now;
      }
      if (decision.to === 'failed') charge.failureReason = report.failureReason ?? lastReason(report) ?? 'The payer’s bank did not debit the charge.';
      charge.updatedAt = now;
    } else if (decision.kind === 'retry') {
      charge.status = 'retrying';
      charge.failureReason = lastReason(report);
      event = 'recurring_charge.retrying';
      retry = { chargeId: charge.id, txid: charge.txid, date: decision.date };
      charge.updatedAt = now;
      // The retry is asked after this commits; until it is answered, reconciliation asks again.
      eventId = `${charge.txid}:retry:${charge.retries + 1}`;
    } else {
      note = decision.note;
    }
    charge.nextReconcileAt = isChargeFinal(charge.status) ? null : this.nextChargeCheck(charge, now, retry !== undefined);
    const recorded = await this.record(tx, locked, charge, eventId, event, from, charge.status, note, report, context);
    if (!recorded) {
      if (decision.kind === 'none') await this.charges.update(tx, charge);
      return retry ? { kind: 'duplicate', retry } : { kind: 'duplicate' };
    }
    await this.charges.update(tx, charge);
    return { kind: 'recorded', eventId: recorded, recurrenceId: locked.recurrence.id, chargeId: charge.id, status: charge.status, ...(retry ? { retry } : {}) };
  }

  /** The PSP accepted a retry: it is counted, and its attempt recorded as the PSP holds it. */
  async recordRetryAsked(chargeId: string, answer: ProviderRecurringCharge): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      const charge = await this.charges.lockByTxid(tx, answer.txid);
      if (charge?.id !== chargeId || charge.status !== 'retrying') return;
      charge.retries += 1;
      charge.attempts = answer.attempts.map((a) => ({ date: a.date, status: a.status, endToEndId: a.endToEndId, reason: a.reason }));
      charge.nextReconcileAt = this.nextChargeCheck(charge, this.clock.now(), false);
      charge.updatedAt = this.clock.now();
      await this.charges.update(tx, charge);
    });
  }

  /** The PSP refused a retry for good: the charge has failed. */
  async failCharge(chargeId: string, reason: string, context: ReportContext): Promise<ReportResult> {
    const result = await this.dataSource.transaction(async (tx) => {
      const found = await this.charges.findById(chargeId, tx);
      const locked = found && (await this.recurrences.lockById(tx, found.recurrenceId));
      const charge = locked ? await this.charges.lockByTxid(tx, found.txid) : null;
      if (!locked || !charge || isChargeFinal(charge.status)) return { kind: 'duplicate' } as const;
      const from = charge.status;
      charge.status = 'failed';
      charge.failureReason = reason;
      charge.nextReconcileAt = null;
      charge.updatedAt = this.clock.now();
      const recorded = await this.record(tx, locked, charge, `${charge.txid}:failed`, 'recurring_charge.failed', from, 'failed', reason, { reason }, context);
      if (!recorded) return { kind: 'duplicate' } as const;
      await this.charges.update(tx, charge);
      return { kind: 'recorded', eventId: recorded, recurrenceId: locked.recurrence.id, chargeId: charge.id, status: 'failed' } as const;
    });
    this.nudge(result);
    return result;
  }

  /**
   * The merchant cancelled the recurrence and the PSP agreed: it is `cancelled` by the merchant,
   * `recurrence.cancelled` is sent, and its charges not yet attempted are cancelled with it.
   */
  async recordMerchantCancel(tx: EntityManager, locked: LockedRecurrence, context: ReportContext): Promise<void> {
    const recurrence = locked.recurrence;
    const from = recurrence.status;
    recurrence.status = 'cancelled';
    recurrence.cancelledBy = 'merchant';
    recurrence.nextReconcileAt = null;
    recurrence.updatedAt = this.clock.now();
    await this.record(tx, locked, null, `${recurrence.id}:cancelled`, 'recurrence.cancelled', from, 'cancelled', null, { cancelledBy: 'merchant' }, context);
    await this.recurrences.update(tx, recurrence);
    await this.cancelChargesNotYetAttempted(tx, locked, context);
  }

  /**
   * An active recurrence whose last day has passed has `ended`: no charge can fall in it any more.
   * Recorded in its history; merchants are not sent an event for it (docs/recurrences.md, States).
   */
  async endIfPast(recurrenceId: string, context: ReportContext): Promise<boolean> {
    return this.dataSource.transaction(async (tx) => {
      const locked = await this.recurrences.lockById(tx, recurrenceId);
      const recurrence = locked?.recurrence;
      if (!locked || recurrence?.status !== 'active' || recurrence.endDate === null || recurrence.endDate >= brasiliaDate(this.clock.now())) return false;
      recurrence.status = 'ended';
      recurrence.nextReconcileAt = null;
      recurrence.updatedAt = this.clock.now();
      await this.record(tx, locked, null, `${recurrence.id}:ended`, null, 'active', 'ended', `Its endDate (${recurrence.endDate}) has passed.`, {}, context);
      await this.recurrences.update(tx, recurrence);
      return true;
    });
  }

  /** The merchant cancelled a charge and the PSP agreed. */
  async recordChargeCancel(tx: EntityManager, locked: LockedRecurrence, charge: RecurringCharge, context: ReportContext): Promise<void> {
    const from = charge.status;
    charge.status = 'cancelled';
    charge.nextReconcileAt = null;
    charge.updatedAt = this.clock.now();
    await this.record(tx, locked, charge, `${charge.txid}:cancelled`, 'recurring_charge.cancelled', from, 'cancelled', null, { cancelledBy: 'merchant' }, context);
    await this.charges.update(tx, charge);
  }

  /** Wakes the delivery worker once a transaction that queued a delivery has committed. */
  nudge(result?: ReportResult): void {
    if (!result || result.kind === 'recorded') this.delivery?.nudge();
  }

  private async cancelChargesNotYetAttempted(tx: EntityManager, locked: LockedRecurrence, context: ReportContext): Promise<void> {
    const waiting = await this.charges.lockNotYetAttempted(tx, locked.recurrence.id, brasiliaDate(this.clock.now()));
    for (const charge of waiting) await this.recordChargeCancel(tx, locked, charge, context);
  }

  /**
   * Writes the event (deduplicated by `eventId` per account) and, when it is one merchants
   * receive and the merchant has a webhook URL, its delivery. Returns the event's id, or null
   * for a duplicate.
   */
  private async record(
    tx: EntityManager,
    locked: LockedRecurrence,
    charge: RecurringCharge | null,
    providerEventId: string,
    type: RecurrenceEventType | RecurringChargeEventType | null,
    from: string,
    to: string,
    note: string | null,
    payload: unknown,
    context: ReportContext,
  ): Promise<string | null> {
    const recurrence = locked.recurrence;
    const id = newId('evt');
    const forward = type === null ? 'none' : locked.webhookUrl ? 'queued' : 'no_webhook_url';
    const data = charge ? toRecurringChargeView(charge) : toRecurrenceView(recurrence, this.config.publicBaseUrl);
    const created = await this.events.insertWithOutbox(
      tx,
      {
        id,
        provider: recurrence.provider,
        providerAccountId: recurrence.providerAccountId,
        providerEventId,
        type: type ?? (charge ? 'recurring_charge.news' : 'recurrence.news'),
        source: context.source,
        recurrenceId: recurrence.id,
        recurringChargeId: charge?.id ?? null,
        merchantId: recurrence.merchantId,
        fromStatus: from,
        toStatus: to,
        forward,
        note,
        requestId: context.requestId,
        payload: context.source === 'webhook' ? (context.payload ?? payload) : payload,
      },
      forward === 'queued' && type !== null ? { id: newId('dlv'), eventType: type, requestId: context.requestId, body: { event: type, id, data }, dueAt: this.clock.now() } : null,
    );
    if (!created) return null;
    // Every path a charge moves by (callbacks, reconciliation, the merchant's cancels, a recurrence's end) passes here once.
    if (charge && type) this.metrics.recurringChargeOutcomes.inc({ provider: recurrence.provider, outcome: to });
    return id;
  }

  private nextRecurrenceCheck(recurrence: Recurrence, now: Date): Date | null {
    if (isRecurrenceFinal(recurrence.status)) return null;
    if (recurrence.status === 'pending_authorization') return recurrence.nextReconcileAt ?? new Date(now.getTime() + 60_000);
    return new Date(now.getTime() + ACTIVE_RECHECK_MS);
  }

  private nextChargeCheck(charge: RecurringCharge, now: Date, retryPending: boolean): Date {
    // A retry still to be asked for is asked again soon; otherwise the charge is read back the day
    // after its due date, and then hourly while it stays open (its attempts run for up to a week).
    if (retryPending) return new Date(now.getTime() + 60_000);
    const dayAfterDue = new Date(`${charge.dueDate}T12:00:00-03:00`).getTime() + ACTIVE_RECHECK_MS;
    return new Date(Math.max(dayAfterDue, now.getTime() + OPEN_CHARGE_RECHECK_MS));
  }
}

function lastReason(report: ProviderRecurringCharge): string | null {
  for (let i = report.attempts.length - 1; i >= 0; i--) if (report.attempts[i]!.reason) return report.attempts[i]!.reason;
  return null;
}
