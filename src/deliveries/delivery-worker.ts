import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { Clock } from '../domain/clock';
import { PeriodicJob } from '../common/jobs/periodic-job';
import { DELIVERIES, ShutdownProgress } from '../common/lifecycle/shutdown-progress';
import { within } from '../common/timeout';
import { AppConfig } from '../config/app-config';
import { GatewayMetrics } from '../metrics/gateway-metrics';
import { defaultRetryPolicy, RetryPolicy } from '../domain/retry-schedule';
import type { DeliveryNudge } from './delivery-nudge';
import { AttemptOutcome, AttemptResult, decideOutcome } from './attempt-outcome';
import { DeliverySender } from './delivery-sender';
import { ClaimedDelivery, RecordedAttempt, WebhookDeliveryRepository } from './webhook-delivery.repository';

/** Most attempts recorded by one statement. */
const MAX_RECORD_BATCH = 256;

interface QueuedRecord {
  attempt: RecordedAttempt;
  done: (current: boolean) => void;
  failed: (error: unknown) => void;
}

/**
 * Sends queued forwards to merchants (docs/architecture.md, A delivery). Every DELIVERY_POLL_MS, and at once when
 * intake nudges it after a commit, it claims due deliveries (WebhookDeliveryRepository.claimDueSkipLocked),
 * posts each with at most DELIVERY_CONCURRENCY in flight, and records the attempt
 * (recordAttemptsIfLeaseHeld). DELIVERY_POLL_MS=0 turns the worker off in this process (another
 * process, or a later start, delivers).
 *
 * Which deliveries are due, and when a failed one is due again, is the injected Clock's time (so
 * tests move the retry schedule by hand); leases are the database's time.
 *
 * Guarantees come from the database, not from this object: a delivery is sent only by the process
 * holding its lease, and one that crashed mid-attempt is retried by whoever claims it after the
 * lease lapses, so every forward arrives at least once. Merchants deduplicate by `webhook-id`.
 */
