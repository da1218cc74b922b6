import { performance } from 'node:perf_hooks';
import { centsToDecimalString } from '../../domain/money';
import { mtlsFingerprint } from '../http/mtls-agent';
import { httpFailure, jsonOf, problemOf, unexpectedAnswer } from '../transport/answers';
import { HttpTransport } from '../transport/http-transport';
import { type Channel, type HttpMethod, type OutboundAnswer as HttpsAnswer, OutboundTransport } from '../transport/transport';
import { type AccessToken, TokenCache } from '../http/token-cache';
import { type CreateChargeRequest, type ProviderDescriptor, type ProviderHealth, UpstreamError, WebhookParseError } from '../provider-adapter';
import {
  type AccountSettings,
  type ChargeLookup,
  CredentialsError,
  type CredentialsSummary,
  type InboundWebhook,
  type Account,
  type ProviderAdapter,
  type ProviderCapabilities,
  type ProviderRefund,
  type RefundLookup,
  type RefundRequest,
  WebhookAuthError,
} from '../provider-adapter';
import { type PixApiCredentials, parsePixApiCredentials, summarizePixApiCredentials } from './credentials';
import { pixApiDescriptor } from './descriptor';
import type { PixApiOperation, PixApiProfile, RequestContext } from './profile';
import { PIX_TXID, pixDevolucaoId } from './txid';
import {
  type Cob,
  type Devolucao,
  devolucaoRefundStatus,
  isEndToEndId,
  type Pix,
  type PixApiCharge,
  pixDetails,
  readCob,
  readDevolucao,
  readPix,
  toPixApiCharge,
  wireCents,
} from './wire';
import type { ProviderEvent } from '../../domain/provider-event';

export interface PixApiAdapterOptions {
  /** Where "now" comes from: charge expiry, certificate validity, token lifetimes. */
  clock?: { now(): Date };
  /** Per HTTP exchange (a token request, an API call), in milliseconds (default 10 s). */
  timeoutMs?: number;
  /** Per exchange of a health check (default 3 s: a check should fail fast). */
  checkTimeoutMs?: number;
  /** The outbound transport every call goes through (one per gateway). */
  transport?: OutboundTransport;
  /** How many callback entries are read back from the PSP at once (default 4). */
  readBackConcurrency?: number;
}

/** A devolução in the gateway's terms, with the PSP's own return id. */
export interface PixApiRefund extends ProviderRefund {
  endToEndId: string;
  /** The SPI's return id (`D…`), once the PSP has one. */
  rtrId: string | null;
}

/** Most distinct Pix one callback may name: each is read back from the PSP, so a forged batch must not become a flood of calls. */
const MAX_CALLBACK_ENTRIES = 100;
/** `solicitacaoPagador` and `descricao` (pacs.008/pacs.004 RemittanceInformation) hold at most 140 characters; `devedor.nome` 200. */
const MAX_PAYER_REQUEST = 140;
const MAX_DEBTOR_NAME = 200;
/** Token lifetime assumed when a PSP leaves out `expires_in` (RFC 6749 makes it optional). */
const DEFAULT_TOKEN_SECONDS = 300;

/**
 * The Central Bank's Pix API (API Pix v2) over mutual TLS and OAuth2 client credentials, for any
 * PSP that speaks it; each bank is a profile of this one adapter (banks/). Per account: one
 * `https.Agent` with its certificate (token calls included), one cached token refreshed once on a
 * 401. Charges are `PUT /cob/{txid}` with the gateway's txid, so a retry is the same request; the
 * BR Code is the PSP's own; callbacks prove nothing by themselves and each entry is read back.
 */
