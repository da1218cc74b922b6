import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, QueryFailedError, Repository } from 'typeorm';
import { hydrate, sqlRows } from '../database/sql';
import type { StoredChargeStatus } from '../domain/recurrence';
import { RecurringCharge } from './recurring-charge.entity';

const CHARGE_COLUMNS = `c.*, c.due_date::text AS due_date`;

/** Every query of the `recurring_charges` table. */
@Injectable()
export class RecurringChargeRepository {
  constructor(@InjectRepository(RecurringCharge) private readonly charges: Repository<RecurringCharge>) {}

  /**
   * Stores a new charge, in the caller's transaction. False when its cycle already holds a live
   * charge, a pending one included (the partial unique index decides between two requests racing
   * for one cycle; the caller then rolls back); the same id again changes nothing.
   */
  async insert(tx: EntityManager, charge: RecurringCharge): Promise<boolean> {
    try {
      await tx.createQueryBuilder().insert().into(RecurringCharge).values(charge).orIgnore('(id) DO NOTHING').execute();
      return true;
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string })?.code === '23505') return false;
      throw error;
    }
  }

  findById(id: string, tx?: EntityManager): Promise<RecurringCharge | null> {
    return this.one('c.id = $1', [id], tx);
  }

  /** `tx` when the caller holds a transaction (the embedded database has one connection: a read beside it would wait for it). */
  findByTxid(txid: string, tx?: EntityManager): Promise<RecurringCharge | null> {
    return this.one('c.txid = $1', [txid], tx);
  }

  /** The merchant's own charge; a pending one (not yet taken by the PSP) is not one yet. */
  findForMerchant(merchantId: string, id: string): Promise<RecurringCharge | null> {
    return this.one(`c.id = $1 AND c.merchant_id = $2 AND c.status <> 'pending'`, [id, merchantId]);
  }

  /** The charge holding cycle `cycle` of a recurrence, if any (one neither cancelled nor failed, a pending one included). */
  findLiveInCycle(recurrenceId: string, cycle: number, tx?: EntityManager): Promise<RecurringCharge | null> {
    return this.one(`c.recurrence_id = $1 AND c.cycle = $2 AND c.status NOT IN ('cancelled', 'failed')`, [recurrenceId, cycle], tx);
  }

  /** A recurrence's charges, oldest due date first; pending ones (not yet taken by the PSP) left out. */
  async listForRecurrence(recurrenceId: string): Promise<RecurringCharge[]> {
    const rows = await sqlRows<Record<string, unknown>>(
      this.charges.manager,
      `SELECT ${CHARGE_COLUMNS} FROM recurring_charges c WHERE c.recurrence_id = $1 AND c.status <> 'pending' ORDER BY c.due_date, c.created_at, c.id`,
      [recurrenceId],
    );
    return rows.map((row) => hydrate(this.charges.manager, RecurringCharge, row));
  }

  /** Locks (`FOR UPDATE`) a charge by the txid the PSP reports it with, with its recurrence's account. */
  lockByTxid(tx: EntityManager, txid: string): Promise<RecurringCharge | null> {
    return this.lockOne(tx, 'c.txid = $1', [txid]);
  }

  lockForMerchant(tx: EntityManager, merchantId: string, id: string): Promise<RecurringCharge | null> {
    return this.lockOne(tx, 'c.id = $1 AND c.merchant_id = $2', [id, merchantId]);
  }

  /**
   * Deletes a charge that is still pending: the PSP refused it, or says it never had it, so it was
   * never made and its cycle is free again. False when it has moved on meanwhile (the PSP's reports
   * got there first). A pending charge has no history to keep.
   */
  async deleteIfPending(id: string): Promise<boolean> {
    const rows = await sqlRows<{ id: string }>(this.charges.manager, `DELETE FROM recurring_charges WHERE id = $1 AND status = 'pending' RETURNING id`, [id]);
    return rows.length > 0;
  }

  /** The charges of a recurrence whose first attempt has not come yet (due after `today`), locked. */
  async lockNotYetAttempted(tx: EntityManager, recurrenceId: string, today: string): Promise<RecurringCharge[]> {
    const rows = await sqlRows<Record<string, unknown>>(
      tx,
      `SELECT ${CHARGE_COLUMNS} FROM recurring_charges c
        WHERE c.recurrence_id = $1 AND c.status = 'scheduled' AND c.due_date > $2::date
        ORDER BY c.due_date, c.id
          FOR UPDATE`,
      [recurrenceId, today],
    );
    return rows.map((row) => hydrate(tx, RecurringCharge, row));
  }

  async update(tx: EntityManager, charge: RecurringCharge): Promise<void> {
    await tx.getRepository(RecurringCharge).update(
      { id: charge.id },
      {
        status: charge.status,
        attempts: charge.attempts,
        retries: charge.retries,
        endToEndId: charge.endToEndId,
        paidAt: charge.paidAt,
        failureReason: charge.failureReason,
        nextReconcileAt: charge.nextReconcileAt,
        updatedAt: charge.updatedAt,
      },
    );
  }

  /** Charges whose read-back (or retry) is due, leased as RecurrenceRepository's are. */
  async claimDueForReconciliationSkipLocked(now: Date, limit: number, leaseMs: number): Promise<RecurringCharge[]> {
    const rows = await sqlRows<Record<string, unknown>>(
      this.charges.manager,
      `WITH due AS (
         SELECT id FROM recurring_charges
          WHERE next_reconcile_at IS NOT NULL AND next_reconcile_at <= $1
          ORDER BY next_reconcile_at
          LIMIT $2
            FOR UPDATE SKIP LOCKED
       )
       UPDATE recurring_charges c SET next_reconcile_at = $1::timestamptz + make_interval(secs => $3::double precision / 1000)
         FROM due WHERE c.id = due.id
       RETURNING ${CHARGE_COLUMNS}`,
      [now, limit, leaseMs],
    );
    return rows.map((row) => hydrate(this.charges.manager, RecurringCharge, row));
  }

  countByStatus(): Promise<{ status: StoredChargeStatus; count: number }[]> {
    return sqlRows(this.charges.manager, `SELECT status, count(*)::int AS count FROM recurring_charges GROUP BY status`);
  }

  private async one(where: string, params: unknown[], tx: EntityManager = this.charges.manager): Promise<RecurringCharge | null> {
    const rows = await sqlRows<Record<string, unknown>>(tx, `SELECT ${CHARGE_COLUMNS} FROM recurring_charges c WHERE ${where}`, params);
    return rows[0] ? hydrate(tx, RecurringCharge, rows[0]) : null;
  }

  private async lockOne(tx: EntityManager, where: string, params: unknown[]): Promise<RecurringCharge | null> {
    const rows = await sqlRows<Record<string, unknown>>(tx, `SELECT ${CHARGE_COLUMNS} FROM recurring_charges c WHERE ${where} FOR UPDATE`, params);
    return rows[0] ? hydrate(tx, RecurringCharge, rows[0]) : null;
  }
}
