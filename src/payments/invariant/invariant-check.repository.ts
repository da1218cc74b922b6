import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { hydrate, sqlRows } from '../../database/sql';
import { InvariantCheck, InvariantCheckTrigger, InvariantMismatch } from './invariant-check.entity';

/** A run's tallies so far. */
export interface InvariantCheckCounts {
  checked: number;
  mismatches: number;
  unverifiable: number;
  failed: number;
}

export type NewInvariantMismatch = Omit<InvariantMismatch, 'checkId' | 'createdAt'>;

/** The check's columns, `daily_on` as its text (a `date` would otherwise come back as a Date at the process's local midnight). */
const CHECK_COLUMNS = `id, trigger, daily_on::text AS daily_on, window_start, started_at, lease_until, finished_at, checked, mismatches, unverifiable, failed, error`;

/**
 * Every query of `invariant_checks` and `invariant_mismatches`. Which run holds the check is decided
 * by the database: an INSERT that a unique index lets through (one unfinished run; one daily run per
 * day), and leases on the database's clock, which every process shares.
 */
@Injectable()
export class InvariantCheckRepository {
  constructor(
    @InjectRepository(InvariantCheck) private readonly checks: Repository<InvariantCheck>,
    @InjectRepository(InvariantMismatch) private readonly lines: Repository<InvariantMismatch>,
  ) {}

  /**
   * Closes runs whose lease lapsed: their process died or stalled. A daily one gives its day back,
   * so the day is checked again. Returns the runs closed.
   */
  async closeAbandoned(): Promise<InvariantCheck[]> {
    const rows = await sqlRows<Record<string, unknown>>(
      this.checks.manager,
      `UPDATE invariant_checks
          SET finished_at = now(), daily_on = NULL,
              error = 'Abandoned: the process running it stopped renewing its lease (it crashed or stalled).'
        WHERE finished_at IS NULL AND lease_until < now()
        RETURNING ${CHECK_COLUMNS}`,
    );
    return rows.map((row) => hydrate(this.checks.manager, InvariantCheck, row));
  }

  /**
   * Starts a run unless one is running (any process) or, for a daily one, the day already has its
   * run: the unique indexes let exactly one INSERT through. Null when another holds it.
   */
  async insertUnlessRunning(run: { id: string; trigger: InvariantCheckTrigger; dailyOn: string | null; windowStart: Date; leaseMs: number }): Promise<InvariantCheck | null> {
    const [row] = await sqlRows<Record<string, unknown>>(
      this.checks.manager,
      `INSERT INTO invariant_checks (id, trigger, daily_on, window_start, started_at, lease_until)
       VALUES ($1, $2, $3::date, $4, now(), now() + $5 * interval '1 millisecond')
       ON CONFLICT DO NOTHING
       RETURNING ${CHECK_COLUMNS}`,
      [run.id, run.trigger, run.dailyOn, run.windowStart, run.leaseMs],
    );
    return row ? hydrate(this.checks.manager, InvariantCheck, row) : null;
  }

  /** The run in progress, if any. */
  async running(): Promise<InvariantCheck | null> {
    const [row] = await sqlRows<Record<string, unknown>>(this.checks.manager, `SELECT ${CHECK_COLUMNS} FROM invariant_checks WHERE finished_at IS NULL`);
    return row ? hydrate(this.checks.manager, InvariantCheck, row) : null;
  }

  /** Whether the day (YYYY-MM-DD) has its daily run, running or done. */
  async hasDailyRun(day: string): Promise<boolean> {
    const rows = await sqlRows(this.checks.manager, `SELECT 1 FROM invariant_checks WHERE daily_on = $1::date`, [day]);
    return rows.length > 0;
  }

  /** Extends the run's lease; false once it is no longer running (closed as abandoned by another process). */
  async renewLeaseIfRunning(id: string, leaseMs: number): Promise<boolean> {
    const rows = await sqlRows(
      this.checks.manager,
      `UPDATE invariant_checks SET lease_until = now() + $2 * interval '1 millisecond' WHERE id = $1 AND finished_at IS NULL RETURNING id`,
      [id, leaseMs],
    );
    return rows.length > 0;
  }

