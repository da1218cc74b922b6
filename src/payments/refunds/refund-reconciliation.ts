import { Injectable, Logger } from '@nestjs/common';
import { type Reconciler, Reconciles } from '../../common/jobs/reconciliation';
import { randomUUID } from 'node:crypto';
import { AppConfig } from '../../config/app-config';
import { Clock } from '../../domain/clock';
import type { Refund } from './refund.entity';
import { RefundRepository } from './refund.repository';
import { UpstreamError } from '../../providers/provider-adapter';
import { RefundsService } from './refunds.service';

const BATCH = 20;
/** Refunds in process at a PSP can take hours (a MED return, a bank's batch); reads back off to hourly. */
const MAX_BACKOFF_MS = 60 * 60 * 1000;

export interface RefundReconciliationSummary {
  /** Pending refunds taken this run. */
  checked: number;
  /** Refunds that reached succeeded or failed. */
  settled: number;
  /** Checks that could not be made (the PSP failed, the account is unusable): tried again later. */
  failed: number;
}

/**
 * Pending refunds nobody called back about (docs/api.md, Refunds): each due one is read back from
 * its PSP, or, when the PSP never answered the gateway's request (no id of the PSP's yet), asked
 * for again with the same refund id, which the PSP answers with the same refund. Claimed with a
 * lease (FOR UPDATE SKIP LOCKED), so several processes share the work without doing it twice. It
 * also sends the refunds the gateway makes on its own (origin `routing`).
 */
@Injectable()
@Reconciles('RefundReconciliation')
export class RefundReconciliation implements Reconciler<RefundReconciliationSummary> {
  private readonly logger = new Logger('RefundReconciliation');

  constructor(
    private readonly refunds: RefundRepository,
    private readonly service: RefundsService,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  report(summary: RefundReconciliationSummary): string | null {
    return summary.settled || summary.failed ? `Refunds reconciled: ${summary.checked} checked, ${summary.settled} settled, ${summary.failed} failed` : null;
  }

  async runOnce(): Promise<RefundReconciliationSummary> {
    const summary: RefundReconciliationSummary = { checked: 0, settled: 0, failed: 0 };
    const leaseMs = this.config.upstreamTimeoutMs * 2 + 30_000;
    for (;;) {
      const now = this.clock.now();
      const claimed = await this.refunds.claimDueSkipLocked(now, new Date(now.getTime() + leaseMs), BATCH);
      for (const refund of claimed) {
        summary.checked++;
        const result = await this.check(refund);
        if (result === 'settled') summary.settled++;
        if (result === 'failed') summary.failed++;
      }
      if (claimed.length < BATCH) return summary;
    }
  }

  private async check(refund: Refund): Promise<'settled' | 'pending' | 'failed'> {
    const requestId = randomUUID();
    try {
      const acting = await this.service.acting(refund);
      // No id of the PSP's yet: the request never got an answer, so it is asked again (same id, same refund).
      const answer = refund.providerRefundId === null ? await this.service.send(acting, refund, requestId) : await this.service.readBack(acting, refund, requestId);
      if (answer.status !== 'pending') return 'settled';
      await this.later(refund);
      return 'pending';
    } catch (error) {
      // A PSP refusing the refund asked again has failed it (RefundsService.send): settled. Anything else is tried again later.
      if (refund.providerRefundId === null && error instanceof UpstreamError && error.kind === 'http' && !error.ambiguous) return 'settled';
      this.logger.warn({ err: error, refund_id: refund.id, payment_id: refund.paymentId }, 'A pending refund could not be checked; it is tried again later');
      await this.later(refund);
      return 'failed';
    }
  }

  /** 30 s, 1 min, 2 min … capped at an hour. */
  private async later(refund: Refund): Promise<void> {
    const backoffMs = Math.min(30_000 * 2 ** Math.max(0, refund.checkTries - 1), MAX_BACKOFF_MS);
    await this.refunds.reschedule(refund.id, new Date(this.clock.now().getTime() + backoffMs));
  }
}
