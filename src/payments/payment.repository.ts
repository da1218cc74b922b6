import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { afterCursorSql, CursorPosition, microsecondsSql } from '../common/http/cursor';
import { newId } from '../common/ids';
import { hydrate, sqlEntities, sqlRows } from '../database/sql';
import type { PaymentStatus } from '../domain/payment-status';
import { Payment } from './payment.entity';
import { returnedCentsSql } from './refunds/refund.repository';

/** The idempotency claim a new payment completes (see IdempotencyService). */
export interface CompletingClaim {
  merchantId: string;
  key: string;
  attempt: number;
}

/** The routing attempt that made the charge a new payment is written with (its other fields are the payment's). */
export interface ChargedAttempt {
  durationMs: number;
  at: Date;
}

export interface PaymentListFilter {
  merchantId?: string;
  status?: PaymentStatus;
  externalId?: string;
  /** Only the payments opened from this payment link. */
  paymentLinkId?: string;
  /** Only payments paid after close (true), or only the others (false). */
  paidAfterClose?: boolean;
  createdFrom?: Date;
  createdTo?: Date;
  after?: CursorPosition;
  limit: number;
}

/** A payment locked for a provider event, with where its merchant wants to hear about it. */
export interface PaymentLockedForEvent {
  /** What deciding and forwarding an event reads; not the stored BR Code and QR image, which are large. */
  payment: Pick<
    Payment,
    | 'id'
    | 'merchantId'
    | 'status'
    | 'amountCents'
    | 'refundedAmountCents'
    | 'externalId'
    | 'provider'
    | 'paidAt'
    | 'txid'
    | 'providerPaymentId'
    | 'providerAccountId'
    | 'endToEndId'
    | 'paidAfterClose'
    | 'due'
  >;
  webhookUrl: string | null;
  /** The merchant's `refund_after_close`: money received after close is refunded in full automatically. */
  refundAfterClose: boolean;
}

/** A payment claimed for reconciliation: what is needed to read it back from its provider. */
export type PaymentToReconcile = Pick<Payment, 'id' | 'provider' | 'providerAccountId' | 'providerPaymentId' | 'txid' | 'expiresAt' | 'due'>;

/** Which pending payments a reconciliation run takes (all instants on the gateway's Clock). */
export interface ReconciliationDue {
  /** Payments created at or before this are old enough. */
  createdBefore: Date;
  /** Payments whose expiry is at or before this are due however young. */
  expiredBefore: Date;
  /** Payments whose lease (`next_reconcile_at`) has come by now are free to take. */
  now: Date;
  /** The lease given to the payments taken: `next_reconcile_at`. */
  leaseUntil: Date;
  limit: number;
}

/** Every query of the `payments` table. */
@Injectable()
export class PaymentRepository {
  constructor(@InjectRepository(Payment) private readonly payments: Repository<Payment>) {}

  /** The merchant's own payment: every read on behalf of a merchant is scoped by its id. */
  /** Raw SQL: every merchant read runs it, and TypeORM's findOneBy cost several times the query's own CPU. */
  async findForMerchant(merchantId: string, id: string): Promise<Payment | null> {
    const [payment] = await sqlEntities(this.payments.manager, Payment, `SELECT * FROM payments WHERE id = $1 AND merchant_id = $2`, [id, merchantId]);
    return payment ?? null;
  }

  /** Stores a payment made on the way to something else (a recurrence's first payment), whose request completes its own idempotency record. */
  async insert(payment: Payment): Promise<void> {
    await this.payments.createQueryBuilder().insert().into(Payment).values(payment).orIgnore().execute();
  }

  findById(id: string): Promise<Payment | null> {
    return this.payments.findOneBy({ id });
  }

