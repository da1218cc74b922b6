import type { PixPaymentDetails } from '../../domain/provider-event';
import { maskDocument } from '../shared/masking';
import { wireAmountToCents } from '../../common/sandbox-wire/sandbox-api';

const END_TO_END_ID = /^E\d{8}\d{12}[a-zA-Z0-9]{11}$/;

/**
 * The Pix that paid a sandbox charge (`pix` on a charge or a `payment.confirmed` event) as the
 * gateway keeps it, the payer's document masked as the Pix API adapter masks it; null when absent,
 * or why it does not read.
 */
export function readSandboxPix(value: unknown): PixPaymentDetails | null | string {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) return 'pix is not an object';
  const pix = value as Record<string, unknown>;
  if (typeof pix.endToEndId !== 'string' || !END_TO_END_ID.test(pix.endToEndId)) return 'pix.endToEndId is not an end-to-end id';
  const paidAmountCents = typeof pix.amount === 'string' ? wireAmountToCents(pix.amount) : undefined;
  if (paidAmountCents === undefined) return 'pix.amount is not a two-place decimal string';
  const payer = pix.payer as Record<string, unknown> | null | undefined;
  if (typeof payer !== 'object' || payer === null || typeof payer.name !== 'string' || typeof payer.document !== 'string') return 'pix.payer needs a name and a document';
  return { endToEndId: pix.endToEndId, paidAmountCents, payer: { name: payer.name, documentMasked: maskDocument(payer.document) } };
}