@Injectable()
export class DeliveryWorker implements DeliveryNudge, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('DeliveryWorker');
  private readonly policy: RetryPolicy;
  /** The poll, with the lifecycle every background job shares; a nudge claims at once in between. */
  private readonly poll: PeriodicJob;
  private running = false;
  /** Attempts whose POST is under way: DELIVERY_CONCURRENCY bounds these. */
  private readonly inFlight = new Set<Promise<void>>();
  /** Attempts answered and waiting for their group commit; they no longer hold a slot. */
  private readonly unrecorded = new Set<Promise<void>>();
  private claiming?: Promise<void>;
  /** Set when there may be due work that has not been claimed yet (a nudge, a tick, a full claim). */
  private wanted = false;
  /** Finished attempts waiting for the statement in progress to end, to be recorded by the next one. */
  private toRecord: QueuedRecord[] = [];
  private recording?: Promise<void>;
  private recordScheduled = false;
  /** Set when shutdown stopped waiting: attempts still unfinished are left to their lease. */
  private abandoned = false;

  constructor(
    private readonly config: AppConfig,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly clock: Clock,
    private readonly metrics: GatewayMetrics,
    // The signed POST through the URL policy and the gateway's one transport.
    private readonly sender: DeliverySender,
    // Absent where a spec builds the worker alone: it then waits SHUTDOWN_TIMEOUT_MS from its own stop.
    @Optional() private readonly shutdown?: ShutdownProgress,
  ) {
    this.policy = defaultRetryPolicy(config.deliveryRetryScheduleMs);
    this.poll = new PeriodicJob({ name: 'Delivery poll', intervalMs: config.deliveryPollMs, logger: this.logger, run: () => this.nudge(), runAtStart: true });
    shutdown?.track(DELIVERIES, () => this.inFlight.size + this.unrecorded.size);
  }

  onApplicationBootstrap(): void {
    if (this.config.deliveryPollMs <= 0) return;
    this.running = true;
    this.poll.start();
  }

  /**
   * Stops claiming (it claims nothing new once SIGTERM came), then lets attempts in flight finish
   * and be recorded until the time shutdown leaves for work (ShutdownProgress), or for
   * SHUTDOWN_TIMEOUT_MS without one. An attempt still unfinished then keeps its lease in the
   * database and is sent again by whichever process claims it after the lease lapses (merchants
   * deduplicate by `webhook-id`), so stopping early loses nothing.
   */
  async beforeApplicationShutdown(): Promise<void> {
    this.running = false;
    await this.poll.stop();
    const drained = (async () => {
      await this.claiming;
      await Promise.allSettled([...this.inFlight]);
      await Promise.allSettled([...this.unrecorded]);
      return 'drained' as const;
    })();
    const waitMs = this.shutdown?.begun ? this.shutdown.workMsLeft() : this.config.shutdownTimeoutMs;
    const result = await within(drained, waitMs, () => 'timeout' as const);
    if (result === 'timeout') {
      const unfinished = this.inFlight.size + this.unrecorded.size;
      this.logger.warn({ in_flight: unfinished }, `${unfinished} delivery attempt(s) still in flight at shutdown; they are retried when their lease lapses`);
      this.shutdown?.giveUp(DELIVERIES, unfinished);
      this.abandoned = true;
    }
  }

  /** Look for due deliveries now. Returns at once and never throws (intake calls it after committing). */
  nudge(): void {
    this.wanted = true;
    this.claimMore();
  }

  /**
   * Claims as many deliveries as there are free slots. While others are in flight it waits for a
   * quarter of the slots to be free, so a busy worker claims in batches rather than one statement
   * per finished attempt; an idle worker claims at once. While a whole batch of answered attempts
   * waits to be recorded, it claims nothing more: the database is behind, and the leases of what
   * is waiting must not lapse.
   */
  private claimMore(): void {
    if (!this.running || this.shutdown?.begun || this.claiming || !this.wanted) return;
    if (this.unrecorded.size >= MAX_RECORD_BATCH) return; // a finished recording calls back here
    const free = this.config.deliveryConcurrency - this.inFlight.size;
    if (free <= 0 || (this.inFlight.size > 0 && free < Math.ceil(this.config.deliveryConcurrency / 4))) return; // a finishing attempt calls back here
    this.wanted = false;
    this.claiming = this.deliveries
      .claimDueSkipLocked(free, this.config.deliveryLeaseMs, this.clock.now())
      .then((claims) => {
        for (const claim of claims) this.start(claim);
        // A full batch suggests more is due; claim again as soon as there is room.
        if (claims.length === free) this.wanted = true;
      })
      .catch((error: unknown) => this.logger.error({ err: error }, 'Claiming deliveries failed; trying again on the next poll'))
      .finally(() => {
        this.claiming = undefined;
        this.claimMore();
      });
  }

  /**
   * A slot is held while the POST is under way, not while its attempt is recorded: the group
   * commit runs behind the sends, and the lease keeps the delivery this process's until then.
   */
  private start(claim: ClaimedDelivery): void {
    const task = this.send(claim)
      .then((answered) => {
        if (answered) this.settle(answered);
      })
      .catch((error: unknown) => this.logger.error({ err: error, delivery_id: claim.id }, 'A delivery attempt failed; it is retried when its lease lapses'))
      .finally(() => {
        this.inFlight.delete(task);
        this.claimMore();
      });
    this.inFlight.add(task);
  }

  /** One POST and what it decides; null when shutdown stopped waiting meanwhile (the lease decides then). */
  private async send(claim: ClaimedDelivery): Promise<RecordedAttempt | null> {
    const attempt = claim.attempts + 1;
    // The real time, not the Clock's: it is the signature's timestamp, which the merchant checks against its own clock.
    const attemptedAt = new Date();
    const result = await this.sender.send(claim, attemptedAt);
    if (this.abandoned) return null;
    const outcome = decideOutcome(attempt, result, this.policy, this.clock.now());
    return { claim, attempt, attemptedAt, url: claim.webhookUrl, result, outcome };
  }

  /** Records an answered attempt (group commit), then counts and logs it. */
  private settle(answered: RecordedAttempt): void {
    const { claim, attempt, result, outcome } = answered;
    // Counted once recorded (or once recording failed), never before: a scrape that sees an
    // attempt counted sees its delivery's new state in the backlog gauges too.
    const count = () => this.metrics.deliveryAttempts.inc({ outcome: outcome.status === 'pending' ? 'will_retry' : outcome.status });
    const task = this.record(answered)
      .then(
        (current) => {
          count();
          if (!current) this.logger.warn({ delivery_id: claim.id, attempt }, 'Lease lapsed during the attempt; another process owns this delivery now');
          else this.logAttempt(claim, attempt, result, outcome);
        },
        (error: unknown) => {
          count();
          this.logger.error({ err: error, delivery_id: claim.id }, 'Recording a delivery attempt failed; it is retried when its lease lapses');
        },
      )
      .finally(() => {
        this.unrecorded.delete(task);
        this.claimMore();
      });
    this.unrecorded.add(task);
  }

  /**
   * A failed attempt is a warning with what an operator needs to act: which delivery, payment and
   * merchant, the event, the attempt, the merchant's status or our error, and when it is tried again
   * (or that it failed for good). A delivered attempt is debug: it is the normal case, one per
   * payment event, and the access line of the request that caused it is already at info.
   */
  private logAttempt(claim: ClaimedDelivery, attempt: number, result: AttemptResult, outcome: AttemptOutcome): void {
    const fields = {
      delivery_id: claim.id,
      payment_id: claim.paymentId,
      recurrence_id: claim.recurrenceId,
      batch_id: claim.batchId,
      merchant_id: claim.merchantId,
      event_type: claim.eventType,
      attempt,
      status_code: result.statusCode,
      latency_ms: result.latencyMs,
    };
    if (outcome.status === 'delivered') {
      this.logger.debug(fields, `Webhook ${claim.eventType} delivered to merchant ${claim.merchantId} (attempt ${attempt}, HTTP ${result.statusCode})`);
      return;
    }
    const reason = outcome.error ?? (result.statusCode !== null ? `HTTP ${result.statusCode}` : 'no answer');
    if (outcome.status === 'failed') {
      this.logger.warn({ ...fields, error: reason, next_attempt_at: null }, `Webhook ${claim.eventType} for ${subjectOf(claim)} failed for good at attempt ${attempt}: ${reason}`);
      return;
    }
    const next = new Date(this.clock.now().getTime() + (outcome.retryInMs ?? 0)).toISOString();
    this.logger.warn(
      { ...fields, error: reason, next_attempt_at: next },
      `Webhook ${claim.eventType} for ${subjectOf(claim)} failed (attempt ${attempt}: ${reason}); retrying at ${next}`,
    );
  }

  /**
   * Group commit: finished attempts are recorded together, by one statement per batch. A batch
   * is taken on the event loop turn after an attempt finishes (setImmediate), so every response
   * that arrived meanwhile is in it; and while a statement runs, newly finished attempts wait for
   * the next. This matters most on the embedded database, whose queries run on this very thread:
   * no response is read while one runs. Resolves with whether the lease still held.
   */
  private record(attempt: RecordedAttempt): Promise<boolean> {
    return new Promise((done, failed) => {
      this.toRecord.push({ attempt, done, failed });
      this.scheduleRecording();
    });
  }

  private scheduleRecording(): void {
    if (this.recording || this.recordScheduled || this.toRecord.length === 0) return;
    this.recordScheduled = true;
    setImmediate(() => {
      this.recordScheduled = false;
      this.flushRecords();
    });
  }

  private flushRecords(): void {
    if (this.recording || this.toRecord.length === 0) return;
    const batch = this.toRecord.splice(0, MAX_RECORD_BATCH);
    this.recording = this.deliveries
      .recordAttemptsIfLeaseHeld(
        batch.map((queued) => queued.attempt),
        this.clock.now(),
      )
      .then(
        (current) => batch.forEach((queued) => queued.done(current.has(queued.attempt.claim.id))),
        (error: unknown) => batch.forEach((queued) => queued.failed(error)),
      )
      .finally(() => {
        this.recording = undefined;
        this.scheduleRecording();
      });
  }
}

/** What a delivery's event is about, for log lines: `payment pay_…`, `recurrence rec_…` or `batch bat_…`. */
function subjectOf(claim: ClaimedDelivery): string {
  if (claim.paymentId) return `payment ${claim.paymentId}`;
  return claim.recurrenceId ? `recurrence ${claim.recurrenceId}` : `batch ${claim.batchId}`;
}