  /**
   * Inserts the payment only if its idempotency record is still held by this claim's attempt, and
   * completes that record with the response, in one statement: both happen or neither does, and a
   * request fenced off by a later attempt writes nothing. False when the claim was lost.
   */
  async insertCompletingClaim(payment: Payment, claim: CompletingClaim, responseBody: string, charged: ChargedAttempt): Promise<boolean> {
    const inserted = await sqlRows<{ id: string }>(
      this.payments.manager,
      `WITH done AS (
         UPDATE idempotency_records SET state = 'completed', locked_until = NULL, response_status = 201, response_body = $1
          WHERE merchant_id = $2 AND key = $3 AND attempt = $4 AND state = 'in_progress'
          RETURNING 1)
       , written AS (
       INSERT INTO payments (id, merchant_id, status, amount_cents, currency, description, external_id, recipient_document,
                             recipient_name, method, provider, provider_payment_id, txid, pix_copy_paste, pix_qr_png,
                             expires_at, paid_at, created_at, updated_at,
                             provider_account_id, end_to_end_id, paid_amount_cents, payer_name, payer_document_masked, environment,
                             recipient_email, due, recipient_address, batch_id, checkout_token, return_url, payment_link_id)
       SELECT $5, $2, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29,
              $33, $34, $35, $36, $37, $38
        WHERE EXISTS (SELECT 1 FROM done)
       RETURNING id)
       -- The attempt that charged, numbered after the key's earlier attempts, in the same statement:
       -- one round trip per create, and it exists exactly when the payment does.
       , attempt AS (
       INSERT INTO payment_attempts (id, payment_id, merchant_id, attempt, account_id, provider, environment, txid, provider_payment_id,
                                     outcome, duration_ms, created_at)
       SELECT $30, id, $2, COALESCE((SELECT max(attempt) FROM payment_attempts WHERE payment_id = $5), 0) + 1, $23, $14, $28, $16, $15,
              'charged', $31, $32
         FROM written)
       SELECT id FROM written`,
      [
        responseBody,
        claim.merchantId,
        claim.key,
        claim.attempt,
        payment.id,
        payment.status,
        payment.amountCents,
        payment.currency,
        payment.description,
        payment.externalId,
        payment.recipientDocument,
        payment.recipientName,
        payment.method,
        payment.provider,
        payment.providerPaymentId,
        payment.txid,
        payment.pixCopyPaste,
        payment.pixQrPng,
        payment.expiresAt,
        payment.paidAt,
        payment.createdAt,
        payment.updatedAt,
        payment.providerAccountId,
        payment.endToEndId,
        payment.paidAmountCents,
        payment.payerName,
        payment.payerDocumentMasked,
        payment.environment,
        payment.recipientEmail,
        newId('att'),
        Math.max(0, Math.round(charged.durationMs)),
        charged.at,
        jsonOrNull(payment.due),
        jsonOrNull(payment.recipientAddress),
        payment.batchId,
        payment.checkoutToken,
        payment.returnUrl,
        payment.paymentLinkId,
      ],
    );
    return inserted.length > 0;
  }

  /**
   * Locks (`FOR UPDATE`) the payment a provider event names, by the gateway's id or the provider's,
   * always within that provider: an event from one provider must never move a payment held at
   * another. Events for one payment are then decided one after another against its latest status.
   * Only the payment row is locked; the merchant's webhook URL is read as of now.
   */
  async lockForProviderEvent(tx: EntityManager, provider: string, ref: string, accountId: string | null = null): Promise<PaymentLockedForEvent | null> {
    const rows = await sqlRows<Record<string, unknown>>(
      tx,
      `SELECT p.id, p.merchant_id, p.status, p.amount_cents, p.refunded_amount_cents, p.external_id, p.provider, p.paid_at,
              p.txid, p.provider_payment_id, p.provider_account_id, p.end_to_end_id, p.paid_after_close, p.due,
              m.webhook_url AS merchant_webhook_url, m.refund_after_close AS merchant_refund_after_close
         FROM payments p JOIN merchants m ON m.id = p.merchant_id
        WHERE p.provider = $1 AND (p.id = $2 OR p.provider_payment_id = $2) AND p.provider_account_id IS NOT DISTINCT FROM $3
        ORDER BY (p.id = $2) DESC
        LIMIT 1
          FOR UPDATE OF p`,
      [provider, ref, accountId],
    );
    const row = rows[0];
    if (!row) return null;
    return { payment: hydrate(tx, Payment, row), webhookUrl: row.merchant_webhook_url as string | null, refundAfterClose: row.merchant_refund_after_close === true };
  }

  /**
   * Locks (`FOR UPDATE`) the merchant's own payment by the gateway's id, whole: refunds and cancels of
   * one payment are decided one after another against its latest status and refunded amount.
   */
  async lockForMerchant(tx: EntityManager, merchantId: string, id: string): Promise<PaymentLockedForEvent | null> {
    const rows = await sqlRows<Record<string, unknown>>(
      tx,
      `SELECT p.*, m.webhook_url AS merchant_webhook_url, m.refund_after_close AS merchant_refund_after_close
         FROM payments p JOIN merchants m ON m.id = p.merchant_id
        WHERE p.id = $1 AND p.merchant_id = $2
          FOR UPDATE OF p`,
      [id, merchantId],
    );
    const row = rows[0];
    if (!row) return null;
    return { payment: hydrate(tx, Payment, row), webhookUrl: row.merchant_webhook_url as string | null, refundAfterClose: row.merchant_refund_after_close === true };
  }

  /** A pending due-date charge's new amount, terms and expiry, on a payment the caller holds locked (UpdateDueChargeService). */
  async setDueTerms(tx: EntityManager, payment: Pick<Payment, 'id' | 'amountCents' | 'due' | 'expiresAt' | 'updatedAt'>): Promise<void> {
    await tx.query(`UPDATE payments SET amount_cents = $2, due = $3, expires_at = $4, updated_at = $5 WHERE id = $1`, [
      payment.id,
      payment.amountCents,
      jsonOrNull(payment.due),
      payment.expiresAt,
      payment.updatedAt,
    ]);
  }

