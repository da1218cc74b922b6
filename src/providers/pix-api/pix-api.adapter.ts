import { performance } from 'node:perf_hooks';
import type { ProviderEvent } from '../../domain/provider-event';
import {
  type Account,
  type AccountSettings,
  type ChargeBatchItem,
  type ChargeBatchRequest,
  type ChargeChange,
  type ChargeLookup,
  type CreateChargeRequest,
  type CredentialsSummary,
  type InboundCallback,
  type ProviderAdapter,
  type ProviderHealth,
  type RefundLookup,
  type RefundRequest,
  UpstreamError,
  WebhookAuthError,
} from '../provider-adapter';
import { httpFailure } from '../support/answers';
import type { OutboundAnswer, OutboundTransport } from '../transport/transport';
import { type PixApiCredentials, parsePixApiCredentials, summarizePixApiCredentials } from './credentials';
import { type ApiCall, endpointsOf, isRefusal, labelOf, orThrow, pixKeyOf, pixApiFailure } from './flows/api-call';
import { callbackEntries, confirmedEvents, pixConfirms, type CallbackEntry } from './flows/callback';
import { isConcluded, cancelChargeCall, parseCancelledCharge } from './flows/cancel';
import { createChargeCall, isSameCharge, noBrCode, parseCreatedCharge, withoutRefusedCpf } from './flows/charge';
import { createChargeBatchCall, parseChargeBatch, parseChargeBatchAccepted, readChargeBatchCall } from './flows/charge-batch';
import { cancelDueChargeCall, createDueChargeCall, parseDueCharge, parseReadDueCharge, readDueChargeCall, updateDueChargeCall } from './flows/due-charge';
import { listRecentChargesCall, parseCob, parseDevolucao, parsePix, readCobCall, readDevolucaoCall, readPixCall } from './flows/read';
import { assertRefundAmount, parseRefund, type PixApiRefund, refundCall, toRefund } from './flows/refund';
import { parseRecurringWebhookRegistration, parseWebhookRegistration, registerRecurringWebhookCalls, registerWebhookCall } from './flows/webhook';
import { PixApiRecurring } from './pix-api.recurring';
import { KeyedLimiter } from '../support/limits';
import { type CallOptions, PixApiClient } from './client';
import type { PixApiProfile } from './profile';
import { readBack } from './read-backs';
import { pixDevolucaoId } from './txid';
import { type ChargeRecord, isCobV, type PixApiCharge, toPixApiCharge } from './wire';

export type { PixApiRefund } from './flows/refund';
import { pixApiDescriptor } from './descriptor';
import type { ProviderDescriptor } from '../provider-descriptor';

export interface PixApiAdapterOptions {
  /** Where "now" comes from: charge expiry, certificate validity, token lifetimes, waits after a refusal or a 429. */
  clock?: { now(): Date };
  /** Per HTTP exchange (a token request, an API call), in milliseconds (default 10 s). */
  timeoutMs?: number;
  /** Per exchange of a health check (default 3 s: a check should fail fast). */
  checkTimeoutMs?: number;
  /** How many callback read-backs of one account run at once, all its callbacks together (default 4). */
  readBackConcurrency?: number;
  /** Per read-back exchange of a callback (default 5 s, or `timeoutMs` when shorter). */
  callbackTimeoutMs?: number;
  /** For all the read-backs of one callback (default 15 s): past it the callback is an UpstreamError. */
  callbackBudgetMs?: number;
  /** How long a token request the PSP refused is not repeated (default 30 s). */
  tokenRefusalMs?: number;
  /** The wait after a 429 whose Retry-After is missing or unreadable (default 10 s). */
  retryAfterDefaultMs?: number;
}

/**
 * The Central Bank's Pix API (API Pix v2) over mutual TLS and OAuth2 client credentials, for any
 * PSP that speaks it; each bank is a profile of this one adapter (banks/). The flows (flows/) build
 * each request and parse each answer; this class only wires them to the client (token, 401 refresh,
 * limits) and makes the read-backs that answers call for: a create or cancel the PSP refused, a
 * callback, which proves nothing by itself.
 */
