import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { hydrate, sqlRows } from '../../database/sql';
import { Payment } from '../payment.entity';
import { returnedCentsSql } from '../refunds/refund.repository';

/** A payment's money as the gateway recorded it, with what the money invariant check needs to ask its PSP. */
export interface PaymentMoney extends Pick<
  Payment,
  'id' | 'merchantId' | 'provider' | 'providerAccountId' | 'providerPaymentId' | 'txid' | 'status' | 'amountCents' | 'paidAmountCents' | 'due'
> {
  /** The sum of its succeeded refunds, origin `routing` aside (those return another charge, an orphan's). */
  returnedCents: number;
  /** Its refunds still pending, origin `routing` aside. */
  pendingRefunds: number;
}

/** Where a page of the window stops: the last payment's creation (as the database's text, exact to the microsecond) and id. */
export interface WindowCursor {
  createdAt: string;
  id: string;
}

/**
 * The reads of the money invariant check (src/payments/invariant/money-invariant.service.ts): payments
 * and their refunds, read only. What was returned is summed from the refunds themselves, never
 * taken from the payment's own total, so the check compares the books with the money rather than
 * one stored number with another.
 */
const SELECT_MONEY = `
  SELECT p.id, p.merchant_id, p.provider, p.provider_account_id, p.provider_payment_id, p.txid, p.status, p.amount_cents, p.paid_amount_cents, p.due,
         p.created_at::text AS cursor_created_at,
         ${returnedCentsSql('p.id')} AS returned_cents,
         (SELECT count(*) FROM refunds r WHERE r.payment_id = p.id AND r.status = 'pending' AND r.origin <> 'routing') AS pending_refunds
    FROM payments p`;

@Injectable()
export class PaymentMoneyRepository {
  constructor(@InjectRepository(Payment) private readonly payments: Repository<Payment>) {}

  /**
   * The next page of payments created since `since`, oldest first after `after`, but pending ones
   * created after `pendingBefore` (reconciliation has not had its turn at them yet).
   */
  async pageCreatedSince(since: Date, pendingBefore: Date, after: WindowCursor | null, limit: number): Promise<{ payments: PaymentMoney[]; next: WindowCursor | null }> {
    const rows = await sqlRows<Record<string, unknown>>(
      this.payments.manager,
      `${SELECT_MONEY}
        WHERE p.created_at >= $1
          AND (p.created_at, p.id) > ($2::timestamptz, $3)
          AND NOT (p.status = 'pending' AND p.created_at > $4)
        ORDER BY p.created_at, p.id
        LIMIT $5`,
      [since, after?.createdAt ?? since.toISOString(), after?.id ?? '', pendingBefore, limit],
    );
    const last = rows.at(-1);
    return {
      payments: rows.map((row) => this.money(row)),
      next: rows.length === limit && last ? { createdAt: String(last.cursor_created_at), id: String(last.id) } : null,
    };
  }

  /** The next page, by id, of payments created before `since` that have a refund (not routing's) asked for or settled since. */
  async pageOlderWithRefundsSince(since: Date, afterId: string, limit: number): Promise<PaymentMoney[]> {
    const rows = await sqlRows<Record<string, unknown>>(
      this.payments.manager,
      `${SELECT_MONEY}
        WHERE p.created_at < $1
          AND p.id > $2
          AND p.id IN (SELECT r.payment_id FROM refunds r WHERE r.origin <> 'routing' AND (r.created_at >= $1 OR r.settled_at >= $1))
        ORDER BY p.id
        LIMIT $3`,
      [since, afterId, limit],
    );
    return rows.map((row) => this.money(row));
  }

  /** One payment's money as it stands now. */
  async find(id: string): Promise<PaymentMoney | null> {
    const [row] = await sqlRows<Record<string, unknown>>(this.payments.manager, `${SELECT_MONEY} WHERE p.id = $1`, [id]);
    return row ? this.money(row) : null;
  }

  private money(row: Record<string, unknown>): PaymentMoney {
    const payment = hydrate(this.payments.manager, Payment, row);
    return {
      id: payment.id,
      merchantId: payment.merchantId,
      provider: payment.provider,
      providerAccountId: payment.providerAccountId,
      providerPaymentId: payment.providerPaymentId,
      txid: payment.txid,
      status: payment.status,
      amountCents: payment.amountCents,
      paidAmountCents: payment.paidAmountCents,
      due: payment.due,
      returnedCents: Number(row.returned_cents),
      pendingRefunds: Number(row.pending_refunds),
    };
  }
}
