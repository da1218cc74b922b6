import { randomInt } from 'node:crypto';
import { centsToDecimalString } from '../domain/money';
import type { SandboxPersonWire } from '../common/sandbox-wire/sandbox-api';
import type { StoredCharge } from './charge-store';

/**
 * The payer's institution in the sandbox's end-to-end ids: eight digits like an ISPB, all nines so
 * that no reader takes it for a real bank's (the BCB assigns ISPBs from the low end).
 */
export const SANDBOX_PAYER_ISPB = '99999999';

/** The BCB's end-to-end id: `E`, 8-digit ISPB, `yyyyMMddHHmm` (UTC), 11 letters or digits; 32 characters. */
export const END_TO_END_ID = /^E\d{8}\d{12}[a-zA-Z0-9]{11}$/;

const ALPHANUMERIC = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A fresh end-to-end id for a Pix paid at `at`, in the BCB's format. */
export function sandboxEndToEndId(at: Date): string {
  const stamp = at.toISOString().replace(/\D/g, '').slice(0, 12);
  let suffix = '';
  for (let i = 0; i < 11; i++) suffix += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return `E${SANDBOX_PAYER_ISPB}${stamp}${suffix}`;
}

/**
 * Who pays a simulated charge: the person it is addressed to (its `recipient`), as when the
 * customer a shop charged pays from their own account. A copy, so the two never share an object.
 */
export function simulatedPayer(recipient: SandboxPersonWire): SandboxPersonWire {
  return { document: recipient.document, name: recipient.name };
}

/**
 * A charge confirmed: paid (once: a second confirmation keeps the first time and Pix), and the Pix
 * that paid it recorded as a PSP reports one, for `reportedCents`.
 */
export function recordPayment(charge: StoredCharge, now: number, reportedCents: number): void {
  charge.status = 'CONCLUIDA';
  charge.paidAt ??= new Date(now);
  charge.pix ??= {
    endToEndId: sandboxEndToEndId(charge.paidAt),
    amount: centsToDecimalString(reportedCents),
    payer: simulatedPayer(charge.recipient),
    paidAt: charge.paidAt.toISOString(),
  };
}
