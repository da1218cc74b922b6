import type { Account, UpstreamError } from '../../provider-adapter';
import type { OutboundAnswer } from '../../transport/transport';
import type { PixApiCredentials } from '../credentials';
import type { PixApiProfile } from '../profile';
import { type ApiCall, labelOf, pixKeyOf, pixApiFailure } from './api-call';

/** `PUT /webhook/{chave}` with the account's Pix key as the profile writes it. */
export function registerWebhookCall(profile: PixApiProfile, account: Account<PixApiCredentials>, url: string): ApiCall {
  const key = pixKeyOf(profile, account);
  const chave = profile.webhookKey ? profile.webhookKey(key) : key;
  return {
    operation: 'register webhook',
    method: 'PUT',
    path: `/webhook/${encodeURIComponent(chave)}`,
    body: { webhookUrl: url },
    headers: profile.webhookHeaders?.(account.credentials),
  };
}

/** The standard says 200; Efí documents 201 and Inter 204 (see their profiles). */
export function parseWebhookRegistration(profile: PixApiProfile, answer: OutboundAnswer): undefined | UpstreamError {
  if (answer.status !== 200 && answer.status !== 201 && answer.status !== 204) return pixApiFailure(labelOf(profile, 'register webhook'), answer);
  return undefined;
}

/**
 * `PUT /webhookrec` and `PUT /webhookcobr` with the same URL as the Pix webhook: the PSP posts
 * `{"recs":[…]}` to `<url>/rec` and `{"cobsr":[…]}` to `<url>/cobr` (the document's callbacks of
 * those two routes), which the account's callback route tells apart by its path.
 */
export function registerRecurringWebhookCalls(profile: PixApiProfile, account: Account<PixApiCredentials>, url: string): ApiCall[] {
  const headers = profile.webhookHeaders?.(account.credentials);
  return [
    { operation: 'register recurrence webhook', method: 'PUT', path: '/webhookrec', body: { webhookUrl: url }, headers },
    { operation: 'register recurring charge webhook', method: 'PUT', path: '/webhookcobr', body: { webhookUrl: url }, headers },
  ];
}

/**
 * As parseWebhookRegistration, for the recurring webhooks (the document says 200). A 403 or 404 is
 * an account without Pix Automático at its PSP, not a failure of the registration: the document
 * says a receiver using "uma funcionalidade não contemplada no seu escopo contratual" gets
 * `AcessoNegado`, and a PSP without the routes has no such resource. The Pix webhook stands; the
 * recurring ones are left unregistered (`false`).
 */
export function parseRecurringWebhookRegistration(profile: PixApiProfile, call: ApiCall, answer: OutboundAnswer): boolean | UpstreamError {
  if (answer.status === 403 || answer.status === 404) return false;
  if (answer.status !== 200 && answer.status !== 201 && answer.status !== 204) return pixApiFailure(labelOf(profile, call.operation), answer);
  return true;
}
