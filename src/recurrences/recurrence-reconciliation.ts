import { Injectable, Logger } from '@nestjs/common';
import { type Reconciler, Reconciles } from '../common/jobs/reconciliation';
import { newId } from '../common/ids';
import { Clock } from '../domain/clock';
import { AccountResolver } from '../providers/provider-accounts/account-resolver';
import { UpstreamError } from '../providers/provider-adapter';
import { type ReportContext, RecurrenceEventsService } from './recurrence-events.service';
import { RecurrenceRepository } from './recurrence.repository';
import { RecurringChargeRepository } from './recurring-charge.repository';
import { RecurringIntakeService } from './recurring-intake.service';

const BATCH = 50;
/** The lease a claimed row holds while it is read back: long enough for a slow PSP. */
const LEASE_MS = 5 * 60_000;

export interface RecurrenceReconciliationSummary {
  checked: number;
  applied: number;
  failed: number;
}

/**
 * Reads back, on the reconciliation timer (RECONCILE_* settings, as payments), the recurrences
 * still waiting for the payer or active (a payer who cancels at their bank is seen even if the
 * callback is lost), the charges past their due date or waiting for a retry, and those still
 * pending whose create went unanswered, and applies what changed through the same path as callbacks.
 */
@Injectable()
@Reconciles('RecurrenceReconciliation')
export class RecurrenceReconciliation implements Reconciler<RecurrenceReconciliationSummary> {
  private readonly logger = new Logger('RecurrenceReconciliation');

  constructor(
    private readonly recurrences: RecurrenceRepository,
    private readonly charges: RecurringChargeRepository,
    private readonly accounts: AccountResolver,
    private readonly intake: RecurringIntakeService,
    private readonly events: RecurrenceEventsService,
    private readonly clock: Clock,
  ) {}

  report(summary: RecurrenceReconciliationSummary): string | null {
    return summary.applied || summary.failed ? `Recurrences reconciled: ${summary.checked} checked, ${summary.applied} applied, ${summary.failed} failed` : null;
  }

  async runOnce(): Promise<RecurrenceReconciliationSummary> {
    const summary: RecurrenceReconciliationSummary = { checked: 0, applied: 0, failed: 0 };
    const now = this.clock.now();
    const context = (provider: string, accountId: string | null): ReportContext => ({ provider, accountId, source: 'reconciliation', requestId: newId('evt'), payload: null });
    for (const recurrence of await this.recurrences.claimDueForReconciliationSkipLocked(now, BATCH, LEASE_MS)) {
      summary.checked++;
      if (!recurrence.providerRecurrenceId) continue;
      try {
        const acting = await this.accounts.forPayment({ provider: recurrence.provider, providerAccountId: recurrence.providerAccountId });
        const read = await acting.adapter.recurring!.getRecurrence(acting.account, { providerRecurrenceId: recurrence.providerRecurrenceId });
        const result = await this.intake.apply(
          acting,
          { kind: 'recurrence', eventId: `${read.providerRecurrenceId}:${read.status}`, recurrence: read },
          context(acting.provider, acting.accountId),
        );
        if (result.kind === 'recorded') summary.applied++;
        if (read.status === 'active' && (await this.events.endIfPast(recurrence.id, context(acting.provider, acting.accountId)))) summary.applied++;
      } catch (error) {
        summary.failed++;
        this.logger.warn({ recurrence_id: recurrence.id, err: error }, `Could not read back recurrence ${recurrence.id}`);
      }
    }
    for (const charge of await this.charges.claimDueForReconciliationSkipLocked(now, BATCH, LEASE_MS)) {
      summary.checked++;
      try {
        const recurrence = (await this.recurrences.findById(charge.recurrenceId))!;
        const acting = await this.accounts.forPayment({ provider: recurrence.provider, providerAccountId: recurrence.providerAccountId });
        const read = await acting.adapter.recurring!.getCharge(acting.account, { txid: charge.txid }).catch(async (error: unknown) => {
          // A pending charge the PSP does not know was never made (the answer to its create was lost
          // before the PSP acted): it goes, and its cycle is free again.
          if (charge.status === 'pending' && error instanceof UpstreamError && error.kind === 'http' && error.upstreamStatus === 404) {
            if (await this.charges.deleteIfPending(charge.id))
              this.logger.log({ charge_id: charge.id }, `Recurring charge ${charge.id} was never made at the provider: its cycle is free`);
            return null;
          }
          throw error;
        });
        if (!read) {
          summary.applied++;
          continue;
        }
        const eventId = `${read.txid}:${read.status}:${read.attempts.length}:${read.attempts.at(-1)?.status ?? ''}`;
        const result = await this.intake.apply(acting, { kind: 'charge', eventId, charge: read }, context(acting.provider, acting.accountId));
        if (result.kind === 'recorded') summary.applied++;
      } catch (error) {
        summary.failed++;
        this.logger.warn({ charge_id: charge.id, err: error }, `Could not read back recurring charge ${charge.id}`);
      }
    }
    return summary;
  }
}
