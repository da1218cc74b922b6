import { type ProviderEvent, refundEventType } from '../../../domain/provider-event';
import { WebhookParseError } from '../../provider-adapter';
import { type ChargeRecord, type Devolucao, devolucaoReport, isEndToEndId, type Pix, pixDetails, wireCents } from '../wire';

/** Most distinct Pix one callback may name: each may be read back from the PSP. */
export const MAX_CALLBACK_ENTRIES = 100;

/** What one entry of a callback claims; none of it is believed until the PSP says so. */
export interface CallbackEntry {
  endToEndId: string;
  txid?: string;
  valor?: string;
  devolucaoIds: string[];
}

/**
 * The entries of a Pix callback, one per endToEndId (the first wins): `{"pix": [...]}` as the
 * standard has it, or the bare list Inter posts (https://developers.bancointer.com.br/v4/reference,
 * Pix webhook "Callback payload samples", read from a copy of that page: re-check). Anything else
 * is a WebhookParseError.
 */
export function callbackEntries(rawBody: Buffer): CallbackEntry[] {
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new WebhookParseError('The callback is not JSON.', 'body');
  }
  const list = Array.isArray(body)
    ? body
    : typeof body === 'object' && body !== null && Array.isArray((body as { pix?: unknown }).pix)
      ? (body as { pix: unknown[] }).pix
      : undefined;
  // Efí posts a test notification to the URL it is given while registering it, and refuses the URL
  // unless it is answered 200 (https://dev.efipay.com.br/docs/api-pix/webhooks/); its body,
  // `{"evento":"teste_webhook","data_criacao":…}` as integrators quote it, names no Pix.
  if (!list && isRegistrationTest(body)) return [];
  if (!list) throw new WebhookParseError('The callback is not a Pix notification ({"pix": [...]}).', 'pix');
  const byId = new Map<string, CallbackEntry>();
  list.forEach((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new WebhookParseError(`pix[${i}] is not an object.`, `pix[${i}]`);
    const entry = item as Record<string, unknown>;
    if (!isEndToEndId(entry.endToEndId)) throw new WebhookParseError(`pix[${i}].endToEndId is not 32 letters and digits.`, `pix[${i}].endToEndId`);
    if (byId.has(entry.endToEndId)) return;
    const devolucoes = Array.isArray(entry.devolucoes) ? entry.devolucoes : [];
    byId.set(entry.endToEndId, {
      endToEndId: entry.endToEndId,
      txid: typeof entry.txid === 'string' ? entry.txid : undefined,
      valor: typeof entry.valor === 'string' ? entry.valor : entry.valor === undefined ? undefined : JSON.stringify(entry.valor),
      devolucaoIds: devolucoes.map((d) => (typeof d === 'object' && d !== null ? (d as { id?: unknown }).id : undefined)).map((id) => (typeof id === 'string' ? id : '')),
    });
  });
  if (byId.size > MAX_CALLBACK_ENTRIES) throw new WebhookParseError(`The callback names more than ${MAX_CALLBACK_ENTRIES} Pix.`, 'pix');
  return [...byId.values()];
}

/**
 * First half of an entry's confirmation, on `GET /pix/{e2eid}`: the PSP knows the Pix, it paid a
 * charge, and the entry's txid and amount, when given, are the PSP's. The txid to read next, or
 * null (not confirmed).
 */
export function pixConfirms(entry: CallbackEntry, pix: Pix | null): pix is Pix & { txid: string } {
  if (pix?.txid == null) return false; // unknown here, or a Pix no charge asked for
  if (entry.txid !== undefined && entry.txid !== pix.txid) return false;
  if (entry.valor !== undefined && wireCents(entry.valor) !== pix.amountCents) return false;
  return true;
}

/**
 * Second half, on `GET /cob/{txid}` (or `/cobv/{txid}`): the charge is concluded and, when it lists
 * its Pix, holds this one. The events confirmed, with the PSP's values, or null: the amount is what
 * the Pix carried, whatever the charge's original value (a due-date charge paid late with its fine
 * and interest, or early with its discount, is paid all the same). An entry naming devoluções is about
 * them, not about the payment: each id must be one the PSP holds for this Pix (`GET /pix/{e2eid}`
 * lists them), else the entry is forged and confirms nothing; each becomes a refund event in the
 * status the PSP gives it.
 */
export function confirmedEvents(entry: CallbackEntry, pix: Pix & { txid: string }, cob: Pick<ChargeRecord, 'status' | 'pix'> | null): ProviderEvent[] | null {
  if (cob?.status !== 'CONCLUIDA') return null;
  if (cob.pix.length > 0 && !cob.pix.some((paid) => paid.endToEndId === pix.endToEndId)) return null;
  if (entry.devolucaoIds.length > 0) {
    const held = entry.devolucaoIds.map((id) => pix.devolucoes.find((devolucao) => devolucao.id === id));
    if (!held.every((devolucao) => devolucao !== undefined)) return null;
    // A devolução named twice in the entry is one event.
    return [...new Map(held.map((devolucao) => [devolucao.id, devolucao])).values()].map((devolucao) => refundEvent(pix, devolucao));
  }
  return [{ eventId: `pix:${pix.endToEndId}`, type: 'payment.confirmed', paymentRef: pix.txid, amountCents: pix.amountCents, occurredAt: pix.horario, pix: pixDetails(pix) }];
}

/**
 * A devolução in its current status. The id is stable per (Pix, devolução, status): the same report
 * twice is one event to the core, a new status a new one. A devolução id is unique within its Pix
 * only (the receiver chooses it, or the PSP for a MED return), hence the endToEndId in it.
 */
export function refundEvent(pix: Pix & { txid: string }, devolucao: Devolucao): ProviderEvent {
  const refund = devolucaoReport(devolucao);
  return {
    eventId: `pix:${pix.endToEndId}:refund:${devolucao.id}:${refund.status}`,
    type: refundEventType(refund.status),
    paymentRef: pix.txid,
    amountCents: devolucao.amountCents,
    occurredAt: devolucao.settledAt ?? devolucao.requestedAt ?? pix.horario,
    refund,
  };
}

/** A PSP's test notification: an object with an `evento` and no `pix`. */
function isRegistrationTest(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && typeof (body as { evento?: unknown }).evento === 'string' && !('pix' in body);
}
