import { type InboundCallback, WebhookParseError } from '../../provider-adapter';
import type { ProviderRecurrence, ProviderRecurringCharge } from '../../recurring';

/*
 * The simulated PSP's Pix Automático callbacks (docs/sandbox.md, Recurrences): `{recurrences:[{id}]}`
 * at `<notificationUrl>/rec`, `{recurringCharges:[{txid}]}` at `/cobr`. They name what changed; the
 * adapter reads each back before it believes anything.
 */

/** At most this many entries in one callback are read back; a longer list is not the simulated PSP's. */
const MAX_CALLBACK_ENTRIES = 100;

export type RecurringCallbackEntry = { kind: 'recurrence'; id: string } | { kind: 'charge'; id: string };

/** The entries a callback names, in order; WebhookParseError when it is not such a callback (or not at its path). */
export function recurringCallbackEntries(request: InboundCallback): RecurringCallbackEntry[] {
  let body: unknown;
  try {
    body = JSON.parse(request.rawBody.toString('utf8'));
  } catch {
    throw new WebhookParseError('The callback is not JSON.', 'body');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new WebhookParseError('The callback must be a JSON object.', 'body');
  const { recurrences, recurringCharges } = body as { recurrences?: unknown; recurringCharges?: unknown };
  const path = request.path.replace(/\/+$/, '');
  if ((recurrences === undefined) === (recurringCharges === undefined)) throw new WebhookParseError('The callback lists either recurrences or recurringCharges.', 'body');
  const kind = recurrences !== undefined ? 'recurrence' : 'charge';
  if (path !== '' && path !== (kind === 'recurrence' ? '/rec' : '/cobr')) throw new WebhookParseError(`A ${kind} callback does not belong at ${path.slice(0, 32)}.`, 'path');
  const list = kind === 'recurrence' ? recurrences : recurringCharges;
  const field = kind === 'recurrence' ? 'recurrences' : 'recurringCharges';
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_CALLBACK_ENTRIES) {
    throw new WebhookParseError(`${field} must list 1 to ${MAX_CALLBACK_ENTRIES} entries.`, field);
  }
  return list.map((entry: unknown, index) => {
    const id = (entry as { id?: unknown; txid?: unknown } | null)?.[kind === 'recurrence' ? 'id' : 'txid'];
    if (typeof id !== 'string' || !/^[A-Za-z0-9_]{1,64}$/.test(id)) throw new WebhookParseError(`${field}[${index}] names no ${kind === 'recurrence' ? 'id' : 'txid'}.`, field);
    return { kind, id };
  });
}

/** One id per reports of a recurrence: the same state read back twice is the same event, whatever callback carried it. */
export function recurrenceEventId(recurrence: ProviderRecurrence): string {
  return `sandbox:rec:${recurrence.providerRecurrenceId}:${recurrence.status}`;
}

/** A charge's state is its status and its current attempt (the second attempt failing is new reports). */
export function chargeEventId(charge: ProviderRecurringCharge): string {
  const last = charge.attempts[charge.attempts.length - 1];
  return `sandbox:cobr:${charge.txid}:${charge.status}:${charge.attempts.length}:${last?.status ?? 'none'}`;
}
