import { Injectable, Logger } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { UpstreamError } from '../providers/provider-adapter';
import { askPrimaryForMetrics, contributeToClusterMetrics, metricsAreClustered } from './cluster-metrics';

export type PaymentCreateOutcome = 'created' | 'replayed' | 'failed';
export type ProviderOperation =
  'create_charge' | 'get_charge' | 'cancel_charge' | 'refund' | 'get_refund' | 'health' | 'update_charge' | 'create_charge_batch' | 'get_charge_batch';
export type DeliveryAttemptOutcome = 'delivered' | 'will_retry' | 'failed';

/** The forwards waiting to be delivered, across every merchant. */
export interface DeliveryBacklog {
  waiting: number;
  /** Age of the oldest one waiting; 0 when none waits. */
  oldestAgeSeconds: number;
}

/** The last completed money invariant check, as its gauges report it. */
export interface MoneyInvariantSummary {
  finishedAt: Date;
  mismatchesByProvider: { provider: string; count: number }[];
}

/** Latency buckets in seconds: from a fast local answer to a provider call near its timeout. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * The gateway's Prometheus series (GET /metrics). Each application instance has its own registry
 * (tests run several gateways in one process), never prom-client's global one. The delivery backlog
 * gauges are read when scraped, across every merchant: they describe the queue an operator runs, not
 * one merchant's data. The deliveries module, which owns that queue, registers how to read it
 * (setDeliveryBacklogSource); this module reads no feature's table.
 */