export class PixApiAdapter implements ProviderAdapter<PixApiCredentials> {
  readonly name: string;
  readonly capabilities: ProviderCapabilities = { refund: true, partialRefund: true, cancel: true, registerWebhook: true, txid: 'gateway' };
  get descriptor(): ProviderDescriptor {
    return pixApiDescriptor(this.profile, this.capabilities);
  }
  private readonly clock: { now(): Date };
  private readonly timeoutMs: number;
  private readonly checkTimeoutMs: number;
  private readonly readBackConcurrency: number;
  private readonly transport: OutboundTransport;
  private readonly tokens: TokenCache;

  constructor(
    readonly profile: PixApiProfile,
    options: PixApiAdapterOptions = {},
  ) {
    this.name = profile.name;
    this.clock = options.clock ?? { now: () => new Date() };
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.checkTimeoutMs = options.checkTimeoutMs ?? 3_000;
    this.readBackConcurrency = options.readBackConcurrency ?? 4;
    this.transport = options.transport ?? new HttpTransport();
    this.tokens = new TokenCache(() => this.clock.now());
  }

  /** Forgets every account's tokens (shutdown); the transport's owner closes its connections. */
  close(): void {
    this.tokens.clear();
  }

  // ---- Credentials ---------------------------------------------------------------------------

  parseCredentials(input: unknown, settings: AccountSettings): PixApiCredentials {
    const credentials = parsePixApiCredentials(input, this.profile, this.clock.now());
    this.endpoints(settings);
    if (!settings.pixKey) throw new CredentialsError('pix_key', `is required: ${this.profile.displayName} charges are made to the account's Pix key`);
    return credentials;
  }

  summarizeCredentials(credentials: PixApiCredentials): CredentialsSummary {
    return summarizePixApiCredentials(credentials);
  }

  // ---- Charges -------------------------------------------------------------------------------

  async createCharge(account: Account<PixApiCredentials>, request: CreateChargeRequest): Promise<PixApiCharge> {
    if (!PIX_TXID.test(request.txid)) throw new TypeError('createCharge: txid must be 26 to 35 letters and digits');
    const chave = this.pixKey(account);
    const body: Record<string, unknown> = {
      calendario: { expiracao: request.expiresInSeconds },
      devedor: devedorOf(request.debtor),
      valor: { original: centsToDecimalString(request.amountCents) },
      chave,
    };
    const solicitacao = clip(request.description?.trim() ?? '', MAX_PAYER_REQUEST);
    if (solicitacao !== '') body.solicitacaoPagador = solicitacao;

    const label = this.label('create charge');
    let answer = await this.call(account, 'create charge', 'PUT', `/cob/${request.txid}`, { body });
    if (answer.status === 400 && refusesDebtorCpf(body, answer)) {
      // The document writes the CPF's pattern as a regex literal, "/^\d{11}$/", which as a JSON
      // Schema pattern demands the slashes: a PSP validating with it as published refuses every
      // `devedor.cpf`. `devedor` is optional in CobSolicitada, so the charge is asked for without it.
      const { devedor: _refused, ...withoutDebtor } = body;
      answer = await this.call(account, 'create charge', 'PUT', `/cob/${request.txid}`, { body: withoutDebtor });
    }
    // The standard says 201; several banks answer 200 (see each profile's `answers`).
    if (answer.status === 200 || answer.status === 201) return this.withBrCode(account, this.cob(label, answer));
    const failure = unexpectedAnswer(label, answer);
    // Some PSPs refuse a second PUT of a txid they hold (and all refuse one of a paid charge): when
    // that txid's charge is this one (same amount, same key), a retry gets it, never a second.
    if (isRefusal(answer.status)) {
      const existing = await this.findCob(account, request.txid);
      if (existing?.amountCents === request.amountCents && existing.chave === chave) return this.withBrCode(account, existing);
    }
    throw failure;
  }

