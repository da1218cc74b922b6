import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { sqlEntities, sqlRows } from '../../database/sql';
import type { RefundStatus } from '../../domain/refund';
import { Refund } from './refund.entity';

/**
 * What a payment has returned, as SQL: the sum of its succeeded refunds (origin `routing` returns
 * another charge's money). The one definition of a payment's refunded amount, used where it is set
 * and where the money invariant check reads it. `paymentId` is the SQL of the payment's id.
 */
export function returnedCentsSql(paymentId: string): string {
  return `(SELECT coalesce(sum(amount_cents), 0) FROM refunds WHERE payment_id = ${paymentId} AND status = 'succeeded' AND origin <> 'routing')`;
}

export type NewRefund = Omit<Refund, 'updatedAt' | 'settledAt' | 'checkTries' | 'failureReason'> & { failureReason?: string | null };

/** Every query of the `refunds` table. */
@Injectable()
export class RefundRepository {
  constructor(@InjectRepository(Refund) private readonly refunds: Repository<Refund>) {}

  /** For a write outside any transaction (one statement). */
  get manager(): EntityManager {
    return this.refunds.manager;
  }

  /** Inserts a refund, unless one with its id exists (a retry of the same key); the refund as stored. */
  async insert(tx: EntityManager, refund: NewRefund): Promise<Refund> {
    const rows = await sqlEntities(
      tx,
      Refund,
      `INSERT INTO refunds (id, payment_id, merchant_id, origin, status, amount_cents, reason, failure_reason, provider, provider_account_id, txid,
                            provider_payment_id, end_to_end_id, provider_refund_id, attempt_id, next_check_at, created_at, updated_at, settled_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $17, CASE WHEN $5 = 'pending' THEN NULL ELSE $17::timestamptz END)
       ON CONFLICT (id) DO NOTHING
       RETURNING *`,
      [
        refund.id,
        refund.paymentId,
        refund.merchantId,
        refund.origin,
        refund.status,
        refund.amountCents,
        refund.reason,
        refund.failureReason ?? null,
        refund.provider,
        refund.providerAccountId,
        refund.txid,
        refund.providerPaymentId,
        refund.endToEndId,
        refund.providerRefundId,
        refund.attemptId,
        refund.nextCheckAt,
        refund.createdAt,
      ],
    );
    return rows[0] ?? (await tx.findOneByOrFail(Refund, { id: refund.id }));
  }

  /** The sum of the payment's refunds that hold money: succeeded and pending (a failed one gives its amount back). Origin `routing` refunds another charge. */
  async heldCents(tx: EntityManager, paymentId: string): Promise<number> {
    const rows = await sqlRows<{ held: string }>(
      tx,
      `SELECT coalesce(sum(amount_cents), 0)::text AS held FROM refunds WHERE payment_id = $1 AND origin <> 'routing' AND status <> 'failed'`,
      [paymentId],
    );
    return Number(rows[0]!.held);
  }