@Injectable()
export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly logger = new Logger('Metrics');

  readonly httpRequestDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status, with their duration.',
    labelNames: ['route', 'method', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  readonly paymentsCreated = new Counter({
    name: 'payments_created_total',
    help: 'POST /v1/payments by provider and outcome: created, replayed (same Idempotency-Key), failed.',
    labelNames: ['provider', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly providerCallDuration = new Histogram({
    name: 'provider_call_duration_seconds',
    help: 'Calls to payment providers by account, operation and outcome (ok, or the kind of failure).',
    labelNames: ['account', 'operation', 'outcome'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });

  readonly webhookIntake = new Counter({
    name: 'webhook_intake_total',
    help: 'Provider events received at /webhooks/:provider, by provider and result.',
    labelNames: ['provider', 'result'] as const,
    registers: [this.registry],
  });

  readonly deliveryAttempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Attempts to deliver a forward to a merchant, by outcome: delivered, will_retry, failed (for good).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  readonly routingAttempts = new Counter({
    name: 'routing_attempts_total',
    help: 'Accounts tried by payment creates, by account (its id, or the provider for a built-in account) and outcome: charged, refused, circuit_open, ambiguous, rejected.',
    labelNames: ['account', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly routingFallbacks = new Counter({
    name: 'routing_fallbacks_total',
    help: "Creates that moved on from an account to the next one in the merchant's list, by the account left.",
    labelNames: ['account'] as const,
    registers: [this.registry],
  });

  /** 0 closed, 1 half-open, 2 open; set when a breaker changes state (this process's breakers). */
  readonly routingCircuitState = new Gauge({
    name: 'routing_circuit_state',
    help: "State of each provider account's circuit breaker in this process: 0 closed, 1 half-open, 2 open.",
    labelNames: ['account'] as const,
    // With several workers, each has its own breakers: the worst state any of them holds.
    aggregator: 'max',
    registers: [this.registry],
  });

  /** Refreshed by the orphan job on each run. */
  readonly routingOrphansPending = new Gauge({
    name: 'routing_orphan_cancellations_pending',
    help: 'Charges left at a PSP by an ambiguous attempt that the orphan job has yet to settle (cancel, or find absent or paid).',
    // Read from the database by every worker's job: one count, not one per worker.
    aggregator: 'max',
    registers: [this.registry],
  });

  readonly routingOrphansSettled = new Counter({
    name: 'routing_orphans_settled_total',
    help: 'Orphan charges settled by the orphan job, by result: cancelled, absent, paid (the payer paid: refund it), failed (gave up).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  /** Money received after close (docs/api.md, States): a Pix the PSP reported for a cancelled or expired payment, once per payment. */
  readonly paidAfterClose = new Counter({
    name: 'payments_paid_after_close_total',
    help: 'Payments paid by a Pix received after they were cancelled or expired (money to refund), by provider.',
    labelNames: ['provider'] as const,
    registers: [this.registry],
  });

  /** Recurring charges that reached an outcome (docs/recurrences.md): paid, failed, retrying, cancelled, expired. */
  readonly recurringChargeOutcomes = new Counter({
    name: 'recurring_charge_outcomes_total',
    help: 'Recurring charges (Pix Automático) by provider and the outcome they reached: paid, failed, retrying, cancelled, expired.',
    labelNames: ['provider', 'outcome'] as const,
    registers: [this.registry],
  });

  /** Runs of the money invariant check (docs/operations.md, Money invariant check) this process carried out, by outcome. */
  readonly moneyInvariantChecks = new Counter({
    name: 'money_invariant_checks_total',
    help: 'Runs of the money invariant check by outcome: clean (no mismatch), mismatches (at least one), failed (ended early: an error, a shutdown, abandoned).',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  /** Where the money invariant gauges read the last completed run from (the reconciliation module registers it). */
  private moneyInvariantSource?: () => Promise<MoneyInvariantSummary | null>;
  /** One read per scrape, shared by the two gauges that report it. */
  private moneyInvariantRead?: Promise<MoneyInvariantSummary | null>;

  /** Where the recurrences gauge reads from (the recurrences module registers it). */
  private recurrenceCountSource?: () => Promise<{ status: string; count: number }[]>;

  /** Where the backlog gauges read from; until one is registered they stay at 0. */
  private backlogSource?: () => Promise<DeliveryBacklog>;
  /** One backlog read per scrape, shared by the two gauges that report it. */
  private backlogRead?: Promise<DeliveryBacklog | null>;

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    contributeToClusterMetrics(this.registry);
    const readBacklog = () => this.readBacklog();
    new Gauge({
      name: 'webhook_deliveries_waiting',
      help: 'Forwards not yet delivered nor failed for good (status pending), across all merchants.',
      // Every worker reads the same table: with several, one value, not their sum.
      aggregator: 'max',
      registers: [this.registry],
      async collect() {
        const backlog = await readBacklog();
        if (backlog) this.set(backlog.waiting);
      },
    });
    const readRecurrences = () => this.recurrenceCountSource?.().catch(() => null) ?? Promise.resolve(null);
    new Gauge({
      name: 'recurrences',
      help: 'Recurrences (Pix Automático authorizations) by status, across all merchants.',
      labelNames: ['status'] as const,
      aggregator: 'max',
      registers: [this.registry],
      async collect() {
        const counts = await readRecurrences();
        if (!counts) return;
        this.reset();
        for (const { status, count } of counts) this.set({ status }, count);
      },
    });
    const readMoneyInvariant = () => this.readMoneyInvariant();
    new Gauge({
      name: 'money_invariant_mismatches',
      help: 'Mismatches the last completed money invariant check found (payments whose PSP and gateway disagree on money), by provider.',
      labelNames: ['provider'] as const,
      // Every process reads the same last run from the database: one value, not their sum.
      aggregator: 'max',
      registers: [this.registry],
      async collect() {
        const summary = await readMoneyInvariant();
        if (!summary) return;
        this.reset();
        for (const { provider, count } of summary.mismatchesByProvider) this.set({ provider }, count);
      },
    });
    new Gauge({
      name: 'money_invariant_last_completed_timestamp_seconds',
      help: 'When the last money invariant check that read every payment of its window finished (Unix time); absent before the first.',
      aggregator: 'max',
      registers: [this.registry],
      async collect() {
        const summary = await readMoneyInvariant();
        if (summary) this.set(summary.finishedAt.getTime() / 1000);
      },
    });
    new Gauge({
      name: 'webhook_deliveries_oldest_waiting_age_seconds',
      help: 'Age of the oldest forward still waiting to be delivered (0 when none waits).',
      aggregator: 'max',
      registers: [this.registry],
      async collect() {
        const backlog = await readBacklog();
        if (backlog) this.set(backlog.oldestAgeSeconds);
      },
    });
  }

  /** Reads recurrences per status for the `recurrences` gauge at each scrape. */
  setRecurrenceCountSource(source: () => Promise<{ status: string; count: number }[]>): void {
    this.recurrenceCountSource = source;
  }

  /** Reads the delivery backlog for the two backlog gauges at each scrape (the deliveries module registers it). */
  setDeliveryBacklogSource(source: () => Promise<DeliveryBacklog>): void {
    this.backlogSource = source;
  }

  /** Reads the last completed money invariant check for its gauges at each scrape (the reconciliation module registers it). */
  setMoneyInvariantSource(source: () => Promise<MoneyInvariantSummary | null>): void {
    this.moneyInvariantSource = source;
  }

  /** The exposition text, and its content type: with WORKERS > 1, every worker's series summed (./cluster-metrics.ts). */
  async scrape(): Promise<{ contentType: string; body: string }> {
    const body = metricsAreClustered() ? await askPrimaryForMetrics() : await this.registry.metrics();
    return { contentType: this.registry.contentType, body };
  }

  /** Times `call` as one provider call of `account`; the outcome is `ok`, the upstream failure's kind (timeout, network, http, malformed), or `error`. */
  async timeProviderCall<T>(account: string, operation: ProviderOperation, call: () => Promise<T>): Promise<T> {
    const end = this.providerCallDuration.startTimer({ account, operation });
    try {
      const result = await call();
      end({ outcome: 'ok' });
      return result;
    } catch (error) {
      end({ outcome: error instanceof UpstreamError ? error.kind : 'error' });
      throw error;
    }
  }

  private readMoneyInvariant(): Promise<MoneyInvariantSummary | null> {
    const source = this.moneyInvariantSource;
    if (!source) return Promise.resolve(null);
    this.moneyInvariantRead ??= source()
      .catch((error: unknown) => {
        this.logger.warn({ err: error }, 'Could not read the last money invariant check for /metrics');
        return null;
      })
      .finally(() => (this.moneyInvariantRead = undefined));
    return this.moneyInvariantRead;
  }

  private readBacklog(): Promise<DeliveryBacklog | null> {
    const source = this.backlogSource;
    if (!source) return Promise.resolve(null);
    this.backlogRead ??= source()
      .catch((error: unknown) => {
        // A scrape still answers (process and HTTP series) when the database does not.
        this.logger.warn({ err: error }, 'Could not read the delivery backlog for /metrics');
        return null;
      })
      .finally(() => (this.backlogRead = undefined));
    return this.backlogRead;
  }
}
