import { centsToDecimalString } from '../../../domain/money';
import type { PaymentStatus } from '../../../domain/payment-status';
import type { SandboxChargeStatus, SandboxCreateChargeBody } from '../../../common/sandbox-wire/sandbox-api';
import { dueTermsToWire, type SandboxAddressWire, type SandboxChangeChargeBody } from '../../../common/sandbox-wire/sandbox-due-api';
import {
  type ChargeChange,
  type ChargeLookup,
  type CreateChargeRequest,
  type PayerAddress,
  type ProviderCharge,
  type SimulatedEventRequest,
  type SimulatedEventResult,
  UpstreamError,
} from '../../provider-adapter';
import { jsonOf } from '../../support/answers';
import type { OutboundAnswer } from '../../transport/transport';
import { readChargeAnswer, type SandboxCharge } from '../wire';
import { chargeRef, parseAnswer, type SandboxCall, segment } from './api-call';
import { sandboxRefundReport } from './refund';

/*
 * Charges at the simulated PSP (docs/sandbox.md): create (immediate or with a due date), read,
 * change a due-date charge, cancel, simulate an event, and the health check. One builder per
 * request, one parser per answer.
 */

/**
 * `POST /charges`, keyed by the txid (`Idempotency-Key`): the same txid again answers the charge
 * an earlier, maybe lost, attempt created. `webhookSecret`: a stored account's, to sign this
 * charge's callbacks with.
 */
export function createChargeCall(request: CreateChargeRequest, webhookSecret: string | undefined): SandboxCall {
  return { operation: 'create', method: 'POST', path: '/charges', body: createChargeBody(request, webhookSecret), headers: { 'idempotency-key': request.txid } };
}

/**
 * A create body: an immediate charge lasts `expiresIn`; a due-date charge carries its terms and,
 * when given, the payer's address, and lasts until its last payable day (docs/sandbox.md, Due-date charges).
 */
export function createChargeBody(request: CreateChargeRequest, webhookSecret: string | undefined): SandboxCreateChargeBody {
  const due = request.due ?? null;
  return {
    txid: request.txid,
    amount: centsToDecimalString(request.amountCents),
    currency: request.currency,
    description: request.description,
    externalId: request.externalId,
    // The gateway's payer is its API's recipient: the simulated PSP's wire speaks the merchant's word.
    recipient: { document: request.payer.document, name: request.payer.name },
    ...(due === null ? { expiresIn: request.expiresInSeconds } : { due: dueTermsToWire(due) }),
    ...(due !== null && request.payerAddress ? { recipientAddress: addressToWire(request.payerAddress) } : {}),
    notificationUrl: request.notificationUrl,
    ...(webhookSecret ? { webhookSecret } : {}),
  };
}

/** The CEP's eight digits, however written (`50030-230`), as the Pix API adapter sends `cep`. */
function addressToWire(address: PayerAddress): SandboxAddressWire {
  return { street: address.street, city: address.city, state: address.state, zip: address.zip.replace(/\D/g, '') };
}

/** 201 created, 200 the same txid again (the charge created by an earlier, maybe lost, attempt). */
export function parseCreatedCharge(response: OutboundAnswer): ProviderCharge | UpstreamError {
  return parseAnswer('create', response, [200, 201], (operation, answer) => toProviderCharge(readChargeAnswer(operation, answer)));
}

export function readChargeCall(ref: ChargeLookup): SandboxCall {
  return { operation: 'get', method: 'GET', path: `/charges/${segment(chargeRef(ref))}` };
}

export function parseReadCharge(response: OutboundAnswer): ProviderCharge | UpstreamError {
  return parseAnswer('get', response, [200], (operation, answer) => toProviderCharge(readChargeAnswer(operation, answer)));
}

/** `PATCH /charges/:id`: an open due-date charge's new amount and terms, whole; the simulated PSP keeps its BR Code. */
export function updateChargeCall(ref: ChargeLookup, change: ChargeChange): SandboxCall {
  const body: SandboxChangeChargeBody = { amount: centsToDecimalString(change.amountCents), due: dueTermsToWire(change.due) };
  return { operation: 'update', method: 'PATCH', path: `/charges/${segment(chargeRef(ref))}`, body };
}