export class PixApiAdapter implements ProviderAdapter<PixApiCredentials> {
  readonly name: string;
  readonly descriptor: ProviderDescriptor;
  /** Pix Automático: present exactly when the profile declares it (`profile.recurring`, hence the descriptor's capability). */
  readonly recurring?: PixApiRecurring;
  /** `PATCH /cobv/{txid}`: present exactly when the profile declares due-date charges. */
  readonly updateCharge?: (account: Account<PixApiCredentials>, ref: ChargeLookup, change: ChargeChange) => Promise<PixApiCharge>;
  /** `PUT` and `GET /lotecobv/{id}`: present exactly when the profile declares batches. */
  readonly createChargeBatch?: (account: Account<PixApiCredentials>, batch: ChargeBatchRequest) => Promise<void>;
  readonly getChargeBatch?: (account: Account<PixApiCredentials>, id: string) => Promise<ChargeBatchItem[]>;
  private readonly clock: { now(): Date };
  private readonly timeoutMs: number;
  private readonly checkTimeoutMs: number;
  private readonly callbackTimeoutMs: number;
  private readonly callbackBudgetMs: number;
  private readonly readBacks: KeyedLimiter;
  private readonly client: PixApiClient;

  /** `transport`: the gateway's one outbound client, which every call of every account goes through. */
  constructor(
    transport: OutboundTransport,
    readonly profile: PixApiProfile,
    options: PixApiAdapterOptions = {},
  ) {
    this.name = profile.name;
    this.descriptor = pixApiDescriptor(profile);
    this.clock = options.clock ?? { now: () => new Date() };
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.checkTimeoutMs = options.checkTimeoutMs ?? 3_000;
    this.callbackTimeoutMs = options.callbackTimeoutMs ?? Math.min(5_000, this.timeoutMs);
    this.callbackBudgetMs = options.callbackBudgetMs ?? 15_000;
    this.readBacks = new KeyedLimiter(options.readBackConcurrency ?? 4);
    this.client = new PixApiClient(profile, {
      clock: this.clock,
      transport,
      tokenRefusalMs: options.tokenRefusalMs,
      retryAfterDefaultMs: options.retryAfterDefaultMs,
    });
    if (this.descriptor.capabilities.recurring) {
      this.recurring = new PixApiRecurring({
        profile,
        clock: this.clock,
        send: (account, call, callOptions) => this.send(account, call, callOptions),
        readBacks: this.readBacks,
        callbackTimeoutMs: this.callbackTimeoutMs,
        callbackBudgetMs: this.callbackBudgetMs,
      });
    }
    if (profile.dueCharges) this.updateCharge = (account, ref, change) => this.changeDueCharge(account, ref, change);
    const batches = profile.chargeBatches;
    if (batches) {
      if (!profile.dueCharges) throw new TypeError(`${profile.displayName}: batches of due-date charges are declared without due-date charges`);
      this.createChargeBatch = (account, batch) => this.putChargeBatch(account, batch, batches.maxCharges);
      this.getChargeBatch = (account, id) => this.get(account, readChargeBatchCall(id), parseChargeBatch);
    }
  }

  /** Forgets every account's tokens (shutdown); the transport's owner closes its connections. */
  close(): void {
    this.client.tokens.clear();
  }

  parseCredentials(input: unknown, settings: AccountSettings): PixApiCredentials {
    const credentials = parsePixApiCredentials(input, this.profile, this.clock.now());
    endpointsOf(this.profile, settings);
    pixKeyOf(this.profile, { ...settings, id: '', provider: this.name, credentials });
    return credentials;
  }

  summarizeCredentials(credentials: PixApiCredentials): CredentialsSummary {
    return summarizePixApiCredentials(credentials);
  }

