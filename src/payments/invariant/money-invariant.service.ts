import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { randomBase62 } from '../../common/ids';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-codes';
import { AppConfig } from '../../config/app-config';
import { Clock } from '../../domain/clock';
import { GatewayMetrics } from '../../metrics/gateway-metrics';
import type { ProviderCharge } from '../../providers/provider-adapter';
import { AccountResolver } from '../../providers/provider-accounts/account-resolver';
import { AccountUnusableError } from '../../providers/provider-errors';
import { invariantCheckView, type InvariantCheckView } from './dto/invariant-check.view';
import type { InvariantCheck, InvariantCheckTrigger } from './invariant-check.entity';
import { InvariantCheckRepository, type InvariantCheckCounts, type NewInvariantMismatch } from './invariant-check.repository';
import { compareMoney, type InvariantVerdict, type PspMoney } from './money-invariant';
import { PaymentMoneyRepository, type PaymentMoney, type WindowCursor } from './payment-money.repository';

/** Payments read from the database at once. */
const BATCH_SIZE = 100;
/** PSP reads in flight at once: the check is a background chore, never a load on the PSPs. */
const CONCURRENCY = 4;
/** How long a run holds the check without renewing; renewed every HEARTBEAT_MS while it works. */
export const INVARIANT_LEASE_MS = 120_000;
const HEARTBEAT_MS = 30_000;
/** Finished runs (and their lines) are kept this long. */
const KEEP_MS = 90 * 24 * 3600 * 1000;
/** Lines a view carries at most. */
const LINES_SHOWN = 500;
const DAY_MS = 24 * 3600 * 1000;

export type InvariantCheckOutcome = 'clean' | 'mismatches' | 'failed';

/**
 * The money invariant check (docs/operations.md, Money invariant check): every payment of the
 * window is read back from its PSP through the account that charged it, and what the PSP says came
 * in and went back is compared with what the gateway recorded (compareMoney). Each run and each
 * mismatch is stored; the dashboard's overview and a gauge show the last ones.
 *
 * One run at a time across every process (the database decides: InvariantCheckRepository), one
 * daily run per day. No transaction or connection is held across a PSP call: payments are read a
 * page at a time, the PSP asked with a bounded concurrency, and what was found written afterwards.
 */
@Injectable()
export class MoneyInvariantService implements BeforeApplicationShutdown {
  private readonly logger = new Logger('MoneyInvariant');
  /** The run this process is carrying out, if any. */
  private inProgress?: Promise<InvariantCheck | null>;
  private stopping = false;

  constructor(
    private readonly checks: InvariantCheckRepository,
    private readonly money: PaymentMoneyRepository,
    private readonly accounts: AccountResolver,
    private readonly metrics: GatewayMetrics,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    metrics.setMoneyInvariantSource(() => this.checks.lastCompleted());
  }

  /** An operator's run: started now, carried out in the background. CONFLICT while another runs, in any process. */
  async start(): Promise<InvariantCheckView> {
    const check = await this.claim('operator', null);
    if (!check) {
      const running = await this.checks.running();
      throw new AppError(ErrorCode.CONFLICT, {
        message: running
          ? `An invariant check is already running: ${running.id}, started at ${running.startedAt.toISOString()}. Wait for it to finish.`
          : 'An invariant check is already running. Wait for it to finish.',
      });
    }
    void this.carryOut(check);
    return invariantCheckView(check, []);
  }

  /**
   * The daily run, from the job's ticks: once the day (UTC) reaches INVARIANT_CHECK_HOUR, the first
   * process to claim the day runs it, to the end; null when it is not due or is someone else's.
   */
  async runDaily(): Promise<InvariantCheck | null> {
    const now = this.clock.now();
    if (now.getUTCHours() < this.config.invariantCheckHour || this.stopping) return null;
    const day = now.toISOString().slice(0, 10);
    if (await this.checks.hasDailyRun(day)) return null;
    const check = await this.claim('daily', day);
    return check ? this.carryOut(check) : null;
  }

  /** The last run started, with the lines it found; NOT_FOUND before the first. */
  async latest(): Promise<InvariantCheckView> {
    const check = await this.checks.latest();
    if (!check) throw AppError.notFound('No invariant check has run yet.');
    return invariantCheckView(check, await this.checks.linesOf(check.id, LINES_SHOWN));
  }

  /** Resolves when the run this process is carrying out (if any) has ended. */
  async whenIdle(): Promise<void> {
    await this.inProgress;
  }

