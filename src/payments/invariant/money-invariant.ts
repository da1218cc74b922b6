import { centsToDecimalString } from '../../domain/money';
import type { PaymentStatus } from '../../domain/payment-status';
import type { ProviderCharge } from '../../providers/provider-adapter';

/**
 * The money invariant (docs/operations.md, Money invariant check): for each payment, what the PSP
 * says was received and returned equals what the gateway recorded. Pure: the service reads both
 * sides and stores the lines this answers.
 */

export const INVARIANT_FIELDS = ['received', 'returned', 'status'] as const;
export type InvariantField = (typeof INVARIANT_FIELDS)[number];

/** One payment as the gateway recorded it. */
export interface GatewayMoney {
  status: PaymentStatus;
  amountCents: number;
  paidAmountCents: number | null;
  /** The sum of its succeeded refunds, summed from the refunds themselves (a routing refund belongs to another charge). */
  returnedCents: number;
  /** Its refunds still pending, which may settle the difference on their own. */
  pendingRefunds: number;
}

/** The same charge as its PSP reports it (`getCharge`). */
export type PspMoney = Pick<ProviderCharge, 'status' | 'amountCents' | 'refunds'> & { paidAmountCents: number | null };

/** One disagreement: the side's amount in centavos (null where the side says nothing of it), and why it matters. */
export interface InvariantLine {
  field: InvariantField;
  gatewayCents: number | null;
  pspCents: number | null;
  note: string;
}

export interface InvariantVerdict {
  lines: InvariantLine[];
  /** Parts that could not be compared: `returned` when the PSP's answer lists no refunds. */
  unverifiable: InvariantField[];
}

/** Statuses in which the money came in (whatever went back since). */
function received(status: PaymentStatus): boolean {
  return status === 'paid' || status === 'partially_refunded' || status === 'refunded';
}

export function gatewayReceivedCents(gateway: GatewayMoney): number {
  return received(gateway.status) ? (gateway.paidAmountCents ?? gateway.amountCents) : 0;
}

/** A Pix the PSP lists counts whatever status it gives the charge: that money arrived. */
export function pspReceivedCents(psp: PspMoney): number {
  if (psp.paidAmountCents !== null) return psp.paidAmountCents;
  return received(psp.status) ? psp.amountCents : 0;
}

/** What the PSP says went back, or null when its answer cannot say (it lists no refunds for a charge that was paid). */
export function pspReturnedCents(psp: PspMoney): number | null {
  if (psp.refunds === undefined) return pspReceivedCents(psp) === 0 ? 0 : null;
  return psp.refunds.filter((refund) => refund.status === 'succeeded').reduce((sum, refund) => sum + refund.amountCents, 0);
}

/** The status the gateway's own amounts call for, for a payment that received money. */
function statusForAmounts(receivedCents: number, returnedCents: number): PaymentStatus {
  if (returnedCents === 0) return 'paid';
  return returnedCents >= receivedCents ? 'refunded' : 'partially_refunded';
}

const reais = (cents: number) => `R$ ${centsToDecimalString(cents)}`;

export function compareMoney(gateway: GatewayMoney, psp: PspMoney): InvariantVerdict {
  const lines: InvariantLine[] = [];
  const unverifiable: InvariantField[] = [];
  const pending = gateway.pendingRefunds > 0 ? ` (${gateway.pendingRefunds} refund${gateway.pendingRefunds === 1 ? '' : 's'} still pending at the gateway may settle this)` : '';

  const gatewayIn = gatewayReceivedCents(gateway);
  const pspIn = pspReceivedCents(psp);
  if (gatewayIn !== pspIn)
    lines.push({
      field: 'received',
      gatewayCents: gatewayIn,
      pspCents: pspIn,
      note: `The PSP says ${reais(pspIn)} was paid (charge ${psp.status}); the gateway holds the payment ${gateway.status} with ${reais(gatewayIn)} received.`,
    });

  const pspBack = pspReturnedCents(psp);
  if (pspBack === null) {
    unverifiable.push('returned');
    // Without the list, the PSP's status still says whether everything went back.
    if (psp.status === 'refunded' && gatewayIn > 0 && gateway.returnedCents < gatewayIn)
      lines.push({
        field: 'status',
        gatewayCents: gateway.returnedCents,
        pspCents: pspIn,
        note: `The PSP says the whole charge was refunded; the gateway records ${reais(gateway.returnedCents)} returned of ${reais(gatewayIn)}${pending}.`,
      });
  } else if (pspBack !== gateway.returnedCents) {
    lines.push({
      field: 'returned',
      gatewayCents: gateway.returnedCents,
      pspCents: pspBack,
      note:
        pspBack > gateway.returnedCents
          ? `The PSP returned ${reais(pspBack - gateway.returnedCents)} more than the gateway's succeeded refunds record${pending}.`
          : `The gateway's succeeded refunds record ${reais(gateway.returnedCents - pspBack)} more than the PSP returned${pending}.`,
    });
  }

  // The gateway's status must follow from its own amounts (a refunded amount counted twice shows here).
  const expected = gatewayIn > 0 ? statusForAmounts(gatewayIn, gateway.returnedCents) : null;
  if ((expected !== null && gateway.status !== expected) || (expected === null && gateway.returnedCents > 0))
    lines.push({
      field: 'status',
      gatewayCents: gateway.returnedCents,
      pspCents: null,
      note:
        expected === null
          ? `The gateway holds the payment ${gateway.status} yet records ${reais(gateway.returnedCents)} returned.`
          : `The gateway holds the payment ${gateway.status}, but its refunds (${reais(gateway.returnedCents)} of ${reais(gatewayIn)}) make it ${expected}.`,
    });

  return { lines, unverifiable };
}