  /** An immediate charge (`PUT /cob/{txid}`), or a due-date charge (`PUT /cobv/{txid}`) when the request has `due`. */
  async createCharge(account: Account<PixApiCredentials>, request: CreateChargeRequest): Promise<PixApiCharge> {
    if (request.due) return this.createDueCharge(account, request);
    const chave = pixKeyOf(this.profile, account);
    const call = createChargeCall(request, chave);
    let answer = await this.send(account, call);
    const withoutCpf = withoutRefusedCpf(call, answer);
    if (withoutCpf) answer = await this.send(account, withoutCpf);
    const created = parseCreatedCharge(this.profile, answer);
    if (!(created instanceof UpstreamError)) return this.withBrCode(account, created);
    // Some PSPs refuse a second PUT of a txid they hold (and all refuse one of a paid charge): when
    // that txid's charge is this one, a retry gets it, never a second.
    if (isRefusal(answer.status)) {
      const existing = await this.find(account, readCobCall(request.txid), parseCob);
      if (isSameCharge(existing, request, chave)) return this.withBrCode(account, existing);
    }
    throw created;
  }

  /** `PUT /cobv/{txid}`; a create refused because the txid is taken is answered, as for `cob`, by the charge it holds when it is this one. */
  private async createDueCharge(account: Account<PixApiCredentials>, request: CreateChargeRequest): Promise<PixApiCharge> {
    if (!this.profile.dueCharges) throw new TypeError(`createCharge: ${this.profile.displayName} declares no due-date charges`);
    const chave = pixKeyOf(this.profile, account);
    const answer = await this.send(account, createDueChargeCall(request, chave));
    const created = parseDueCharge(this.profile, 'create due charge', answer);
    if (!(created instanceof UpstreamError)) return this.withBrCode(account, created);
    if (isRefusal(answer.status)) {
      const existing = await this.find(account, readDueChargeCall(request.txid), parseReadDueCharge);
      if (isSameCharge(existing, request, chave)) return this.withBrCode(account, existing);
    }
    throw created;
  }

  /**
   * A created charge with its BR Code. `pixCopiaECola` is optional in the standard's `CobGerada`
   * and `CobVGerada`, and the gateway never makes one itself: without it the charge is read once
   * (`CobCompleta`, `CobVCompleta` may carry it).
   */
  private async withBrCode(account: Account<PixApiCredentials>, charge: ChargeRecord): Promise<PixApiCharge> {
    if (charge.copyPaste !== null) return toPixApiCharge(charge, this.clock.now());
    const read = await this.findCharge(account, charge.txid, isCobV(charge));
    if (read?.copyPaste != null) return toPixApiCharge(read, this.clock.now());
    throw noBrCode(this.profile, isCobV(charge) ? 'create due charge' : 'create charge');
  }

  /** `GET /cob/{txid}`, or `GET /cobv/{txid}` for a due-date charge (`ref.due`). */
  async getCharge(account: Account<PixApiCredentials>, ref: ChargeLookup): Promise<PixApiCharge> {
    const charge = ref.due ? await this.get(account, readDueChargeCall(ref.txid), parseReadDueCharge) : await this.get(account, readCobCall(ref.txid), parseCob);
    return toPixApiCharge(charge, this.clock.now());
  }

  /** `PATCH /cob/{txid}` (or `/cobv/{txid}`) to `REMOVIDA_PELO_USUARIO_RECEBEDOR`; refused, the charge as now held when it is no longer open. */
  async cancelCharge(account: Account<PixApiCredentials>, ref: ChargeLookup): Promise<PixApiCharge> {
    const call = ref.due ? cancelDueChargeCall(ref.txid) : cancelChargeCall(ref.txid);
    const answer = await this.send(account, call);
    const cancelled = ref.due ? parseDueCharge(this.profile, 'cancel due charge', answer) : parseCancelledCharge(this.profile, answer);
    if (!(cancelled instanceof UpstreamError)) return toPixApiCharge(cancelled, this.clock.now());
    if (isRefusal(answer.status)) {
      const current = await this.findCharge(account, ref.txid, ref.due === true);
      if (isConcluded(current)) return toPixApiCharge(current, this.clock.now());
    }
    throw cancelled;
  }

