import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PeriodicJob } from '../common/jobs/periodic-job';
import { AppConfig } from '../config/app-config';
import { Clock } from '../domain/clock';
import { PaymentBatchItemRepository } from './payment-batch-item.repository';
import { PaymentBatchProcessor } from './payment-batch.processor';
import { PaymentBatchRepository } from './payment-batch.repository';

/**
 * How long a claimed chunk stays this process's: long enough for a chunk's PSP calls (a batch's
 * read-backs, a few creates), short enough that a crashed process's chunk is taken up soon.
 */
export const BATCH_LEASE_MS = 10 * 60_000;
/** Bounds of the wait until the next pending item falls due: never a busy loop, never asleep for long. */
const MIN_WAKE_MS = 200;
const MAX_WAKE_MS = 60_000;
/** After a failed pass (the database away), the next is tried this much later. */
const FAILED_PASS_WAKE_MS = 5_000;

/**
 * Processes accepted batches in the background (docs/api.md, Payment batches; docs/architecture.md,
 * Payment batches). A pass claims one chunk after another (PaymentBatchItemRepository.claimChunkSkipLocked,
 * a lease in the database) and hands each to PaymentBatchProcessor, until nothing is due; then it
 * sleeps until the next pending item falls due (a PSP batch to read again, a retry). A pass runs
 * when a batch is accepted here (nudge), at start (what a stopped process left), when the next item
 * falls due, and every JOB_INTERVAL_MS (what other processes left; 0 turns only this sweep off).
 * One pass at a time in a process; several processes share the work through the leases.
 */
@Injectable()
export class PaymentBatchWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('PaymentBatchWorker');
  private readonly sweep: PeriodicJob;
  private pass?: Promise<void>;
  private again = false;
  private stopping = false;
  private wake?: NodeJS.Timeout;

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
    private readonly items: PaymentBatchItemRepository,
    private readonly batches: PaymentBatchRepository,
    private readonly processor: PaymentBatchProcessor,
  ) {
    this.sweep = new PeriodicJob({ name: 'Payment batch sweep', intervalMs: config.jobIntervalMs, logger: this.logger, run: () => this.nudgeAndWait() });
  }

  onApplicationBootstrap(): void {
    this.sweep.start();
    this.nudge();
  }

  /** No pass starts after this; the one under way stops after the items in flight (their chunk's lease covers the rest). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.wake);
    await this.sweep.stop();
    await this.pass;
  }

  /** Look for due work now. Returns at once and never throws. */
  nudge(): void {
    if (this.stopping) return;
    if (this.pass) {
      this.again = true;
      return;
    }
    this.pass = this.runPass().finally(() => {
      this.pass = undefined;
      if (this.again) {
        this.again = false;
        this.nudge();
      }
    });
  }

  /** A pass, started now or already under way, to its end (the sweep and tests wait for it). */
  async nudgeAndWait(): Promise<void> {
    this.nudge();
    while (this.pass) await this.pass;
  }

  private async runPass(): Promise<void> {
    clearTimeout(this.wake);
    try {
      while (!this.stopping) {
        const claimed = await this.items.claimChunkSkipLocked(this.clock.now(), BATCH_LEASE_MS);
        if (!claimed) break;
        await this.processor.process(claimed, () => this.stopping);
        await this.processor.completeIfSettled(claimed.batchId);
      }
      // Batches whose last items settled in a pass that stopped before completing them.
      if (!this.stopping) for (const id of await this.batches.listSettledButProcessing(100)) await this.processor.completeIfSettled(id);
      const next = this.stopping ? null : await this.items.nextDueAt();
      if (next) this.wakeIn(next.getTime() - this.clock.now().getTime());
    } catch (error) {
      this.logger.error({ err: error }, `Processing payment batches failed; trying again in ${FAILED_PASS_WAKE_MS / 1000} s`);
      this.wakeIn(FAILED_PASS_WAKE_MS);
    }
  }

  private wakeIn(ms: number): void {
    if (this.stopping) return;
    clearTimeout(this.wake);
    this.wake = setTimeout(() => this.nudge(), Math.min(MAX_WAKE_MS, Math.max(MIN_WAKE_MS, ms)));
    this.wake.unref();
  }
}
