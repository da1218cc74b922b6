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