  /** Records a settled refund on a payment the caller holds locked: its refunded amount and the status that follows. */
  /**
   * Sets the payment's refunded amount to the sum of its succeeded refunds, in this one statement
   * (never added to a stored total, so no report of a refund can count twice), and its status from
   * that sum: `refunded` when nothing is left, `partially_refunded` while some is. The new status and amount.
   */
  async setRefundedFromRefunds(tx: EntityManager, id: string, updatedAt: Date): Promise<{ status: PaymentStatus; refundedAmountCents: number }> {
    const rows = await sqlRows<{ status: PaymentStatus; refunded: string }>(
      tx,
      `UPDATE payments p SET refunded_amount_cents = r.total, updated_at = $2,
              status = CASE WHEN r.total >= p.amount_cents THEN 'refunded' WHEN r.total > 0 THEN 'partially_refunded' ELSE p.status END
         FROM (SELECT ${returnedCentsSql('$1')} AS total) r
        WHERE p.id = $1
        RETURNING p.status, p.refunded_amount_cents::text AS refunded`,
      [id, updatedAt],
    );
    const row = rows[0]!;
    return { status: row.status, refundedAmountCents: Number(row.refunded) };
  }

  /** Payments across merchants, newest first: `limit + 1` rows from the cursor on, each with its exact position. */
  async listPage(filter: PaymentListFilter): Promise<{ payment: Payment; id: string; created_us: string }[]> {
    const qb = this.payments.createQueryBuilder('p').addSelect(microsecondsSql('p.created_at'), 'created_us');
    if (filter.merchantId) qb.andWhere('p.merchant_id = :merchantId', { merchantId: filter.merchantId });
    if (filter.status) qb.andWhere('p.status = :status', { status: filter.status });
    if (filter.externalId) qb.andWhere('p.external_id = :externalId', { externalId: filter.externalId });
    if (filter.paymentLinkId) qb.andWhere('p.payment_link_id = :paymentLinkId', { paymentLinkId: filter.paymentLinkId });
    if (filter.paidAfterClose !== undefined) qb.andWhere(filter.paidAfterClose ? 'p.paid_after_close' : 'NOT p.paid_after_close');
    if (filter.createdFrom) qb.andWhere('p.created_at >= :from', { from: filter.createdFrom });
    if (filter.createdTo) qb.andWhere('p.created_at < :to', { to: filter.createdTo });
    if (filter.after) qb.andWhere(afterCursorSql('p.created_at', 'p.id', ':afterUs', ':afterId'), { afterUs: filter.after.createdUs, afterId: filter.after.id });
    const { entities, raw } = await qb
      .orderBy('p.created_at', 'DESC')
      .addOrderBy('p.id', 'DESC')
      .limit(filter.limit + 1)
      .getRawAndEntities<{ created_us: string }>();
    return entities.map((payment, i) => ({ payment, id: payment.id, created_us: raw[i]!.created_us }));
  }

  // Dashboard statistics

  /** Payments created in [from, to), per 24-hour day counted from `from` (day 0). Days without payments are absent. */
  countCreatedPerDay(from: Date, to: Date): Promise<DailyPaymentCount[]> {
    return sqlRows<DailyPaymentCount>(
      this.payments.manager,
      `SELECT floor(extract(epoch FROM (created_at - $1::timestamptz)) / 86400)::int AS day, count(*)::int AS payments
         FROM payments WHERE created_at >= $1 AND created_at < $2 GROUP BY 1`,
      [from, to],
    );
  }

  /**
   * Payments paid in [from, to) (refunded later included), and their amount, per 24-hour day
   * counted from `from`. `createdFrom` bounds created_at too, which keeps the query on the
   * created_at index: the caller passes the earliest creation a payment paid in the window can have.
   */
  async sumPaidPerDay(from: Date, to: Date, createdFrom: Date): Promise<DailyPaidSum[]> {
    const rows = await sqlRows<{ day: number; paid_count: number; paid_cents: string }>(
      this.payments.manager,
      `SELECT floor(extract(epoch FROM (paid_at - $1::timestamptz)) / 86400)::int AS day, count(*)::int AS paid_count,
              coalesce(sum(amount_cents), 0)::text AS paid_cents
         FROM payments
        WHERE created_at >= $3 AND created_at < $2 AND paid_at >= $1 AND paid_at < $2 AND status IN ('paid', 'partially_refunded', 'refunded')
        GROUP BY 1`,
      [from, to, createdFrom],
    );
    return rows.map((row) => ({ day: row.day, paidCount: row.paid_count, paidCents: Number(row.paid_cents) }));
  }