  /**
   * A created charge with its BR Code. `pixCopiaECola` is optional in the standard's `CobGerada`
   * (none of its examples has it), and the gateway never makes one itself: when the creation's
   * answer has none, the charge is read once (`GET /cob/{txid}`, whose `CobCompleta` may carry
   * it); a charge without one either way is an answer the gateway cannot use.
   */
  private async withBrCode(account: Account<PixApiCredentials>, cob: Cob): Promise<PixApiCharge> {
    if (cob.copyPaste !== null) return toPixApiCharge(cob, this.clock.now());
    const read = await this.findCob(account, cob.txid);
    if (read?.copyPaste != null) return toPixApiCharge(read, this.clock.now());
    const fields = this.profile.copyPasteFields.join(' or ');
    throw new UpstreamError({ kind: 'malformed', message: `${this.label('create charge')}: no BR Code (${fields}) in the charge, created or read back` });
  }

  async getCharge(account: Account<PixApiCredentials>, ref: ChargeLookup): Promise<PixApiCharge> {
    const label = this.label('read charge');
    const answer = await this.call(account, 'read charge', 'GET', `/cob/${encodeURIComponent(ref.txid)}`);
    if (answer.status !== 200) throw unexpectedAnswer(label, answer);
    return toPixApiCharge(this.cob(label, answer), this.clock.now());
  }