  /** Shutdown: the run in progress stops after the payments in hand, is recorded as stopped, and its day (if daily) is run again later. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.inProgress;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  private async claim(trigger: InvariantCheckTrigger, dailyOn: string | null): Promise<InvariantCheck | null> {
    for (const abandoned of await this.checks.closeAbandoned()) {
      this.metrics.moneyInvariantChecks.inc({ outcome: 'failed' });
      this.logger.warn({ check_id: abandoned.id }, `Invariant check ${abandoned.id} was abandoned by its process; closed.`);
    }
    return this.checks.insertUnlessRunning({
      id: `ick_${randomBase62(24)}`,
      trigger,
      dailyOn,
      windowStart: new Date(this.clock.now().getTime() - this.config.invariantCheckDays * DAY_MS),
      leaseMs: INVARIANT_LEASE_MS,
    });
  }

  private carryOut(check: InvariantCheck): Promise<InvariantCheck | null> {
    const run = this.execute(check).catch((error: unknown) => {
      this.logger.error({ err: error, check_id: check.id }, `Invariant check ${check.id} could not be recorded as finished.`);
      return null;
    });
    this.inProgress = run.finally(() => (this.inProgress = undefined));
    return run;
  }

  private async execute(check: InvariantCheck): Promise<InvariantCheck | null> {
    const counts: InvariantCheckCounts = { checked: 0, mismatches: 0, unverifiable: 0, failed: 0 };
    let lost = false;
    const heartbeat = setInterval(() => {
      this.checks.renewLeaseIfRunning(check.id, INVARIANT_LEASE_MS).then(
        (held) => (lost ||= !held),
        (error: unknown) => this.logger.warn({ err: error, check_id: check.id }, 'Could not renew the invariant check lease; trying again.'),
      );
    }, HEARTBEAT_MS);
    heartbeat.unref();
    const goOn = () => !lost && !this.stopping;
    let error: string | null = null;
    try {
      const pendingBefore = new Date(this.clock.now().getTime() - this.config.reconcileAfterSeconds * 1000);
      let cursor: WindowCursor | null = null;
      do {
        const page = await this.money.pageCreatedSince(check.windowStart, pendingBefore, cursor, BATCH_SIZE);
        await this.checkBatch(check, page.payments, counts, goOn);
        cursor = page.next;
      } while (cursor && goOn());
      let afterId = '';
      while (goOn()) {
        const older = await this.money.pageOlderWithRefundsSince(check.windowStart, afterId, BATCH_SIZE);
        await this.checkBatch(check, older, counts, goOn);
        if (older.length < BATCH_SIZE) break;
        afterId = older.at(-1)!.id;
      }
    } catch (failure) {
      error = `Failed: ${failure instanceof Error ? failure.message : String(failure)}`;
      this.logger.error({ err: failure, check_id: check.id }, `Invariant check ${check.id} failed after ${counts.checked} payments.`);
    } finally {
      clearInterval(heartbeat);
    }
    if (this.stopping && !error) error = 'Stopped: the gateway shut down before the run read every payment.';
    if (lost) {
      this.logger.warn({ check_id: check.id }, `Invariant check ${check.id} lost its lease; another process closed it.`);
      return null;
    }
    const finished = await this.checks.finish(check.id, counts, { error, freeDay: this.stopping });
    const outcome: InvariantCheckOutcome = error ? 'failed' : counts.mismatches > 0 ? 'mismatches' : 'clean';
    this.metrics.moneyInvariantChecks.inc({ outcome });
    const summary = `Invariant check ${check.id}: ${counts.checked} payments compared, ${counts.mismatches} mismatches, ${counts.unverifiable} unverifiable, ${counts.failed} could not be read`;
    if (outcome === 'mismatches') this.logger.warn({ check_id: check.id, ...counts }, summary);
    else this.logger.log({ check_id: check.id, ...counts }, summary);
    await this.checks.deleteFinishedBefore(new Date(this.clock.now().getTime() - KEEP_MS)).catch((failure: unknown) => {
      this.logger.warn({ err: failure }, 'Could not delete old invariant checks; trying after the next run.');
    });
    return finished;
  }

  /** One page: each payment compared with its PSP, CONCURRENCY at a time, then the page's lines and the tallies stored. */
  private async checkBatch(check: InvariantCheck, payments: PaymentMoney[], counts: InvariantCheckCounts, goOn: () => boolean): Promise<void> {
    const lines: NewInvariantMismatch[] = [];
    let next = 0;
    const worker = async () => {
      while (next < payments.length && goOn()) {
        const payment = payments[next++]!;
        try {
          lines.push(...(await this.checkOne(payment, counts)));
        } catch (error) {
          // One payment that cannot be compared never holds up the rest of the run.
          counts.failed++;
          this.logger.warn({ err: error, payment_id: payment.id, check_id: check.id }, `Invariant check: payment ${payment.id} could not be compared.`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, payments.length) }, worker));
    counts.mismatches += lines.length;
    await this.checks.recordProgress(check.id, counts, lines);
  }

  private async checkOne(payment: PaymentMoney, counts: InvariantCheckCounts): Promise<NewInvariantMismatch[]> {
    let charge: ProviderCharge;
    try {
      // Read back through the account that charged it (its credentials), as reconciliation does.
      const acting = await this.accounts.forPayment(payment);
      charge = await this.metrics.timeProviderCall(acting.metricsLabel, 'get_charge', () =>
        acting.adapter.getCharge(acting.account, { providerPaymentId: payment.providerPaymentId, txid: payment.txid, due: payment.due !== null }),
      );
    } catch (error) {
      if (error instanceof AccountUnusableError && error.reason === 'provider_unavailable') {
        // Nothing here can read it (its provider does not run on this gateway): unverifiable, not a failure.
        counts.unverifiable++;
        return [];
      }
      counts.failed++;
      this.logger.warn({ err: error, payment_id: payment.id }, `Invariant check: could not read payment ${payment.id} back from ${payment.provider}.`);
      return [];
    }
    counts.checked++;
    const psp: PspMoney = { status: charge.status, amountCents: charge.amountCents, paidAmountCents: charge.pix?.paidAmountCents ?? null, refunds: charge.refunds };
    let gateway = payment;
    let verdict: InvariantVerdict = compareMoney(gateway, psp);
    if (verdict.lines.length > 0) {
      // A callback may have brought the gateway up to date while the PSP was asked: only what still differs counts.
      gateway = (await this.money.find(payment.id)) ?? payment;
      verdict = compareMoney(gateway, psp);
    }
    if (verdict.unverifiable.length > 0) counts.unverifiable++;
    return verdict.lines.map((line) => ({
      paymentId: gateway.id,
      merchantId: gateway.merchantId,
      provider: gateway.provider,
      providerAccountId: gateway.providerAccountId,
      field: line.field,
      gatewayStatus: gateway.status,
      pspStatus: charge.status,
      gatewayCents: line.gatewayCents,
      pspCents: line.pspCents,
      note: line.note,
    }));
  }
}
