import { centsToDecimalString } from '../domain/money';
import type { SandboxChargeWire } from '../common/sandbox-wire/sandbox-api';
import { dueTermsToWire } from '../common/sandbox-wire/sandbox-due-api';
import { refreshDueCharge } from './due-charges';
import { refundToWire } from './refund-rules';
import type { StoredCharge, StoredRefund } from './stored';

export type { StoredCharge } from './stored';

/**
 * The sandbox's charges, in memory, findable by sandbox id or txid, and their refunds, findable by
 * the sandbox's refund id or the client's. Capped: past `maxCharges` the
 * oldest are forgotten, so a long benchmark cannot exhaust memory. Creation order is kept in a ring
 * rather than read off the Map: iterating a Map from the front after many deletions walks every
 * deleted slot, which made each eviction slower than the last.
 */
export class ChargeStore {
  private readonly byId = new Map<string, StoredCharge>();
  private readonly byTxid = new Map<string, StoredCharge>();
  /** Refunds by sandbox refund id (`sbxr_…`) and by client refund id: the two never look alike. */
  private readonly refunds = new Map<string, StoredRefund>();
  private readonly ring: (StoredCharge | undefined)[] = [];
  private next = 0;

  constructor(private readonly maxCharges: number) {
    if (!Number.isSafeInteger(maxCharges) || maxCharges < 1) throw new Error(`maxCharges must be a positive integer, got ${maxCharges}`);
  }

  get size(): number {
    return this.byId.size;
  }

  add(charge: StoredCharge): void {
    const oldest = this.ring[this.next];
    if (oldest) {
      this.byId.delete(oldest.id);
      this.byTxid.delete(oldest.txid);
      for (const refund of oldest.refunds) {
        this.refunds.delete(refund.id);
        if (refund.refundId !== null) this.refunds.delete(refund.refundId);
      }
    }
    this.ring[this.next] = charge;
    this.next = (this.next + 1) % this.maxCharges;
    this.byId.set(charge.id, charge);
    this.byTxid.set(charge.txid, charge);
  }

  /** By sandbox id or txid; an active charge past its expiry is expired on the way out, and a due-date charge's amount owed worked out for today. */
  find(ref: string, now: number): StoredCharge | undefined {
    const charge = this.byId.get(ref) ?? this.byTxid.get(ref);
    if (charge) expireIfDue(charge, now);
    return charge;
  }

  addRefund(charge: StoredCharge, refund: StoredRefund): void {
    charge.refunds.push(refund);
    this.refunds.set(refund.id, refund);
    if (refund.refundId !== null) this.refunds.set(refund.refundId, refund);
  }

  /** A refund by the sandbox's id or the client's, with its charge. */
  findRefund(ref: string, now: number): { refund: StoredRefund; charge: StoredCharge } | undefined {
    const refund = this.refunds.get(ref);
    const charge = refund && this.find(refund.chargeId, now);
    return refund && charge ? { refund, charge } : undefined;
  }

  findByTxid(txid: string, now: number): StoredCharge | undefined {
    const charge = this.byTxid.get(txid);
    if (charge) expireIfDue(charge, now);
    return charge;
  }

  /** Oldest first. */
  list(now: number): StoredCharge[] {
    const charges = [...this.ring.slice(this.next), ...this.ring.slice(0, this.next)].filter((charge): charge is StoredCharge => charge !== undefined);
    for (const charge of charges) expireIfDue(charge, now);
    return charges;
  }
}

function expireIfDue(charge: StoredCharge, now: number): void {
  // A due-date charge's expiry is a calendar day in Brasília, not an instant.
  if (charge.due) refreshDueCharge(charge, now);
  else if (charge.status === 'ATIVA' && charge.expiresAt.getTime() <= now) charge.status = 'EXPIRADA';
}

export function toWire(charge: StoredCharge): SandboxChargeWire {
  return {
    id: charge.id,
    txid: charge.txid,
    status: charge.status,
    amount: centsToDecimalString(charge.amountCents),
    currency: 'BRL',
    description: charge.description,
    externalId: charge.externalId,
    recipient: charge.recipient,
    pixCopiaECola: charge.pixCopiaECola,
    notificationUrl: charge.notificationUrl,
    createdAt: charge.createdAt.toISOString(),
    expiresAt: charge.expiresAt.toISOString(),
    paidAt: charge.paidAt ? charge.paidAt.toISOString() : null,
    pix: charge.pix,
    ...(charge.due ? { due: dueTermsToWire(charge.due), amountDue: centsToDecimalString(charge.amountDueCents ?? charge.amountCents) } : {}),
    ...(charge.recipientAddress ? { recipientAddress: charge.recipientAddress } : {}),
    ...(charge.batchId ? { batchId: charge.batchId } : {}),
    // Listed once there are any, as the BCB lists a Pix's devolucoes.
    ...(charge.refunds.length > 0 ? { refunds: charge.refunds.map(refundToWire) } : {}),
  };
}
