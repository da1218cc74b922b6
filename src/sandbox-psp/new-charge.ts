import { randomUUID } from 'node:crypto';
import type { SandboxCreateChargeBody } from '../common/sandbox-wire/sandbox-api';
import { dueTermsFromWire, type SandboxBatchChargeBody } from '../common/sandbox-wire/sandbox-due-api';
import { sandboxBrCode, sandboxDueBrCode } from './br-code';
import { dueExpiry, refreshDueCharge } from './due-charges';
import type { StoredCharge } from './stored';

/**
 * A new charge for a create body (`POST /charges`) or a batch's charge, open (`ATIVA`). An immediate
 * charge lasts `expiresIn` seconds and its BR Code is static, for its amount; a due-date charge lasts
 * until its last payable day and its code is dynamic, without an amount, so a change keeps it.
 * The body was validated (schema, then the route's checks) before.
 */
export function newCharge(body: SandboxCreateChargeBody | SandboxBatchChargeBody, amountCents: number, now: number, batchId?: string): StoredCharge {
  const due = body.due ? dueTermsFromWire(body.due) : undefined;
  const charge: StoredCharge = {
    id: `sbx_${randomUUID().replaceAll('-', '')}`,
    txid: body.txid,
    status: 'ATIVA',
    amountCents,
    description: body.description ?? null,
    externalId: body.externalId,
    recipient: { document: body.recipient.document, name: body.recipient.name },
    pixCopiaECola: due ? sandboxDueBrCode(body.txid) : sandboxBrCode(body.txid, amountCents),
    notificationUrl: body.notificationUrl,
    webhookSecret: body.webhookSecret,
    createdAt: new Date(now),
    expiresAt: due ? dueExpiry(due) : new Date(now + ('expiresIn' in body && body.expiresIn !== undefined ? body.expiresIn : 0) * 1000),
    paidAt: null,
    pix: null,
    refunds: [],
    ...(due ? { due } : {}),
    ...(body.recipientAddress ? { recipientAddress: { ...body.recipientAddress } } : {}),
    ...(batchId === undefined ? {} : { batchId }),
  };
  refreshDueCharge(charge, now);
  return charge;
}