  /** Locks (`FOR UPDATE`) one refund; the caller holds its payment's lock first, always in that order. */
  findForUpdate(tx: EntityManager, id: string): Promise<Refund | null> {
    return tx.getRepository(Refund).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** The refund of a payment the PSP knows by this id (its own refunds first matched, then one a lost answer left without it). */
  async findByProviderRefundId(tx: EntityManager, paymentId: string, providerRefundId: string): Promise<Refund | null> {
    const rows = await sqlEntities(tx, Refund, `SELECT * FROM refunds WHERE payment_id = $1 AND provider_refund_id = $2 FOR UPDATE`, [paymentId, providerRefundId]);
    return rows[0] ?? null;
  }

  /** One of the payment's own refunds (not routing's) by the gateway's id, locked. */
  async findOwnForUpdate(tx: EntityManager, paymentId: string, id: string): Promise<Refund | null> {
    const rows = await sqlEntities(tx, Refund, `SELECT * FROM refunds WHERE id = $1 AND payment_id = $2 AND origin <> 'routing' FOR UPDATE`, [id, paymentId]);
    return rows[0] ?? null;
  }

  /** The payment's own pending refunds whose PSP answer was lost (no PSP id yet): reports the PSP cannot attribute may be one of them. */
  async unansweredIds(tx: EntityManager, paymentId: string): Promise<string[]> {
    const rows = await sqlRows<{ id: string }>(
      tx,
      `SELECT id FROM refunds WHERE payment_id = $1 AND provider_refund_id IS NULL AND status = 'pending' AND origin = 'merchant' ORDER BY created_at, id`,
      [paymentId],
    );
    return rows.map((row) => row.id);
  }

  /** Refunds to read back from their PSP at once (reconciliation finds their PSP id). */
  async checkNow(ids: string[], at: Date): Promise<void> {
    if (ids.length > 0) await this.refunds.query(`UPDATE refunds SET next_check_at = $2 WHERE id = ANY($1) AND status = 'pending'`, [ids, at]);
  }

  /** What the payment has returned: the sum of its succeeded refunds (not routing's), the one source of its refunded amount. */
  async succeededCents(tx: EntityManager, paymentId: string): Promise<number> {
    const rows = await sqlRows<{ total: string }>(tx, `SELECT ${returnedCentsSql('$1')}::text AS total`, [paymentId]);
    return Number(rows[0]!.total);
  }

  /** A refund's reports: its status (and the PSP's id and reason when known). Settling clears the reconciliation lease. */
  async update(tx: EntityManager, id: string, change: { status: RefundStatus; providerRefundId?: string | null; failureReason?: string | null; at: Date }): Promise<void> {
    await tx.query(
      `UPDATE refunds SET status = $2, provider_refund_id = coalesce($3, provider_refund_id), failure_reason = coalesce($4, failure_reason), updated_at = $5,
              settled_at = CASE WHEN $2 = 'pending' THEN NULL ELSE $5::timestamptz END,
              next_check_at = CASE WHEN $2 = 'pending' THEN next_check_at ELSE NULL END
        WHERE id = $1`,
      [id, change.status, change.providerRefundId ?? null, change.failureReason ?? null, change.at],
    );
  }

  /** The payment's own pending refunds (not routing's), oldest first, locked: inside the transaction that holds the payment. */
  pendingForUpdate(tx: EntityManager, paymentId: string): Promise<Refund[]> {
    return sqlEntities(tx, Refund, `SELECT * FROM refunds WHERE payment_id = $1 AND status = 'pending' AND origin <> 'routing' ORDER BY created_at, id FOR UPDATE`, [paymentId]);
  }

  /** A payment's refunds, oldest first; `merchantView` leaves out refunds of other charges (routing). */
  listForPayment(paymentId: string, merchantView = false): Promise<Refund[]> {
    return sqlEntities(this.refunds.manager, Refund, `SELECT * FROM refunds WHERE payment_id = $1 ${merchantView ? "AND origin <> 'routing'" : ''} ORDER BY created_at, id`, [
      paymentId,
    ]);
  }

  /** One refund of the merchant's own: every merchant read is scoped by its id. */
  findForMerchant(merchantId: string, id: string): Promise<Refund | null> {
    return this.refunds.findOneBy({ id, merchantId });
  }

  findById(id: string): Promise<Refund | null> {
    return this.refunds.findOneBy({ id });
  }

  /**
   * Claims (FOR UPDATE SKIP LOCKED) pending refunds due for reconciliation, moving their
   * `next_check_at` to `leaseUntil`: the same lease as payments' reconciliation, safe across processes.
   */
  claimDueSkipLocked(now: Date, leaseUntil: Date, limit: number): Promise<Refund[]> {
    return sqlEntities(
      this.refunds.manager,
      Refund,
      `UPDATE refunds SET next_check_at = $2, check_tries = check_tries + 1
        WHERE id IN (SELECT id FROM refunds WHERE status = 'pending' AND next_check_at <= $1 ORDER BY next_check_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING *`,
      [now, leaseUntil, limit],
    );
  }

  /** When a pending refund is next looked at. */
  async reschedule(id: string, at: Date): Promise<void> {
    await this.refunds.query(`UPDATE refunds SET next_check_at = $2 WHERE id = $1 AND status = 'pending'`, [id, at]);
  }
}
