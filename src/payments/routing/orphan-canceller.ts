import { Injectable, Logger } from '@nestjs/common';
import { type Reconciler, Reconciles } from '../../common/jobs/reconciliation';
import { AppConfig } from '../../config/app-config';
import { Clock } from '../../domain/clock';
import type { PaymentStatus } from '../../domain/payment-status';
import { GatewayMetrics } from '../../metrics/gateway-metrics';
import { supports } from '../../providers/capabilities';
import { UpstreamError } from '../../providers/provider-adapter';
import { AccountResolver } from '../../providers/provider-accounts/account-resolver';
import type { OrphanStatus } from './payment-attempt.entity';
import { type ClaimedOrphan, PaymentAttemptRepository } from './payment-attempt.repository';
import { newId } from '../../common/ids';
import { RefundRepository } from '../refunds/refund.repository';

/** Tries before an orphan is given up as `failed`. */
export const ORPHAN_MAX_TRIES = 8;
/** How many orphans one run leases. */
const BATCH = 20;
/** While the create that left an orphan has no payment yet (it failed, and may be retried with the key), look again this much later. */
const WAIT_FOR_CREATE_MS = 5 * 60 * 1000;

export interface OrphanRunSummary {
  settled: number;
  retried: number;
  waiting: number;
}

/**
 * Settles the charges that ambiguous attempts may have left at a PSP (docs/providers.md, Orphans):
 * reads the charge with the attempt's txid at that account and cancels it while it is open. A
 * charge nobody saw the QR code of cannot be paid by anyone, so cancelling it is a clean-up; one the
 * payer managed to pay anyway is recorded `paid`, logged and counted for the operator to refund.
 *
 * It waits while the create has no payment: a retry with the same key asks the same account for
 * the same txid, and must find the charge live, not cancelled. A charge that became the payment's
 * (a retry's charged attempt at that account) is no orphan at all and is cleared.
 *
 * Durable and safe with several processes: orphans are rows leased with FOR UPDATE SKIP LOCKED; a
 * process that dies leaves its lease to lapse, and cancelling twice is harmless.
 */
@Injectable()
@Reconciles('Orphans')
export class OrphanCanceller implements Reconciler<OrphanRunSummary> {
  private readonly logger = new Logger('Orphans');

  constructor(
    private readonly attempts: PaymentAttemptRepository,
    private readonly refunds: RefundRepository,
    private readonly accounts: AccountResolver,
    private readonly metrics: GatewayMetrics,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** One run: every due orphan this process can lease, then the pending gauge. */
  async runOnce(): Promise<OrphanRunSummary> {
    const summary: OrphanRunSummary = { settled: 0, retried: 0, waiting: 0 };
    // A lease outlasts a read and a cancel, each within the upstream timeout, with room to record.
    const leaseMs = this.config.upstreamTimeoutMs * 3 + 30_000;
    for (;;) {
      const claimed = await this.attempts.claimDueOrphans(BATCH, leaseMs, this.clock.now());
      for (const orphan of claimed) summary[await this.settle(orphan)]++;
      if (claimed.length < BATCH) break;
    }
    this.metrics.routingOrphansPending.set(await this.attempts.countPendingOrphans());
    return summary;
  }

  private async settle({ attempt, payment }: ClaimedOrphan): Promise<keyof OrphanRunSummary> {
    const now = this.clock.now();
    // Past the key's retention no retry can come back for this charge: settle it without a payment.
    const keyRetained = attempt.createdAt.getTime() + this.config.idempotencyTtlSeconds * 1000 > now.getTime();
    if (payment === null && keyRetained) {
      await this.attempts.retryOrphanAt(attempt.id, new Date(now.getTime() + WAIT_FOR_CREATE_MS), null, now, false);
      return 'waiting';
    }
    if (payment !== null && payment.providerAccountId === attempt.accountId && payment.txid === attempt.txid) {
      await this.attempts.settleOrphan(attempt.id, null, null, now);
      return 'settled';
    }
    try {
      const acting = await this.accounts.forPayment({ provider: attempt.provider, providerAccountId: attempt.accountId });
      const ref = { txid: attempt.txid!, providerPaymentId: attempt.providerPaymentId, paymentId: attempt.paymentId, due: attempt.due };
      let charge;
      try {
        charge = await acting.adapter.getCharge(acting.account, ref);
      } catch (error) {
        if (error instanceof UpstreamError && error.kind === 'http' && error.upstreamStatus === 404) return this.finish(attempt.id, 'absent', null, now);
        throw error;
      }
      if (charge.status === 'pending') {
        if (!supports(acting.adapter, 'cancel')) return this.finish(attempt.id, 'failed', `The provider "${attempt.provider}" cannot cancel charges.`, now);
        charge = await acting.adapter.cancelCharge(acting.account, ref);
      }
      const result = afterCancel(charge.status);
      if (result === 'paid') {
        // The payer paid a charge nobody sells anything for: all of it goes back, by the refunds'
        // own machinery (reconciliation sends it, reads it back, and the operator sees it).
        const refund = await this.refunds.insert(this.refunds.manager, {
          id: newId('ref'),
          paymentId: attempt.paymentId,
          merchantId: attempt.merchantId,
          origin: 'routing',
          status: 'pending',
          amountCents: charge.pix?.paidAmountCents ?? charge.amountCents,
          reason: 'Charge left by a failed attempt and paid anyway',
          provider: attempt.provider,
          providerAccountId: attempt.accountId,
          txid: attempt.txid!,
          providerPaymentId: charge.providerPaymentId ?? attempt.providerPaymentId,
          endToEndId: charge.pix?.endToEndId ?? null,
          providerRefundId: null,
          attemptId: attempt.id,
          nextCheckAt: now,
          createdAt: now,
        });
        this.logger.warn(
          { payment_id: attempt.paymentId, attempt_id: attempt.id, provider_account_id: attempt.accountId, txid: attempt.txid, refund_id: refund.id },
          'An orphan charge was paid before it could be cancelled: it is refunded in full',
        );
      }
      return this.finish(attempt.id, result, result === 'cancelled' && charge.status !== 'cancelled' ? `The charge was ${charge.status} at the PSP.` : null, now);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (attempt.orphanTries + 1 >= ORPHAN_MAX_TRIES) return this.finish(attempt.id, 'failed', message, now);
      // 10 s, 20 s, 40 s … capped at 10 minutes.
      const backoffMs = Math.min(10_000 * 2 ** attempt.orphanTries, 10 * 60 * 1000);
      await this.attempts.retryOrphanAt(attempt.id, new Date(now.getTime() + backoffMs), message, now);
      return 'retried';
    }
  }

  private async finish(id: string, status: OrphanStatus, lastError: string | null, now: Date): Promise<'settled'> {
    await this.attempts.settleOrphan(id, status, lastError, now);
    this.metrics.routingOrphansSettled.inc({ result: status });
    return 'settled';
  }
}

/** What a charge's status after the read (and the cancel, when it was open) makes of the orphan. */
function afterCancel(status: PaymentStatus): OrphanStatus {
  switch (status) {
    case 'paid':
    case 'partially_refunded':
    case 'refunded':
      return 'paid';
    case 'cancelled':
    case 'expired':
    case 'failed':
      return 'cancelled';
    case 'pending':
      // The PSP answered the cancel with a charge still open: try again later.
      throw new Error('The PSP still shows the charge open after cancelling it.');
  }
}
