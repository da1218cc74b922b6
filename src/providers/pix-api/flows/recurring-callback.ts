import { WebhookParseError } from '../../provider-adapter';
import type { RecurringReport } from '../../recurring';
import type { PixApiProfile } from '../profile';
import type { ApiCall } from './api-call';
import { MAX_CALLBACK_ENTRIES } from './callback';
import { toProviderRecurrence } from './recurrence';
import { toProviderRecurringCharge } from './recurring-charge';
import { type CobR, lastChange, type Rec } from '../wire-recurrences';

/** What one entry of a recurring callback claims; none of it is believed until the PSP says so. */
export type RecurringCallbackEntry = { kind: 'recurrence'; idRec: string } | { kind: 'charge'; txid: string; idRec?: string };

/**
 * The entries of a Pix Automático callback, one per recurrence or charge (the first wins): at
 * `<url>/rec` the document's `{"recs":[RecNotification…]}`, at `<url>/cobr` its
 * `{"cobsr":[CobRNotification…]}`. Anything else is a WebhookParseError.
 */
export function recurringCallbackEntries(path: string, rawBody: Buffer): RecurringCallbackEntry[] {
  const kind = path.replace(/\/+$/, '') === '/rec' ? 'recurrence' : path.replace(/\/+$/, '') === '/cobr' ? 'charge' : undefined;
  if (!kind) throw new WebhookParseError(`A Pix Automático callback comes at /rec or /cobr, not at ${path === '' ? 'the base URL' : path}.`, 'path');
  let body: unknown;
  try {
    body = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new WebhookParseError('The callback is not JSON.', 'body');
  }
  const field = kind === 'recurrence' ? 'recs' : 'cobsr';
  const list = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>)[field] : undefined;
  if (!Array.isArray(list)) throw new WebhookParseError(`The callback is not a ${kind} notification ({"${field}": [...]}).`, field);
  const byId = new Map<string, RecurringCallbackEntry>();
  list.forEach((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new WebhookParseError(`${field}[${i}] is not an object.`, `${field}[${i}]`);
    const entry = item as Record<string, unknown>;
    const idRec = typeof entry.idRec === 'string' && /^[a-zA-Z0-9]{29}$/.test(entry.idRec) ? entry.idRec : undefined;
    if (kind === 'recurrence') {
      if (!idRec) throw new WebhookParseError(`${field}[${i}].idRec is not 29 letters and digits.`, `${field}[${i}].idRec`);
      if (!byId.has(idRec)) byId.set(idRec, { kind, idRec });
      return;
    }
    const txid = entry.txid;
    if (typeof txid !== 'string' || !/^[a-zA-Z0-9]{26,35}$/.test(txid))
      throw new WebhookParseError(`${field}[${i}].txid is not 26 to 35 letters and digits.`, `${field}[${i}].txid`);
    if (!byId.has(txid)) byId.set(txid, { kind, txid, ...(idRec ? { idRec } : {}) });
  });
  if (byId.size > MAX_CALLBACK_ENTRIES) throw new WebhookParseError(`The callback names more than ${MAX_CALLBACK_ENTRIES} entries.`, field);
  return [...byId.values()];
}

/** The read-back that confirms an entry: the recurrence or the charge as the PSP holds it. */
export function readBackCall(entry: RecurringCallbackEntry): ApiCall {
  return entry.kind === 'recurrence'
    ? { operation: 'read recurrence', method: 'GET', path: `/rec/${encodeURIComponent(entry.idRec)}` }
    : { operation: 'read recurring charge', method: 'GET', path: `/cobr/${encodeURIComponent(entry.txid)}` };
}

/**
 * The report an entry is, from what the PSP answered (never from the callback's body), or null when
 * the PSP does not confirm it: it holds no such recurrence or charge, or the charge is of another
 * recurrence than the entry says.
 */
export function confirmedReports(profile: PixApiProfile, entry: RecurringCallbackEntry, held: Rec | CobR | null): RecurringReport | null {
  if (held === null) return null;
  if (entry.kind === 'recurrence') {
    const rec = held as Rec;
    if (rec.idRec !== entry.idRec) return null;
    return { kind: 'recurrence', eventId: recurrenceEventId(rec), recurrence: toProviderRecurrence(profile, rec) };
  }
  const cobr = held as CobR;
  if (cobr.txid !== entry.txid || (entry.idRec !== undefined && entry.idRec !== cobr.idRec)) return null;
  return { kind: 'charge', eventId: chargeEventId(cobr), charge: toProviderRecurringCharge(profile, cobr) };
}

/**
 * Stable for the same report, different for different reports: the recurrence, its status as the PSP
 * holds it, and the time of its last status change.
 */
export function recurrenceEventId(rec: Rec): string {
  return `rec:${rec.idRec}:${rec.status ?? 'unknown'}:${lastChange(rec.atualizacao)?.toISOString() ?? '-'}`;
}

/**
 * As recurrenceEventId, for a charge: its status, the last status change of the charge or of any
 * of its attempts, how many attempts it has and the latest one's status (an attempt rejected while
 * the charge stays ATIVA is reports).
 */
export function chargeEventId(cobr: CobR): string {
  const last = lastChange([...cobr.atualizacao, ...cobr.tentativas.flatMap((tentativa) => tentativa.atualizacao)]);
  const latest = cobr.tentativas.at(-1)?.status ?? 'none';
  return `cobr:${cobr.txid}:${cobr.status ?? 'unknown'}:${last?.toISOString() ?? '-'}:${cobr.tentativas.length}:${latest}`;
}
