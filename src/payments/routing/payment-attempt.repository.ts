import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { newId } from '../../common/ids';
import { hydrate, sqlRows } from '../../database/sql';
import type { AccountEnvironment } from '../../providers/provider-adapter';
import { type AttemptOutcome, type OrphanStatus, PaymentAttempt } from './payment-attempt.entity';

export interface NewAttempt {
  paymentId: string;
  merchantId: string;
  accountId: string | null;
  provider: string;
  environment: AccountEnvironment;
  txid: string | null;
  providerPaymentId: string | null;
  outcome: AttemptOutcome;
  upstreamStatus: number | null;
  error: string | null;
  durationMs: number;
  at: Date;
  /** Ambiguous attempts: the charge may exist at the PSP; the orphan job first looks at it then. */
  orphanDueAt: Date | null;
  /** A due-date charge was asked for (absent: an immediate one). */
  due?: boolean;
}

/** An orphan the job has leased: the attempt, and whether its create ended with a payment (and which charge that payment holds). */
export interface ClaimedOrphan {
  attempt: PaymentAttempt;
  /** The payment the create ended with, if it did: its account and txid (an ambiguous charge a retry then used is no orphan). */
  payment: { providerAccountId: string | null; txid: string | null } | null;
}

/**
 * Attempts of creates (docs/providers.md, Routing) and the orphan queue they carry. Attempts are
 * written outside any payment transaction: they are the history of what was tried, kept even when
 * the create fails, and never a state change of a payment (those go through the outbox).
 */
@Injectable()
export class PaymentAttemptRepository {
  constructor(@InjectRepository(PaymentAttempt) private readonly attempts: Repository<PaymentAttempt>) {}

  /**
   * Records one attempt, numbered after the payment's earlier ones. Only the request holding the
   * key's idempotency claim writes a payment's attempts, so the numbering is not raced (a fenced-off
   * holder at worst repeats a number; the order by time still holds).
   */
  async record(attempt: NewAttempt): Promise<PaymentAttempt> {
    const rows = await sqlRows<Record<string, unknown>>(
      this.attempts.manager,
      `INSERT INTO payment_attempts (id, payment_id, merchant_id, attempt, account_id, provider, environment, txid, provider_payment_id,
                                     outcome, upstream_status, error, duration_ms, created_at, orphan_status, orphan_next_at, orphan_updated_at, due)
       SELECT $1, $2, $3, COALESCE((SELECT max(attempt) FROM payment_attempts WHERE payment_id = $2), 0) + 1, $4, $5, $6, $7, $8,
              $9, $10, $11, $12, $13, $14, $15, $13, $16
       RETURNING *`,
      [
        newId('att'),
        attempt.paymentId,
        attempt.merchantId,
        attempt.accountId,
        attempt.provider,
        attempt.environment,
        attempt.txid,
        attempt.providerPaymentId,
        attempt.outcome,
        attempt.upstreamStatus,
        attempt.error === null ? null : attempt.error.slice(0, 500),
        Math.max(0, Math.round(attempt.durationMs)),
        attempt.at,
        attempt.orphanDueAt ? 'pending' : null,
        attempt.orphanDueAt,
        attempt.due ?? false,
      ],
    );
    return hydrate(this.attempts.manager, PaymentAttempt, rows[0]!);
  }

  /**
   * A charge that became the payment's is no orphan: a retry of the key asked the same account for
   * the same txid and got the charge an earlier ambiguous attempt left there.
   */
  async adoptCharge(paymentId: string, accountId: string | null, txid: string, at: Date): Promise<void> {
    await this.attempts.manager.query(
      `UPDATE payment_attempts SET orphan_status = NULL, orphan_next_at = NULL, orphan_locked_until = NULL, orphan_updated_at = $4
        WHERE payment_id = $1 AND account_id IS NOT DISTINCT FROM $2 AND txid = $3 AND orphan_status = 'pending'`,
      [paymentId, accountId, txid, at],
    );
  }

  /** A payment's attempts, oldest first. Scoped by merchant like every read of merchant data. */
  listForPayment(merchantId: string, paymentId: string): Promise<PaymentAttempt[]> {
    return this.attempts.find({ where: { merchantId, paymentId }, order: { attempt: 'ASC', createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * Leases up to `limit` orphans due at `now` (FOR UPDATE SKIP LOCKED, then a lease of `leaseMs` by
   * the database's clock, as the delivery worker does): several processes settle side by side, and
   * one that dies leaves its lease to lapse.
   */
  async claimDueOrphans(limit: number, leaseMs: number, now: Date): Promise<ClaimedOrphan[]> {
    const rows = await sqlRows<Record<string, unknown>>(
      this.attempts.manager,
      `WITH due AS (
         SELECT id FROM payment_attempts
          WHERE orphan_status = 'pending' AND orphan_next_at <= $3 AND (orphan_locked_until IS NULL OR orphan_locked_until < now())
          ORDER BY orphan_next_at
          LIMIT $1
            FOR UPDATE SKIP LOCKED
       )
       UPDATE payment_attempts a
          SET orphan_locked_until = date_trunc('milliseconds', now()) + make_interval(secs => $2::double precision / 1000)
         FROM due
        WHERE a.id = due.id
       RETURNING a.*,
                 (SELECT p.id FROM payments p WHERE p.id = a.payment_id) AS p_id,
                 (SELECT p.provider_account_id FROM payments p WHERE p.id = a.payment_id) AS p_provider_account_id,
                 (SELECT p.txid FROM payments p WHERE p.id = a.payment_id) AS p_txid`,
      [limit, leaseMs, now],
    );
    return rows.map((row) => ({
      attempt: hydrate(this.attempts.manager, PaymentAttempt, row),
      payment: row.p_id == null ? null : { providerAccountId: (row.p_provider_account_id as string | null) ?? null, txid: (row.p_txid as string | null) ?? null },
    }));
  }

  /** Settles a leased orphan (or clears it: `status` null when the charge turned out to be the payment's). */
  async settleOrphan(id: string, status: OrphanStatus | null, lastError: string | null, at: Date): Promise<void> {
    await this.attempts.manager.query(
      `UPDATE payment_attempts SET orphan_status = $2, orphan_tries = orphan_tries + 1, orphan_last_error = $3, orphan_next_at = NULL,
              orphan_locked_until = NULL, orphan_updated_at = $4
        WHERE id = $1 AND orphan_status = 'pending'`,
      [id, status, lastError, at],
    );
  }

  /** A failed try: due again at `nextAt`, or counted and left for later without a try (`countTry` false: waiting on the create). */
  async retryOrphanAt(id: string, nextAt: Date, lastError: string | null, at: Date, countTry = true): Promise<void> {
    await this.attempts.manager.query(
      `UPDATE payment_attempts SET orphan_tries = orphan_tries + $5, orphan_last_error = $3, orphan_next_at = $2,
              orphan_locked_until = NULL, orphan_updated_at = $4
        WHERE id = $1 AND orphan_status = 'pending'`,
      [id, nextAt, lastError, at, countTry ? 1 : 0],
    );
  }

  /** Orphans not yet settled, across every merchant (the operator's gauge). */
  async countPendingOrphans(): Promise<number> {
    const rows = await sqlRows<{ n: string | number }>(this.attempts.manager, `SELECT count(*) AS n FROM payment_attempts WHERE orphan_status = 'pending'`);
    return Number(rows[0]?.n ?? 0);
  }
}
