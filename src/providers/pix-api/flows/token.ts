import { UpstreamError } from '../../provider-adapter';
import { jsonOf, problemOf, unexpectedAnswer } from '../../support/answers';
import type { OutboundAnswer } from '../../transport/transport';
import type { PixApiCredentials } from '../credentials';
import { CHARGE_BATCH_SCOPES, DUE_CHARGE_SCOPES, type PixApiProfile, RECURRING_SCOPES } from '../profile';
import type { AccessToken } from '../token-cache';
import { type BuiltRequest, labelOf } from './api-call';

/** Token lifetime assumed when a PSP leaves out `expires_in` (RFC 6749 makes it optional). */
const DEFAULT_TOKEN_SECONDS = 300;

/**
 * RFC 6749 section 4.4, written the way the profile's PSP takes it (its TokenRequestStyle). `scopes`
 * null asks for none: the retry after `invalid_scope`.
 */
export function tokenRequest(profile: PixApiProfile, credentials: PixApiCredentials, tokenUrl: string, scopes: readonly string[] | null): BuiltRequest {
  const style = profile.token;
  const url = new URL(tokenUrl);
  const fields: Record<string, string> = {};
  const headers: Record<string, string> = {};
  if (style.grantTypeIn === 'query') url.searchParams.set('grant_type', 'client_credentials');
  else fields.grant_type = 'client_credentials';
  if (scopes) fields.scope = scopes.join(' ');
  if (style.clientAuth === 'basic') {
    // RFC 6749 section 2.3.1: each part form-encoded, then joined and base64-encoded.
    const pair = `${encodeURIComponent(credentials.clientId)}:${encodeURIComponent(credentials.clientSecret ?? '')}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  } else {
    fields.client_id = credentials.clientId;
    if (style.clientAuth === 'body' && credentials.clientSecret !== null) fields.client_secret = credentials.clientSecret;
  }
  const body = style.encoding === 'json' ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
  headers['content-type'] = style.encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded';
  return { label: labelOf(profile, 'token'), method: 'POST', url, headers, body };
}

/**
 * The scopes a profile asks for: its own, and those of what else it declares (Pix Automático,
 * due-date charges, their batches): a PSP may refuse a scope its client was not granted, so none is
 * asked for that the profile has no use for. Null (a PSP that binds scopes to the application) stays null.
 */
export function scopesOf(profile: PixApiProfile): readonly string[] | null {
  const scopes = profile.token.scopes;
  if (scopes === null) return scopes;
  const declared = [...(profile.recurring ? RECURRING_SCOPES : []), ...(profile.dueCharges ? DUE_CHARGE_SCOPES : []), ...(profile.chargeBatches ? CHARGE_BATCH_SCOPES : [])];
  return [...new Set([...scopes, ...declared])];
}

/**
 * Whether to ask once more without scopes: a PSP that refuses the scopes asked for (`invalid_scope`,
 * RFC 6749 section 5.2: "exceeds the scope granted", e.g. an application without `webhook.read`)
 * answers a request without any with the client's default scopes (section 3.3).
 */
export function refusesScopes(profile: PixApiProfile, answer: OutboundAnswer): boolean {
  return profile.token.scopes !== null && answer.status === 400 && problemOf(jsonOf(answer)).code === 'invalid_scope';
}

/** The granted token, `issuedAt` being when it was asked for. */
export function parseToken(profile: PixApiProfile, answer: OutboundAnswer, issuedAt: Date): AccessToken | UpstreamError {
  const label = labelOf(profile, 'token');
  if (answer.status !== 200 && answer.status !== 201) return unexpectedAnswer(label, answer);
  const grant = jsonOf(answer) as Record<string, unknown> | undefined;
  const value = grant?.access_token;
  if (typeof value !== 'string' || value === '') return new UpstreamError({ kind: 'malformed', message: `${label}: no access_token in the answer`, upstreamStatus: answer.status });
  const expiresIn = grant?.expires_in === undefined ? DEFAULT_TOKEN_SECONDS : Number(grant.expires_in);
  if (!Number.isFinite(expiresIn) || expiresIn <= 0)
    return new UpstreamError({ kind: 'malformed', message: `${label}: expires_in is not a number of seconds`, upstreamStatus: answer.status });
  return { value, issuedAt, expiresAt: new Date(issuedAt.getTime() + expiresIn * 1000) };
}

/** The PSP refused the token request (a 4xx other than 429, which has its own wait): not worth asking again soon. */
export function isTokenRefusal(error: unknown): boolean {
  const status = error instanceof UpstreamError ? (error.upstreamStatus ?? 0) : 0;
  return error instanceof UpstreamError && error.kind === 'http' && status >= 400 && status < 500 && status !== 429;
}