/** 200 the charge changed, or as it stands when no longer open (paid meanwhile: paid); 409 `NOT_A_DUE_CHARGE` passes on as an http failure with the code. */
export function parseUpdatedCharge(response: OutboundAnswer): ProviderCharge | UpstreamError {
  return parseAnswer('update', response, [200], (operation, answer) => toProviderCharge(readChargeAnswer(operation, answer)));
}

/** Cancels an open charge; the simulated PSP answers any other as it stands (paid meanwhile: paid). */
export function cancelChargeCall(ref: ChargeLookup): SandboxCall {
  return { operation: 'cancel', method: 'POST', path: `/charges/${segment(chargeRef(ref))}/cancel`, body: {} };
}

export function parseCancelledCharge(response: OutboundAnswer): ProviderCharge | UpstreamError {
  return parseAnswer('cancel', response, [200], (operation, answer) => toProviderCharge(readChargeAnswer(operation, answer)));
}

/** `POST /charges/:id/simulate`: the simulated PSP moves the charge and posts a real, signed callback, then answers. */
export function simulateCall(ref: ChargeLookup, request: SimulatedEventRequest): SandboxCall {
  const body = { event: request.event, ...(request.amountCents === undefined ? {} : { amount: centsToDecimalString(request.amountCents) }) };
  return { operation: 'simulate', method: 'POST', path: `/charges/${segment(chargeRef(ref))}/simulate`, body };
}

export function parseSimulation(response: OutboundAnswer): SimulatedEventResult | UpstreamError {
  return parseAnswer('simulate', response, [202, 200], (_operation, answer) => {
    const body = jsonOf(answer) as Partial<SimulatedEventResult> | undefined;
    if (typeof body?.eventId !== 'string' || typeof body.delivered !== 'boolean' || typeof body.charge !== 'object' || body.charge === null) {
      throw new UpstreamError({ kind: 'malformed', message: 'Sandbox simulate: unexpected answer', upstreamStatus: answer.status });
    }
    return { eventId: body.eventId, delivered: body.delivered, status: typeof body.status === 'number' ? body.status : null, charge: body.charge };
  });
}

export function healthCall(): SandboxCall {
  return { operation: 'health', method: 'GET', path: '/health' };
}

/** Why the health answer is not a healthy one, or null when it is. */
export function healthProblem(response: OutboundAnswer): string | null {
  if (response.status !== 200) return `HTTP ${response.status}`;
  const status = (jsonOf(response) as { status?: unknown } | undefined)?.status;
  return status === 'ok' ? null : 'unexpected health body';
}

/** The simulated PSP's statuses in the gateway's terms. Exhaustive: a new status will not compile until mapped. */
export function sandboxStatusToPaymentStatus(status: SandboxChargeStatus): PaymentStatus {
  switch (status) {
    case 'ATIVA':
      return 'pending';
    case 'CONCLUIDA':
      return 'paid';
    case 'EXPIRADA':
      return 'expired';
    case 'CANCELADA':
      return 'cancelled';
    case 'FALHOU':
      return 'failed';
    case 'DEVOLVIDA':
      return 'refunded';
    default: {
      const unmapped: never = status;
      throw new UpstreamError({ kind: 'malformed', message: `Unmapped sandbox status ${String(unmapped)}` });
    }
  }
}

function toProviderCharge(charge: SandboxCharge): ProviderCharge {
  return {
    ...(charge.pix ? { pix: charge.pix } : {}),
    refunds: charge.refunds.map(sandboxRefundReport),
    providerPaymentId: charge.id,
    txid: charge.txid,
    status: sandboxStatusToPaymentStatus(charge.status),
    amountCents: charge.amountCents,
    copyPaste: charge.copyPaste,
    expiresAt: charge.expiresAt,
    paidAt: charge.paidAt,
  };
}