  /** Payments created in [from, to) by their current status; statuses without payments are absent. */
  countByStatusCreatedBetween(from: Date, to: Date): Promise<PaymentStatusCount[]> {
    return sqlRows<PaymentStatusCount>(this.payments.manager, `SELECT status, count(*)::int AS count FROM payments WHERE created_at >= $1 AND created_at < $2 GROUP BY status`, [
      from,
      to,
    ]);
  }

  /** Payments created in the last `hours` hours (by the database's now()), per provider. */
  countCreatedPerProvider(hours: number): Promise<ProviderPaymentCount[]> {
    return sqlRows<ProviderPaymentCount>(
      this.payments.manager,
      `SELECT provider, count(*)::int AS payments FROM payments WHERE created_at >= now() - make_interval(hours => $1) GROUP BY provider`,
      [hours],
    );
  }

  // Reconciliation

  /**
   * Claims (FOR UPDATE SKIP LOCKED) a batch of due pending payments in one statement: old enough,
   * or past expiry, and not leased. Moving `next_reconcile_at` to `leaseUntil` is the lease; SKIP
   * LOCKED keeps a second process off rows being claimed right now, and the moved lease keeps it
   * off them afterwards. Payments never checked come first, then the oldest.
   */
  claimDueForReconciliationSkipLocked(due: ReconciliationDue): Promise<PaymentToReconcile[]> {
    return sqlEntities(
      this.payments.manager,
      Payment,
      `UPDATE payments SET next_reconcile_at = $4
        WHERE id IN (
          SELECT id FROM payments
           WHERE status = 'pending'
             AND (created_at <= $1 OR expires_at <= $2)
             AND (next_reconcile_at IS NULL OR next_reconcile_at <= $3)
           ORDER BY next_reconcile_at NULLS FIRST, created_at
           LIMIT $5
             FOR UPDATE SKIP LOCKED)
        RETURNING id, provider, provider_account_id, provider_payment_id, txid, expires_at, due`,
      [due.createdBefore, due.expiredBefore, due.now, due.leaseUntil, due.limit],
    );
  }

  /** Sets when a claimed payment is next due for reconciliation (its `next_reconcile_at`, the lease). */
  async rescheduleReconciliation(id: string, at: Date): Promise<void> {
    await this.payments.query(`UPDATE payments SET next_reconcile_at = $2 WHERE id = $1`, [id, at]);
  }

  /**
   * The payment a checkout page shows (docs/checkout.md), found by its token through the unique
   * index, with the name and colour its merchant's pages show (`display_name`, or its name).
   */
  async findForCheckout(token: string): Promise<CheckoutPayment | null> {
    const [row] = await sqlRows<Record<string, unknown>>(
      this.payments.manager,
      `SELECT p.*, COALESCE(NULLIF(m.display_name, ''), m.name) AS merchant_display_name, m.brand_color AS merchant_brand_color
         FROM payments p JOIN merchants m ON m.id = p.merchant_id
        WHERE p.checkout_token = $1`,
      [token],
    );
    if (!row) return null;
    return {
      payment: hydrate(this.payments.manager, Payment, row),
      merchantName: row.merchant_display_name as string,
      brandColor: (row.merchant_brand_color as string | null) ?? null,
    };
  }

  /** What the open checkout pages follow live, of the payments whose tokens are given (the unique index). */
  checkoutStates(tokens: readonly string[]): Promise<CheckoutPaymentState[]> {
    return sqlEntities(
      this.payments.manager,
      Payment,
      `SELECT checkout_token, status, amount_cents, due, paid_at, expires_at FROM payments WHERE checkout_token = ANY($1::text[])`,
      [tokens],
    );
  }
}

/** A payment with what its checkout page shows of its merchant. */
export interface CheckoutPayment {
  payment: Payment;
  /** `display_name`, or the merchant's name when it has none. */
  merchantName: string;
  /** `#rrggbb` or null. */
  brandColor: string | null;
}

/** The columns a live checkout page follows. */
export type CheckoutPaymentState = Pick<Payment, 'checkoutToken' | 'status' | 'amountCents' | 'due' | 'paidAt' | 'expiresAt'>;

// Dashboard statistics: result types

/** Payments created on one day of a window (day 0 is the window's first). */
export interface DailyPaymentCount {
  day: number;
  payments: number;
}

/** Payments paid on one day of a window, and their amount in centavos. */
export interface DailyPaidSum {
  day: number;
  paidCount: number;
  paidCents: number;
}

export interface PaymentStatusCount {
  status: PaymentStatus;
  count: number;
}

export interface ProviderPaymentCount {
  provider: string;
  payments: number;
}

/** A jsonb parameter: pg sends objects as JSON text; null stays SQL NULL. */
function jsonOrNull(value: object | null | undefined): string | null {
  return value ? JSON.stringify(value) : null;
}
