import { createHmac, randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { type Reconciler, Reconciles } from '../common/jobs/reconciliation';
import { Clock } from '../domain/clock';
import { AppConfig } from '../config/app-config';
import type { PaymentStatus } from '../domain/payment-status';
import { PaymentRepository, PaymentToReconcile } from './payment.repository';
import type { ProviderCharge } from '../providers/provider-adapter';
import { AccountResolver, type ActingAccount } from '../providers/provider-accounts/account-resolver';
import { AccountUnusableError } from '../providers/provider-errors';
import { GatewayMetrics } from '../metrics/gateway-metrics';
import { PaymentEventsService } from './lifecycle/payment-events.service';
import { refundEventType, type ProviderEventType } from '../domain/provider-event';

/** Payments claimed per run; the rest wait for the next run. */
const BATCH_SIZE = 100;
/** Provider reads in flight at once within a run. */
const CONCURRENCY = 4;
/**
 * How long past `expires_at` a charge the provider still calls pending is given before the gateway
 * expires it. A Pix payment settles in seconds, and the payer's bank refuses an expired charge, so
 * after this margin "pending" can only mean the provider never marks expiry (BCB's API has no such
 * status) or has not yet.
 */
export const EXPIRY_GRACE_MS = 60_000;
/**
 * How often a due-date charge still pending is read back. It may stay payable for weeks
 * (docs/due-charges.md): its callback is what tells of a payment, and reading every one back each
 * RECONCILE_AFTER_SECONDS would cost the PSP a call per charge every few minutes for a month.
 */
export const DUE_CHARGE_RECHECK_MS = 6 * 3600_000;

export interface ReconciliationSummary {
  /** Payments read back from their provider. */
  checked: number;
  /** Events applied to payments. */
  applied: number;
  /** Provider reads that failed (retried on the next run). */
  failed: number;
}

/**
 * Reads payments that stayed pending too long back from their provider and applies any change as a
 * synthetic event through the same path as webhooks, so a lost provider webhook is not a lost
 * payment. The event id is deterministic, so a change is applied, and forwarded, once however many
 * runs or processes see it; and unforgeable (see reconciliationEventId), so nobody posting to the
 * webhook intake can take it first and keep the payment from being reconciled.
 *
 * Which payments are due (their age, their expiry) is the injected Clock's time, so tests move it by hand.
 */
@Injectable()
@Reconciles('Reconciliation')
export class ReconciliationService implements Reconciler<ReconciliationSummary> {
  private readonly logger = new Logger('Reconciliation');

  constructor(
    private readonly payments: PaymentRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly accounts: AccountResolver,
    private readonly metrics: GatewayMetrics,
    private readonly events: PaymentEventsService,
  ) {}

  report(summary: ReconciliationSummary): string | null {
    return summary.applied || summary.failed ? `Reconciled: ${summary.checked} checked, ${summary.applied} applied, ${summary.failed} failed` : null;
  }

  async runOnce(): Promise<ReconciliationSummary> {
    const now = this.clock.now();
    const summary: ReconciliationSummary = { checked: 0, applied: 0, failed: 0 };
    const claimed = await this.claim(now);
    let next = 0;
    const worker = async () => {
      while (next < claimed.length) {
        const payment = claimed[next++]!;
        try {
          await this.reconcile(payment, now, summary);
        } catch (error) {
          // One payment that cannot be applied never holds up the others; its lease brings it back on a later run.
          summary.failed++;
          this.logger.error({ err: error, payment_id: payment.id }, `Reconciling payment ${payment.id} failed; retrying on a later run.`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, claimed.length) }, worker));
    return summary;
  }

  /**
   * Takes a batch of due pending payments: old enough, or past expiry plus the grace. The lease is
   * RECONCILE_AFTER_SECONDS: a payment still pending is read back again that long after.
   */
  private claim(now: Date): Promise<PaymentToReconcile[]> {
    const after = this.config.reconcileAfterSeconds * 1000;
    return this.payments.claimDueForReconciliationSkipLocked({
      createdBefore: new Date(now.getTime() - after),
      expiredBefore: new Date(now.getTime() - EXPIRY_GRACE_MS),
      now,
      leaseUntil: new Date(now.getTime() + after),
      limit: BATCH_SIZE,
    });
  }

  /** A pending due-date charge is next read back in DUE_CHARGE_RECHECK_MS, or just past its last payable moment if sooner. */
  private nextDueCheck(payment: PaymentToReconcile, now: Date): Date {
    const recheck = now.getTime() + DUE_CHARGE_RECHECK_MS;
    const afterExpiry = payment.expiresAt ? payment.expiresAt.getTime() + EXPIRY_GRACE_MS : recheck;
    return new Date(Math.max(now.getTime() + this.config.reconcileAfterSeconds * 1000, Math.min(recheck, afterExpiry)));
  }

  private async reconcile(payment: PaymentToReconcile, now: Date, summary: ReconciliationSummary): Promise<void> {
    // Read back through the account that charged it (its credentials), or its provider's built-in account.
    let acting: ActingAccount;
    let charge: ProviderCharge;
    try {
      acting = await this.accounts.forPayment(payment);
      charge = await this.metrics.timeProviderCall(acting.metricsLabel, 'get_charge', () =>
        acting.adapter.getCharge(acting.account, { providerPaymentId: payment.providerPaymentId, txid: payment.txid, due: payment.due !== null }),
      );
    } catch (error) {
      if (error instanceof AccountUnusableError && error.reason === 'provider_unavailable') {
        // Nothing here can read it back (its provider does not run on this gateway): not a failed read, and not retried sooner.
        this.logger.warn({ payment_id: payment.id, provider_account_id: error.accountId }, `Payment ${payment.id} cannot be reconciled: ${error.message}`);
        return;
      }
      summary.failed++;
      this.logger.warn({ err: error, payment_id: payment.id }, `Could not read payment ${payment.id} back from ${payment.provider}; retrying on the next run.`);
      // Due again at once, but sorted behind payments never checked, so a few that always fail cannot starve the rest.
      await this.payments.rescheduleReconciliation(payment.id, now);
      return;
    }
    summary.checked++;
    if (payment.due !== null && charge.status === 'pending') await this.payments.rescheduleReconciliation(payment.id, this.nextDueCheck(payment, now));
    const pastExpiry = payment.expiresAt !== null && payment.expiresAt.getTime() + EXPIRY_GRACE_MS <= now.getTime();
    const status: PaymentStatus = charge.status === 'pending' && pastExpiry ? 'expired' : charge.status;
    const requestId = randomUUID();
    // A PSP that lists the refunds tells each one, which says more (how much, who asked) than "refunded".
    const refunds = charge.refunds ?? [];
    const steps = status === 'refunded' && refunds.length > 0 ? STEPS.paid : STEPS[status];
    for (const step of steps) {
      const result = await this.events.apply(
        payment.provider,
        {
          eventId: reconciliationEventId(this.config.secretsKey.reveal(), payment.id, step.to),
          type: step.event,
          paymentRef: payment.id,
          // A due-date charge is paid what was due that day, not its original amount.
          amountCents: step.to === 'paid' && payment.due !== null ? (charge.pix?.paidAmountCents ?? charge.amountCents) : charge.amountCents,
          occurredAt: step.to === 'paid' ? (charge.paidAt ?? now) : now,
          pix: step.to === 'paid' ? charge.pix : undefined,
        },
        {
          source: 'reconciliation',
          requestId,
          payload: snapshot(payment.provider, charge, status !== charge.status),
          onlyFromStatus: step.from,
          accountId: payment.providerAccountId,
        },
      );
      if (result.kind === 'recorded' && result.outcome === 'applied') summary.applied++;
    }
    // Refunds found with the charge (those made outside the gateway included) are recorded like a callback's.
    for (const refund of refunds) {
      const result = await this.events.apply(
        payment.provider,
        {
          eventId: reconciliationEventId(this.config.secretsKey.reveal(), payment.id, `refund:${refund.providerRefundId}:${refund.status}`),
          type: refundEventType(refund.status),
          paymentRef: payment.id,
          amountCents: refund.amountCents,
          occurredAt: now,
          refund,
        },
        { source: 'reconciliation', requestId, payload: { provider: payment.provider, refund }, accountId: payment.providerAccountId },
      );
      if (result.kind === 'recorded' && result.outcome === 'applied') summary.applied++;
    }
  }
}

/**
 * The id of the synthetic event that moves `paymentId` to `status`: `reconcile:<payment>:<status>:<mac>`.
 * Events from the intake share its unique index (provider, provider_account_id, provider_event_id) and their ids are
 * chosen by whoever posts them; the MAC, keyed with SECRETS_KEY (which every process shares), is
 * what such a poster cannot compute. The readable part is for whoever reads the event log.
 */
export function reconciliationEventId(secretsKey: Buffer, paymentId: string, status: PaymentStatus | `refund:${string}`): string {
  const mac = createHmac('sha256', secretsKey).update(`pix-gateway/reconciliation-event\0${paymentId}\0${status}`).digest('base64url');
  return `reconcile:${paymentId}:${status}:${mac}`;
}

interface Step {
  from: PaymentStatus;
  to: PaymentStatus;
  event: ProviderEventType;
}

/**
 * The events that take a pending payment to the status the provider reports. A refund seen only
 * now means both webhooks were lost: the payment is confirmed first, then refunded, so the
 * merchant hears both.
 */
const STEPS: Readonly<Record<PaymentStatus, readonly Step[]>> = {
  pending: [],
  paid: [{ from: 'pending', to: 'paid', event: 'payment.confirmed' }],
  expired: [{ from: 'pending', to: 'expired', event: 'payment.expired' }],
  cancelled: [{ from: 'pending', to: 'cancelled', event: 'payment.cancelled' }],
  failed: [{ from: 'pending', to: 'failed', event: 'payment.failed' }],
  partially_refunded: [{ from: 'pending', to: 'paid', event: 'payment.confirmed' }],
  refunded: [
    { from: 'pending', to: 'paid', event: 'payment.confirmed' },
    { from: 'paid', to: 'refunded', event: 'payment.refunded' },
  ],
};

/** What the provider said, stored as the synthetic event's payload. */
function snapshot(provider: string, charge: ProviderCharge, expiredByGateway: boolean): Record<string, unknown> {
  return {
    provider,
    charge: {
      providerPaymentId: charge.providerPaymentId,
      txid: charge.txid,
      status: charge.status,
      amountCents: charge.amountCents,
      expiresAt: charge.expiresAt,
      paidAt: charge.paidAt,
    },
    ...(expiredByGateway ? { expiredByGateway: true } : {}),
  };
}
