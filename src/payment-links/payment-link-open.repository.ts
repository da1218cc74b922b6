import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { sqlRows } from '../database/sql';
import { PaymentLinkOpen } from './payment-link.entity';

/** What one address holds of a link: its opens counted against the hourly allowance, and the oldest of them. */
export interface HeldOpens {
  held: number;
  oldest: Date | null;
}

/** Every query of the `payment_link_opens` table. */
@Injectable()
export class PaymentLinkOpenRepository {
  constructor(@InjectRepository(PaymentLinkOpen) private readonly opens: Repository<PaymentLinkOpen>) {}

  /**
   * The opens `addressHash` made of the link since `windowSince` that still hold a place: their
   * payment (the link's with their external id) is pending, or not written yet and the open is
   * younger than `holdSince`. Inside the caller's transaction, which holds the link locked.
   */
  async heldByAddress(tx: EntityManager, linkId: string, addressHash: string, windowSince: Date, holdSince: Date): Promise<HeldOpens> {
    const rows = await sqlRows<{ held: number; oldest: Date | null }>(
      tx,
      `SELECT count(*)::int AS held, min(o.created_at) AS oldest
         FROM payment_link_opens o
         LEFT JOIN payments p ON p.merchant_id = o.merchant_id AND p.external_id = o.external_id AND p.payment_link_id = o.link_id
        WHERE o.link_id = $1 AND o.address_hash = $2 AND o.created_at > $3 AND o.failed_at IS NULL
          AND (p.status = 'pending' OR (p.id IS NULL AND o.created_at > $4))`,
      [linkId, addressHash, windowSince, holdSince],
    );
    const row = rows[0];
    return { held: Number(row?.held ?? 0), oldest: row?.oldest ? new Date(row.oldest) : null };
  }

  /**
   * Writes the link's next open (seq one more than the last, never reused) with its external id
   * `<link id>-<seq>`, inside the caller's transaction, which holds the link locked.
   */
  async insertNext(tx: EntityManager, open: Pick<PaymentLinkOpen, 'linkId' | 'merchantId' | 'addressHash' | 'createdAt'>): Promise<Pick<PaymentLinkOpen, 'seq' | 'externalId'>> {
    const rows = await sqlRows<{ seq: number; external_id: string }>(
      tx,
      `INSERT INTO payment_link_opens (link_id, seq, merchant_id, external_id, address_hash, created_at)
       SELECT $1::text, n.seq, $2, $1::text || '-' || n.seq, $3, $4
         FROM (SELECT coalesce(max(seq), 0) + 1 AS seq FROM payment_link_opens WHERE link_id = $1) n
       RETURNING seq, external_id`,
      [open.linkId, open.merchantId, open.addressHash, open.createdAt],
    );
    return { seq: Number(rows[0]!.seq), externalId: rows[0]!.external_id };
  }

  /** An open whose payment could not be made: it holds no place from now on. */
  async markFailed(linkId: string, seq: number, at: Date): Promise<void> {
    await sqlRows(this.opens.manager, `UPDATE payment_link_opens SET failed_at = $3 WHERE link_id = $1 AND seq = $2 AND failed_at IS NULL`, [linkId, seq, at]);
  }
}