  async cancelCharge(account: Account<PixApiCredentials>, ref: ChargeLookup): Promise<PixApiCharge> {
    const label = this.label('cancel charge');
    const path = `/cob/${encodeURIComponent(ref.txid)}`;
    const answer = await this.call(account, 'cancel charge', 'PATCH', path, { body: { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' } });
    if (answer.status === 200) return toPixApiCharge(this.cob(label, answer), this.clock.now());
    const failure = unexpectedAnswer(label, answer);
    // Refused because it is no longer ATIVA (paid in the meantime, already removed): the charge as
    // the PSP now holds it is the answer.
    if (isRefusal(answer.status)) {
      const current = await this.findCob(account, ref.txid);
      if (current && current.status !== null && current.status !== 'ATIVA') return toPixApiCharge(current, this.clock.now());
    }
    throw failure;
  }

  // ---- Refunds (devoluções) -----------------------------------------------------------------

  async refund(account: Account<PixApiCredentials>, request: RefundRequest): Promise<PixApiRefund> {
    if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) throw new TypeError('refund: amountCents must be a positive whole number');
    const id = pixDevolucaoId(request.refundId);
    const endToEndId = request.endToEndId ?? (await this.paidEndToEndId(account, request.charge.txid));
    const body: Record<string, unknown> = { valor: centsToDecimalString(request.amountCents) };
    const descricao = clip(request.reason?.trim() ?? '', MAX_PAYER_REQUEST);
    if (descricao !== '') body.descricao = descricao;

    const label = this.label('refund');
    const answer = await this.call(account, 'refund', 'PUT', `/pix/${endToEndId}/devolucao/${id}`, { body });
    if (answer.status === 200 || answer.status === 201) return toRefund(request.refundId, endToEndId, readDevolucao(label, answer.status, jsonOf(answer)));
    const failure = unexpectedAnswer(label, answer);
    // A retried refund whose first answer was lost: the PSP refuses the id it already holds, and
    // the devolução it holds is this one when it is for the same amount.
    if (isRefusal(answer.status)) {
      const existing = await this.findDevolucao(account, endToEndId, id);
      if (existing?.amountCents === request.amountCents) return toRefund(request.refundId, endToEndId, existing);
    }
    throw failure;
  }

  async getRefund(account: Account<PixApiCredentials>, ref: RefundLookup): Promise<PixApiRefund> {
    if (!ref.endToEndId) throw new TypeError('getRefund: a Pix API devolução is found by the endToEndId of the Pix it returns');
    const id = ref.providerRefundId ?? pixDevolucaoId(ref.refundId);
    const label = this.label('read refund');
    const answer = await this.call(account, 'read refund', 'GET', `/pix/${encodeURIComponent(ref.endToEndId)}/devolucao/${encodeURIComponent(id)}`);
    if (answer.status !== 200) throw unexpectedAnswer(label, answer);
    return toRefund(ref.refundId, ref.endToEndId, readDevolucao(label, answer.status, jsonOf(answer)));
  }

  // ---- Webhooks ------------------------------------------------------------------------------

  async registerWebhook(account: Account<PixApiCredentials>, url: string): Promise<void> {
    const chave = this.profile.webhookKey ? this.profile.webhookKey(this.pixKey(account)) : this.pixKey(account);
    const answer = await this.call(account, 'register webhook', 'PUT', `/webhook/${encodeURIComponent(chave)}`, {
      body: { webhookUrl: url },
      headers: this.profile.webhookHeaders?.(account.credentials),
    });
    // The standard says 200; Efí documents 201 and Inter 204 (see their profiles).
    if (answer.status !== 200 && answer.status !== 201 && answer.status !== 204) throw unexpectedAnswer(this.label('register webhook'), answer);
  }

  /**
   * A Pix callback: `{"pix": [...]}` as the standard has it, or the bare list Inter posts
   * (https://developers.bancointer.com.br/v4/reference, Pix webhook "Callback payload samples",
   * read from a copy of that page: re-check). The body proves
   * nothing: each distinct endToEndId is read back with the account's credentials (`GET
   * /pix/{e2eid}`, then its charge), and only what the PSP confirms (same txid, same amount, a
   * concluded charge that holds that Pix) becomes an event, with the PSP's values. An entry the
   * PSP does not know, or knows otherwise, is dropped; a callback with entries none of which the
   * PSP confirms is a WebhookAuthError. A PSP that cannot be reached is an UpstreamError (the
   * callback is refused, and the PSP sends it again).
   */
  async receiveWebhook(account: Account<PixApiCredentials>, request: InboundWebhook): Promise<ProviderEvent[]> {
    const entries = callbackEntries(request.rawBody);
    if (entries.length === 0) return [];
    const confirmed = await mapLimit(entries, this.readBackConcurrency, (entry) => this.confirm(account, entry));
    const events = confirmed.filter((result): result is Confirmed => result !== null);
    if (events.length === 0) throw new WebhookAuthError(`${this.profile.displayName}: none of the ${entries.length} Pix in the callback is confirmed by the PSP`);
    return events.flatMap((result) => result.events);
  }

  private async confirm(account: Account<PixApiCredentials>, entry: CallbackEntry): Promise<Confirmed | null> {
    const pix = await this.findPix(account, entry.endToEndId);
    if (pix?.txid == null) return null; // unknown here, or a Pix no charge asked for
    if (entry.txid !== undefined && entry.txid !== pix.txid) return null;
    if (entry.valor !== undefined && wireCents(entry.valor) !== pix.amountCents) return null;
    const cob = await this.findCob(account, pix.txid);
    if (cob?.status !== 'CONCLUIDA') return null;
    if (cob.pix.length > 0 && !cob.pix.some((paid) => paid.endToEndId === pix.endToEndId)) return null;

    if (entry.devolucaoIds.length > 0) {
      // A devolução reached its final status: the PSP must hold every one the entry names.
      if (!entry.devolucaoIds.every((id) => pix.devolucoes.some((devolucao) => devolucao.id === id))) return null;
      return { events: refundEvents(pix) };
    }
    return {
      events: [{ eventId: `pix:${pix.endToEndId}`, type: 'payment.confirmed', paymentRef: pix.txid, amountCents: pix.amountCents, occurredAt: pix.horario, pix: pixDetails(pix) }],
    };
  }

  // ---- Health --------------------------------------------------------------------------------

  /**
   * A token, then the cheapest read every PSP has: the charges of the last minute (`GET
   * /cob?inicio=&fim=`, times without milliseconds, the only form Santander takes:
   * https://github.com/frones/ACBr/blob/master/Fontes/ACBrPIXCD/ACBrPIXPSPSantander.pas).
   * Never throws: an unreachable PSP or refused credentials are `ok: false` with the reason.
   */
  async check(account: Account<PixApiCredentials>): Promise<ProviderHealth> {
    const started = performance.now();
    const latencyMs = () => Math.round(performance.now() - started);
    try {
      const now = this.clock.now();
      const seconds = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
      const answer = await this.call(account, 'list charges', 'GET', '/cob', {
        query: { inicio: seconds(new Date(now.getTime() - 60_000)), fim: seconds(now) },
        timeoutMs: this.checkTimeoutMs,
      });
      if (answer.status === 200) return { ok: true, latencyMs: latencyMs() };
      return { ok: false, latencyMs: latencyMs(), detail: httpFailure(this.label('list charges'), answer).message };
    } catch (error) {
      return { ok: false, latencyMs: latencyMs(), detail: error instanceof Error ? error.message : String(error) };
    }
  }

  // ---- Reads that may find nothing -----------------------------------------------------------

  private async findCob(account: Account<PixApiCredentials>, txid: string): Promise<Cob | null> {
    const label = this.label('read charge');
    const answer = await this.call(account, 'read charge', 'GET', `/cob/${encodeURIComponent(txid)}`);
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw unexpectedAnswer(label, answer);
    return this.cob(label, answer);
  }

  private async findPix(account: Account<PixApiCredentials>, endToEndId: string): Promise<Pix | null> {
    const label = this.label('read pix');
    const answer = await this.call(account, 'read pix', 'GET', `/pix/${endToEndId}`);
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw unexpectedAnswer(label, answer);
    return readPix(label, answer.status, jsonOf(answer));
  }

  private async findDevolucao(account: Account<PixApiCredentials>, endToEndId: string, id: string): Promise<Devolucao | null> {
    const label = this.label('read refund');
    const answer = await this.call(account, 'read refund', 'GET', `/pix/${endToEndId}/devolucao/${id}`);
    if (answer.status === 404) return null;
    if (answer.status !== 200) throw unexpectedAnswer(label, answer);
    return readDevolucao(label, answer.status, jsonOf(answer));
  }

  /** The Pix that paid a charge, for a refund asked for by charge. */
  private async paidEndToEndId(account: Account<PixApiCredentials>, txid: string): Promise<string> {
    const cob = await this.findCob(account, txid);
    const pix = cob?.pix[0];
    if (!pix) throw new TypeError(`refund: the charge ${txid} holds no Pix to return`);
    return pix.endToEndId;
  }

  private cob(label: string, answer: HttpsAnswer): Cob {
    return readCob(label, answer.status, jsonOf(answer), this.profile.copyPasteFields);
  }

  // ---- HTTP ----------------------------------------------------------------------------------

  private label(operation: PixApiOperation | 'token'): string {
    return `${this.profile.displayName}: ${operation}`;
  }

  private pixKey(account: Account<PixApiCredentials>): string {
    if (!account.pixKey) throw new CredentialsError('pix_key', `is required: ${this.profile.displayName} charges are made to the account's Pix key`);
    return account.pixKey;
  }

  /** The account's API base and token URL: its own overrides, else the profile's for its environment. */
  private endpoints(settings: AccountSettings): { apiBase: string; overridden: boolean; tokenUrl: string } {
    const apiBase = settings.baseUrl ?? this.profile.apiBase[settings.environment];
    const tokenUrl = settings.tokenUrl ?? this.profile.tokenUrl[settings.environment];
    const where = `${this.profile.displayName} has no ${settings.environment} address the gateway can use`;
    if (!apiBase) throw new CredentialsError('base_url', `is required: ${where}`);
    if (!tokenUrl) throw new CredentialsError('token_url', `is required: ${where}`);
    httpsUrl(apiBase, 'base_url');
    httpsUrl(tokenUrl, 'token_url');
    return { apiBase: apiBase.replace(/\/+$/, ''), overridden: settings.baseUrl !== null, tokenUrl };
  }

  private tokenKey(account: Account<PixApiCredentials>, tokenUrl: string): string {
    return [account.id, mtlsFingerprint(account.credentials.tls), account.credentials.clientId, tokenUrl].join('|');
  }

  /**
   * One API call with the account's token and agent; a 401 drops that token and the call is made
   * once more with a fresh one. Any answer comes back; no answer is an UpstreamError.
   */
  private async call(
    account: Account<PixApiCredentials>,
    operation: PixApiOperation,
    method: HttpMethod,
    path: string,
    options: { body?: unknown; query?: Record<string, string>; headers?: Record<string, string>; timeoutMs?: number } = {},
  ): Promise<HttpsAnswer> {
    const context: RequestContext = { operation, environment: account.environment, credentials: account.credentials };
    const { apiBase, overridden, tokenUrl } = this.endpoints(account);
    const base = overridden || !this.profile.routeBase ? apiBase : this.profile.routeBase(operation, apiBase);
    const url = new URL(`${base}${path}`);
    for (const [name, value] of Object.entries({ ...this.profile.query?.(context), ...options.query })) url.searchParams.set(name, value);
    const channel: Channel = { key: account.id, tls: account.credentials.tls };
    const timeoutMs = options.timeoutMs ?? this.timeoutMs;
    const body = options.body === undefined ? undefined : JSON.stringify(options.body);
    const key = this.tokenKey(account, tokenUrl);
    const tokenFor = () => this.tokens.get(key, () => this.fetchToken(account, tokenUrl, channel, timeoutMs));

    const send = (token: AccessToken) =>
      this.transport.send({
        label: this.label(operation),
        method,
        url,
        channel,
        timeoutMs,
        body,
        headers: {
          ...this.profile.headers?.(context),
          ...options.headers,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          authorization: `Bearer ${token.value}`,
        },
      });
    const token = await tokenFor();
    const answer = await send(token);
    if (answer.status !== 401) return answer;
    // Revoked or expired early: one fresh token, one more try; a second 401 is the answer.
    this.tokens.invalidate(key, token);
    return send(await tokenFor());
  }

  /**
   * RFC 6749 section 4.4, written the way the profile's PSP takes it, over the account's agent. A
   * PSP that refuses the scopes asked for (`invalid_scope`, section 5.2: "exceeds the scope granted",
   * e.g. an application without `webhook.read`) is asked once more without any, which section 3.3
   * has it answer with the client's default scopes.
   */
  private async fetchToken(account: Account<PixApiCredentials>, tokenUrl: string, channel: Channel, timeoutMs: number): Promise<AccessToken> {
    const scopes = this.profile.token.scopes;
    const label = this.label('token');
    const issuedAt = this.clock.now();
    let answer = await this.requestToken(account, tokenUrl, channel, timeoutMs, scopes);
    if (scopes && answer.status === 400 && problemOf(jsonOf(answer)).code === 'invalid_scope') answer = await this.requestToken(account, tokenUrl, channel, timeoutMs, null);
    if (answer.status !== 200 && answer.status !== 201) throw unexpectedAnswer(label, answer);
    const grant = jsonOf(answer) as Record<string, unknown> | undefined;
    const value = grant?.access_token;
    if (typeof value !== 'string' || value === '')
      throw new UpstreamError({ kind: 'malformed', message: `${label}: no access_token in the answer`, upstreamStatus: answer.status });
    const expiresIn = grant?.expires_in === undefined ? DEFAULT_TOKEN_SECONDS : Number(grant.expires_in);
    if (!Number.isFinite(expiresIn) || expiresIn <= 0)
      throw new UpstreamError({ kind: 'malformed', message: `${label}: expires_in is not a number of seconds`, upstreamStatus: answer.status });
    return { value, issuedAt, expiresAt: new Date(issuedAt.getTime() + expiresIn * 1000) };
  }

  private async requestToken(account: Account<PixApiCredentials>, tokenUrl: string, channel: Channel, timeoutMs: number, scopes: readonly string[] | null): Promise<HttpsAnswer> {
    const style = this.profile.token;
    const credentials = account.credentials;
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
    return this.transport.send({ label: this.label('token'), method: 'POST', url, channel, timeoutMs, headers, body });
  }
}

// ---- Helpers -----------------------------------------------------------------------------------

interface CallbackEntry {
  endToEndId: string;
  txid?: string;
  valor?: string;
  devolucaoIds: string[];
}

interface Confirmed {
  events: ProviderEvent[];
}

/**
 * Events of a Pix's devoluções. None yet: ProviderEvent cannot say which refund a
 * `payment.refunded` settles (see the place kept for it in the report of the adapter), so a
 * refund's callback is confirmed, and answered 200, without moving anything; reading the refund
 * (getRefund) tells its status meanwhile.
 */
function refundEvents(pix: Pix): ProviderEvent[] {
  void pix;
  return [];
}

/** The entries of a Pix callback, one per endToEndId (the first wins), or WebhookParseError for anything else. */
function callbackEntries(rawBody: Buffer): CallbackEntry[] {
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

/** Whether a 400 to `PUT /cob` refuses the debtor's CPF (its `violacoes`, or its words, name the CPF) of a body that has one. */
function refusesDebtorCpf(body: Record<string, unknown>, answer: HttpsAnswer): boolean {
  if (typeof (body.devedor as { cpf?: unknown } | undefined)?.cpf !== 'string') return false;
  const problem = problemOf(jsonOf(answer));
  return /\bcpf\b/i.test([problem.message ?? '', ...(problem.violations ?? []).map((v) => `${v.property ?? ''} ${v.reason ?? ''}`)].join(' '));
}

/** A PSP's test notification: an object with an `evento` and no `pix`. */
function isRegistrationTest(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && typeof (body as { evento?: unknown }).evento === 'string' && !('pix' in body);
}

/** A refusal that says something about the resource (not the credentials, not "no such route"): worth a read-back. */
function isRefusal(status: number): boolean {
  return status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 404 && status !== 429;
}

function toRefund(refundId: string, endToEndId: string, devolucao: Devolucao): PixApiRefund {
  const status = devolucaoRefundStatus(devolucao.status);
  return {
    refundId,
    providerRefundId: devolucao.id,
    status,
    amountCents: devolucao.amountCents,
    failureReason: status === 'failed' ? (devolucao.reason ?? 'not carried out') : null,
    endToEndId,
    rtrId: devolucao.rtrId,
  };
}

/** `devedor`: a CPF (11 digits) or a CNPJ (14, letters allowed from 2026), by length, and the name. */
function devedorOf(debtor: CreateChargeRequest['debtor']): Record<string, string> {
  const document = debtor.document.replace(/[.\-/\s]/g, '').toUpperCase();
  const nome = clip(debtor.name.trim(), MAX_DEBTOR_NAME);
  if (/^\d{11}$/.test(document)) return { cpf: document, nome };
  if (/^[0-9A-Z]{12}\d{2}$/.test(document)) return { cnpj: document, nome };
  throw new TypeError('createCharge: the debtor document must be a CPF (11 digits) or a CNPJ (14 characters)');
}

/** At most `max` UTF-16 units, never cutting a character in two. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let out = '';
  for (const char of text) {
    if (out.length + char.length > max) break;
    out += char;
  }
  return out;
}

function httpsUrl(value: string, field: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CredentialsError(field, 'is not a URL');
  }
  if (url.protocol !== 'https:') throw new CredentialsError(field, 'must be an https URL (the Pix API is mutual TLS)');
}

/** `fn` over `items`, at most `limit` at a time, results in order; the first failure fails the whole. */
async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
