import type { Account } from '../provider-adapter';
import type { Channel, OutboundAnswer, OutboundRequest, OutboundTransport } from '../transport/transport';
import type { PixApiCredentials } from './credentials';
import { type ApiCall, apiRequest, type BuiltRequest, endpointsOf, orThrow } from './flows/api-call';
import { isTokenRefusal, parseToken, refusesScopes, scopesOf, tokenRequest } from './flows/token';
import { RateLimitGate, untilAborted } from '../support/limits';
import type { PixApiProfile } from './profile';
import { type AccessToken, TokenCache, tokenKey } from './token-cache';

export type Lane = NonNullable<Channel['lane']>;

export interface PixApiClientOptions {
  clock: { now(): Date };
  transport: OutboundTransport;
  /** How long a refused token request is not asked again (default 30 s). */
  tokenRefusalMs?: number;
  /** The wait after a 429 without a usable Retry-After (default 10 s). */
  retryAfterDefaultMs?: number;
}

export interface CallOptions {
  timeoutMs: number;
  /** The transport's lane: `callbacks` for read-backs of callbacks, `payments` (default) otherwise. */
  lane?: Lane;
  signal?: AbortSignal;
  /** Obtain a new token whatever is cached (the health check proves the credentials as they are now). */
  freshToken?: boolean;
}

/**
 * Sends the flows' requests for one profile: the account's channel (its certificate, its lane), its
 * OAuth2 token (cached, refreshed once on a 401), and the PSP's own limits: a 429 holds that account's
 * lane until its Retry-After, a refused token request is not repeated for a while.
 */
export class PixApiClient {
  readonly tokens: TokenCache;
  private readonly gate: RateLimitGate;
  private readonly retryAfterDefaultMs: number;

  constructor(
    private readonly profile: PixApiProfile,
    private readonly options: PixApiClientOptions,
  ) {
    const now = () => options.clock.now();
    this.tokens = new TokenCache({ now, isRefusal: isTokenRefusal, refusalMs: options.tokenRefusalMs ?? 30_000 });
    this.gate = new RateLimitGate(now);
    this.retryAfterDefaultMs = options.retryAfterDefaultMs ?? 10_000;
  }

  /** One API call with the account's token: any answer comes back; no answer is an UpstreamError. */
  async call(account: Account<PixApiCredentials>, call: ApiCall, options: CallOptions): Promise<OutboundAnswer> {
    const { tokenUrl } = endpointsOf(this.profile, account);
    const key = this.tokenKeyOf(account, tokenUrl);
    const fetch = () => this.fetchToken(account, tokenUrl, options);
    // A token fetch is shared by every caller waiting for it: one caller giving up does not end it.
    const token = await untilAborted(options.freshToken ? this.tokens.fresh(key, fetch) : this.tokens.get(key, fetch), options.signal);
    const answer = await this.send(account, apiRequest(this.profile, account, call, token.value), options);
    if (answer.status !== 401) return answer;
    // Revoked or expired early: one fresh token, one more try; a second 401 is the answer.
    this.tokens.invalidate(key, token);
    const renewed = await untilAborted(this.tokens.get(key, fetch), options.signal);
    return this.send(account, apiRequest(this.profile, account, call, renewed.value), options);
  }

  /**
   * Everything that defines the account's token: the API it is for, where it comes from, the
   * client id and secret, and the certificate it is bound to (RFC 8705 tokens are).
   */
  tokenKeyOf(account: Account<PixApiCredentials>, tokenUrl: string): string {
    const { clientId, clientSecret, tls } = account.credentials;
    const { apiBase } = endpointsOf(this.profile, account);
    return tokenKey(account.id, [this.profile.name, apiBase, tokenUrl, clientId, clientSecret, tls.certificatePem, tls.privateKeyPem, tls.caPem]);
  }

  private async fetchToken(account: Account<PixApiCredentials>, tokenUrl: string, options: CallOptions): Promise<AccessToken> {
    const tokenOptions = { ...options, signal: undefined };
    const issuedAt = this.options.clock.now();
    let answer = await this.send(account, tokenRequest(this.profile, account.credentials, tokenUrl, scopesOf(this.profile)), tokenOptions);
    if (refusesScopes(this.profile, answer)) answer = await this.send(account, tokenRequest(this.profile, account.credentials, tokenUrl, null), tokenOptions);
    return orThrow(parseToken(this.profile, answer, issuedAt));
  }

  private async send(account: Account<PixApiCredentials>, built: BuiltRequest, options: CallOptions): Promise<OutboundAnswer> {
    const lane = options.lane ?? 'payments';
    const gateKey = `${account.id}|${lane}`;
    this.gate.check(gateKey, built.label);
    const request: OutboundRequest = { ...built, channel: { key: account.id, tls: account.credentials.tls, lane }, timeoutMs: options.timeoutMs, signal: options.signal };
    const answer = await untilAborted(this.options.transport.send(request), options.signal);
    if (answer.status === 429) this.gate.record(gateKey, built.label, answer, this.retryAfterDefaultMs);
    return answer;
  }
}