  /** Stores a batch's lines and the run's tallies so far, in one statement. */
  async recordProgress(id: string, counts: InvariantCheckCounts, lines: NewInvariantMismatch[]): Promise<void> {
    const column = <K extends keyof NewInvariantMismatch>(key: K) => lines.map((line) => line[key]);
    await sqlRows(
      this.checks.manager,
      `WITH lines AS (
         INSERT INTO invariant_mismatches (check_id, payment_id, merchant_id, provider, provider_account_id, field, gateway_status, psp_status, gateway_cents, psp_cents, note)
         SELECT $1, * FROM unnest($6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::bigint[], $14::bigint[], $15::text[])
         ON CONFLICT DO NOTHING
       )
       UPDATE invariant_checks SET checked = $2, mismatches = $3, unverifiable = $4, failed = $5 WHERE id = $1`,
      [
        id,
        counts.checked,
        counts.mismatches,
        counts.unverifiable,
        counts.failed,
        column('paymentId'),
        column('merchantId'),
        column('provider'),
        column('providerAccountId'),
        column('field'),
        column('gatewayStatus'),
        column('pspStatus'),
        column('gatewayCents'),
        column('pspCents'),
        column('note'),
      ],
    );
  }

  /**
   * Ends the run with its tallies. `error` says why it ended early; with `freeDay` (a run stopped at
   * shutdown), a daily run gives its day back to be run again. Null if it had been closed already.
   */
  async finish(id: string, counts: InvariantCheckCounts, ending: { error: string | null; freeDay: boolean }): Promise<InvariantCheck | null> {
    const [row] = await sqlRows<Record<string, unknown>>(
      this.checks.manager,
      `UPDATE invariant_checks
          SET finished_at = now(), checked = $2, mismatches = $3, unverifiable = $4, failed = $5, error = $6,
              daily_on = CASE WHEN $7 THEN NULL ELSE daily_on END
        WHERE id = $1 AND finished_at IS NULL
        RETURNING ${CHECK_COLUMNS}`,
      [id, counts.checked, counts.mismatches, counts.unverifiable, counts.failed, ending.error, ending.freeDay],
    );
    return row ? hydrate(this.checks.manager, InvariantCheck, row) : null;
  }

  /** The last run started, finished or not. */
  async latest(): Promise<InvariantCheck | null> {
    const [row] = await sqlRows<Record<string, unknown>>(this.checks.manager, `SELECT ${CHECK_COLUMNS} FROM invariant_checks ORDER BY started_at DESC, id DESC LIMIT 1`);
    return row ? hydrate(this.checks.manager, InvariantCheck, row) : null;
  }

  /** A run's lines, by payment then field, at most `limit`. */
  linesOf(checkId: string, limit: number): Promise<InvariantMismatch[]> {
    return this.lines.find({ where: { checkId }, order: { createdAt: 'ASC', paymentId: 'ASC', field: 'ASC' }, take: limit });
  }

  /**
   * The last run that went through (none ended early), and its lines per provider: what the
   * mismatch gauge reports. A run cut short covers only part of the window, so it does not count.
   */
  async lastCompleted(): Promise<{ finishedAt: Date; mismatchesByProvider: { provider: string; count: number }[] } | null> {
    const rows = await sqlRows<{ finished_at: Date; provider: string | null; count: string }>(
      this.checks.manager,
      `WITH last AS (SELECT id, finished_at FROM invariant_checks WHERE finished_at IS NOT NULL AND error IS NULL ORDER BY started_at DESC, id DESC LIMIT 1)
       SELECT last.finished_at, m.provider, count(m.payment_id) AS count
         FROM last LEFT JOIN invariant_mismatches m ON m.check_id = last.id
        GROUP BY last.finished_at, m.provider`,
    );
    if (rows.length === 0) return null;
    return {
      finishedAt: new Date(rows[0]!.finished_at),
      mismatchesByProvider: rows.filter((row) => row.provider !== null).map((row) => ({ provider: row.provider!, count: Number(row.count) })),
    };
  }

  /** Deletes finished runs (and their lines) older than `before`. */
  async deleteFinishedBefore(before: Date): Promise<void> {
    await sqlRows(this.checks.manager, `DELETE FROM invariant_checks WHERE finished_at < $1`, [before]);
  }
}