  /**
   * `PATCH /cobv/{txid}` to `change`'s amount and terms; the answer (the same BR Code) in the
   * gateway's terms. A change refused because the charge is no longer open (paid or removed
   * meanwhile) is answered with the charge as now held, whose status says so: the caller changed
   * nothing unless it is still `pending`.
   */
  private async changeDueCharge(account: Account<PixApiCredentials>, ref: ChargeLookup, change: ChargeChange): Promise<PixApiCharge> {
    const answer = await this.send(account, updateDueChargeCall(ref.txid, change));
    const changed = parseDueCharge(this.profile, 'update due charge', answer);
    if (!(changed instanceof UpstreamError)) return toPixApiCharge(changed, this.clock.now());
    if (isRefusal(answer.status)) {
      const current = await this.findCharge(account, ref.txid, true);
      if (isConcluded(current)) return toPixApiCharge(current, this.clock.now());
    }
    throw changed;
  }

  /** `PUT /lotecobv/{id}`; its charges' outcomes are read with getChargeBatch. */
  private async putChargeBatch(account: Account<PixApiCredentials>, batch: ChargeBatchRequest, maxCharges: number): Promise<void> {
    const call = createChargeBatchCall(batch, pixKeyOf(this.profile, account), maxCharges);
    orThrow(parseChargeBatchAccepted(this.profile, await this.send(account, call)));
  }

  async refund(account: Account<PixApiCredentials>, request: RefundRequest): Promise<PixApiRefund> {
    assertRefundAmount(request);
    const id = pixDevolucaoId(request.refundId);
    const endToEndId = request.endToEndId ?? (await this.paidEndToEndId(account, request.charge));
    const answer = await this.send(account, refundCall(request, endToEndId, id));
    const made = parseRefund(this.profile, answer);
    if (!(made instanceof UpstreamError)) return toRefund(request.refundId, endToEndId, made);
    // A retried refund whose first answer was lost: the PSP refuses the id it already holds, and
    // the devolução it holds is this one when it is for the same amount.
    if (isRefusal(answer.status)) {
      const existing = await this.find(account, readDevolucaoCall(endToEndId, id), parseDevolucao);
      if (existing?.amountCents === request.amountCents) return toRefund(request.refundId, endToEndId, existing);
    }
    throw made;
  }

  async getRefund(account: Account<PixApiCredentials>, ref: RefundLookup): Promise<PixApiRefund> {
    if (!ref.endToEndId) throw new TypeError('getRefund: a Pix API devolução is found by the endToEndId of the Pix it returns');
    const id = ref.providerRefundId ?? pixDevolucaoId(ref.refundId);
    return toRefund(ref.refundId, ref.endToEndId, await this.get(account, readDevolucaoCall(ref.endToEndId, id), parseDevolucao));
  }

  /**
   * The Pix webhook; with Pix Automático, the recurrences' and the recurring charges' too, at the
   * same URL (an account the PSP gives no Pix Automático keeps its Pix webhook: see
   * parseRecurringWebhookRegistration).
   */
  async registerWebhook(account: Account<PixApiCredentials>, url: string): Promise<void> {
    orThrow(parseWebhookRegistration(this.profile, await this.send(account, registerWebhookCall(this.profile, account, url))));
    if (!this.profile.recurring) return;
    for (const call of registerRecurringWebhookCalls(this.profile, account, url)) {
      orThrow(parseRecurringWebhookRegistration(this.profile, call, await this.send(account, call)));
    }
  }

  /**
   * A Pix callback. The body proves nothing: each distinct endToEndId is read back with the
   * account's credentials (`GET /pix/{e2eid}`, then its charge) and only what the PSP confirms
   * becomes an event, with the PSP's values. Reading stops at the first entry the PSP does not
   * confirm; a callback none of whose entries is confirmed is a WebhookAuthError. Read-backs go on
   * the `callbacks` lane, under the account's cap and the callback's own budget; a PSP that cannot be
   * asked is an UpstreamError (the callback is refused, and the PSP sends it again).
   */
  async receiveCallback(account: Account<PixApiCredentials>, request: InboundCallback): Promise<ProviderEvent[]> {
    const entries = callbackEntries(request.rawBody);
    if (entries.length === 0) return [];
    const results = await readBack(entries, (entry, signal) => this.confirm(account, entry, signal), {
      limiter: this.readBacks,
      limiterKey: account.id,
      budgetMs: this.callbackBudgetMs,
      label: `${this.profile.displayName}: callback`,
    });
    const confirmed = results.filter((result): result is ProviderEvent[] => Array.isArray(result));
    if (confirmed.length === 0) {
      const read = results.filter((result) => result !== undefined).length;
      throw new WebhookAuthError(`${this.profile.displayName}: the PSP confirms none of the ${entries.length} Pix of the callback (${read} read back)`);
    }
    return confirmed.flat();
  }

  /**
   * One entry: its Pix, then the charge it paid. The Pix does not say which kind of charge that is:
   * `GET /cob/{txid}` first (most charges are immediate ones), then, where the profile has due-date
   * charges and there is no such cob, `GET /cobv/{txid}`: a due-date charge costs one read more.
   */
  private async confirm(account: Account<PixApiCredentials>, entry: CallbackEntry, signal: AbortSignal): Promise<ProviderEvent[] | null> {
    const options: CallOptions = { lane: 'callbacks', timeoutMs: this.callbackTimeoutMs, signal };
    const pix = await this.find(account, readPixCall(entry.endToEndId), parsePix, options);
    if (!pixConfirms(entry, pix)) return null;
    const cob = await this.find(account, readCobCall(pix.txid), parseCob, options);
    const charge = cob ?? (this.profile.dueCharges ? await this.find(account, readDueChargeCall(pix.txid), parseReadDueCharge, options) : null);
    return confirmedEvents(entry, pix, charge);
  }

  /** A new token (never a cached one: the credentials are what is checked), then one cheap read. Never throws. */
  async check(account: Account<PixApiCredentials>): Promise<ProviderHealth> {
    const started = performance.now();
    const latencyMs = () => Math.round(performance.now() - started);
    try {
      const call = listRecentChargesCall(this.clock.now());
      const answer = await this.send(account, call, { timeoutMs: this.checkTimeoutMs, freshToken: true });
      if (answer.status === 200) return { ok: true, latencyMs: latencyMs() };
      return { ok: false, latencyMs: latencyMs(), detail: httpFailure(labelOf(this.profile, call.operation), answer).message };
    } catch (error) {
      return { ok: false, latencyMs: latencyMs(), detail: error instanceof Error ? error.message : String(error) };
    }
  }

  /** The Pix that paid a charge, for a refund asked for by charge. */
  private async paidEndToEndId(account: Account<PixApiCredentials>, charge: ChargeLookup): Promise<string> {
    const held = await this.findCharge(account, charge.txid, charge.due === true);
    const pix = held?.pix[0];
    if (!pix) throw new TypeError(`refund: the charge ${charge.txid} holds no Pix to return`);
    return pix.endToEndId;
  }

  /** A charge of either kind by its txid, or null (404). */
  private findCharge(account: Account<PixApiCredentials>, txid: string, due: boolean): Promise<ChargeRecord | null> {
    return due ? this.find(account, readDueChargeCall(txid), parseReadDueCharge) : this.find(account, readCobCall(txid), parseCob);
  }

  private send(account: Account<PixApiCredentials>, call: ApiCall, options: Partial<CallOptions> = {}): Promise<OutboundAnswer> {
    return this.client.call(account, call, { timeoutMs: this.timeoutMs, ...options });
  }

  /** A read that may find nothing (null on 404). */
  private async find<T>(
    account: Account<PixApiCredentials>,
    call: ApiCall,
    parse: (profile: PixApiProfile, answer: OutboundAnswer) => T | null | UpstreamError,
    options?: Partial<CallOptions>,
  ): Promise<T | null> {
    return orThrow(parse(this.profile, await this.send(account, call, options)));
  }

  /** A read of something that must exist: a 404 is the PSP's refusal, with its code. */
  private async get<T>(account: Account<PixApiCredentials>, call: ApiCall, parse: (profile: PixApiProfile, answer: OutboundAnswer) => T | null | UpstreamError): Promise<T> {
    const answer = await this.send(account, call);
    const found = orThrow(parse(this.profile, answer));
    if (found === null) throw pixApiFailure(labelOf(this.profile, call.operation), answer);
    return found;
  }
}
