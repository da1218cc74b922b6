import { type Account, type InboundCallback, UpstreamError, WebhookAuthError } from '../provider-adapter';
import type {
  CreateRecurrenceRequest,
  CreateRecurringChargeRequest,
  ProviderRecurrence,
  ProviderRecurringCharge,
  RecurrenceLookup,
  RecurringChargeLookup,
  RecurringReport,
  RecurringProvider,
} from '../recurring';
import type { OutboundAnswer } from '../transport/transport';
import type { PixApiCredentials } from './credentials';
import { type ApiCall, isRefusal, labelOf, orThrow, pixApiFailure } from './flows/api-call';
import {
  assertRecurrenceRequest,
  cancelRecurrenceCall,
  compositeTxidOf,
  createLocationCall,
  createRecurrenceCall,
  isSameRecurrence,
  listRecurrencesCall,
  LOOKBACK_MS,
  MAX_LOOKUP_PAGES,
  parseAuthorizationRequest,
  parseLocation,
  parseQrRead,
  parseReadRecurrence,
  parseRecurrence,
  parseRecurrenceList,
  qrJourneyOf,
  readRecurrenceCall,
  requestAuthorizationCall,
  toProviderRecurrence,
} from './flows/recurrence';
import { confirmedReports, readBackCall, type RecurringCallbackEntry, recurringCallbackEntries } from './flows/recurring-callback';
import {
  cancelRecurringChargeCall,
  createRecurringChargeCall,
  holdsRetryFor,
  isClosed,
  isSameRecurringCharge,
  parseReadRecurringCharge,
  parseRecurringCharge,
  readRecurringChargeCall,
  retryRecurringChargeCall,
  toProviderRecurringCharge,
} from './flows/recurring-charge';
import type { CobR, Rec } from './wire-recurrences';
import type { KeyedLimiter } from '../support/limits';
import type { CallOptions } from './client';
import type { PixApiProfile } from './profile';
import { readBack } from './read-backs';

/** What the recurring flows need of the adapter: its profile, clock, client, and its callbacks' limits. */
export interface RecurringContext {
  profile: PixApiProfile;
  clock: { now(): Date };
  send(account: Account<PixApiCredentials>, call: ApiCall, options?: Partial<CallOptions>): Promise<OutboundAnswer>;
  readBacks: KeyedLimiter;
  callbackTimeoutMs: number;
  callbackBudgetMs: number;
}

type Parse<T> = (profile: PixApiProfile, answer: OutboundAnswer) => T | null | UpstreamError;

/**
 * Pix Automático through the Pix API (`PixApiAdapter.recurring`): the flows (flows/recurrence.ts,
 * flows/recurring-charge.ts, flows/recurring-callback.ts) build each request and parse each answer;
 * this class chains them per journey and makes the read-backs a refusal or a callback calls for.
 */
export class PixApiRecurring implements RecurringProvider<PixApiCredentials> {
  constructor(private readonly context: RecurringContext) {}

  private get profile(): PixApiProfile {
    return this.context.profile;
  }

  /**
   * `qr` (JORNADA_2): a location, the recurrence with it, and the recurrence read for its QR.
   * `qr_with_first_payment` (JORNADA_3): the same, the recurrence naming the first payment's txid
   * (an immediate charge the core made with createCharge) and read with `?txid=` for the composite
   * QR. `qr_with_due_payment` (JORNADA_4): as `qr`, read with `?txid=` of the first payment, a
   * due-date charge (`cobv`) the core made with createCharge, for the composite QR; the recurrence
   * itself names no charge. `request` (JORNADA_1): the recurrence, then the PSP asked to request the
   * payer's authorization.
   *
   * `POST /rec` has no idempotency key, so a creation whose answer was lost would make a second
   * recurrence when retried. Each creation therefore first lists the payer's recent recurrences
   * (`GET /rec` by CPF or CNPJ) and takes over one with the same contract and terms still waiting
   * for the payer, finishing what the lost attempt left undone (the payer's authorization request).
   */
  async createRecurrence(account: Account<PixApiCredentials>, request: CreateRecurrenceRequest): Promise<ProviderRecurrence> {
    assertRecurrenceRequest(request);
    const qr = request.journey !== 'request';
    let rec = await this.findCreated(account, request);
    if (!rec) {
      const locId = qr ? await this.newLocation(account) : null;
      rec = orThrow(parseRecurrence(this.profile, 'create recurrence', await this.context.send(account, createRecurrenceCall(request, locId))));
    }
    if (!qr && rec.requests === 0) await this.requestAuthorization(account, request, rec.idRec);
    const expected = qrJourneyOf(request.journey);
    const read = await this.get(account, readRecurrenceCall(rec.idRec, compositeTxidOf(request)), (profile, answer) => parseQrRead(profile, answer, expected));
    if (qr && read.copyPaste === null) {
      throw new UpstreamError({ kind: 'malformed', message: `${labelOf(this.profile, 'read recurrence')}: no BR Code (dadosQR.pixCopiaECola) for the recurrence's QR` });
    }
    return toProviderRecurrence(this.profile, read);
  }

  async getRecurrence(account: Account<PixApiCredentials>, ref: RecurrenceLookup): Promise<ProviderRecurrence> {
    return toProviderRecurrence(this.profile, await this.get(account, readRecurrenceCall(ref.providerRecurrenceId, ref.firstPaymentTxid), parseReadRecurrence));
  }

  async cancelRecurrence(account: Account<PixApiCredentials>, ref: RecurrenceLookup): Promise<ProviderRecurrence> {
    const answer = await this.context.send(account, cancelRecurrenceCall(ref.providerRecurrenceId));
    const cancelled = parseRecurrence(this.profile, 'cancel recurrence', answer);
    if (!(cancelled instanceof UpstreamError)) return toProviderRecurrence(this.profile, cancelled);
    // Refused because it had already ended (cancelled by the payer meanwhile, expired, rejected):
    // the recurrence as now held is the answer.
    if (isRefusal(answer.status)) {
      const current = await this.find(account, readRecurrenceCall(ref.providerRecurrenceId), parseReadRecurrence);
      if (current && current.status !== null && current.status !== 'CRIADA' && current.status !== 'APROVADA') return toProviderRecurrence(this.profile, current);
    }
    throw cancelled;
  }

  async createCharge(account: Account<PixApiCredentials>, request: CreateRecurringChargeRequest): Promise<ProviderRecurringCharge> {
    const answer = await this.context.send(account, createRecurringChargeCall(request));
    const created = parseRecurringCharge(this.profile, 'create recurring charge', answer);
    if (!(created instanceof UpstreamError)) return toProviderRecurringCharge(this.profile, created);
    // The document refuses a txid in use ("O campo cobr.txid encontra-se em uso"): when the charge
    // that txid holds is this one, a retry after a lost answer gets it, never a second.
    if (isRefusal(answer.status)) {
      const existing = await this.find(account, readRecurringChargeCall(request.txid), parseReadRecurringCharge);
      if (isSameRecurringCharge(existing, request)) return toProviderRecurringCharge(this.profile, existing);
    }
    throw created;
  }

  async getCharge(account: Account<PixApiCredentials>, ref: RecurringChargeLookup): Promise<ProviderRecurringCharge> {
    return toProviderRecurringCharge(this.profile, await this.get(account, readRecurringChargeCall(ref.txid), parseReadRecurringCharge));
  }

  async cancelCharge(account: Account<PixApiCredentials>, ref: RecurringChargeLookup): Promise<ProviderRecurringCharge> {
    const answer = await this.context.send(account, cancelRecurringChargeCall(ref.txid));
    const cancelled = parseRecurringCharge(this.profile, 'cancel recurring charge', answer);
    if (!(cancelled instanceof UpstreamError)) return toProviderRecurringCharge(this.profile, cancelled);
    // Refused because the PSP closed it meanwhile (paid, cancelled): the charge as now held is the answer.
    if (isRefusal(answer.status)) {
      const current = await this.find(account, readRecurringChargeCall(ref.txid), parseReadRecurringCharge);
      if (isClosed(current)) return toProviderRecurringCharge(this.profile, current);
    }
    throw cancelled;
  }

  async retryCharge(account: Account<PixApiCredentials>, ref: RecurringChargeLookup, date: string): Promise<ProviderRecurringCharge> {
    const answer = await this.context.send(account, retryRecurringChargeCall(ref.txid, date));
    const retried = parseRecurringCharge(this.profile, 'retry recurring charge', answer);
    if (!(retried instanceof UpstreamError)) return toProviderRecurringCharge(this.profile, retried);
    // The document refuses a second attempt while one for that date is under way: when the answer
    // to the first was lost, the charge already holds it.
    if (isRefusal(answer.status)) {
      const current = await this.find(account, readRecurringChargeCall(ref.txid), parseReadRecurringCharge);
      if (holdsRetryFor(current, date)) return toProviderRecurringCharge(this.profile, current);
    }
    throw retried;
  }

  /**
   * As the adapter's receiveCallback for Pix: each recurrence or charge the callback names is read
   * back (`GET /rec/{idRec}`, `GET /cobr/{txid}`) on the `callbacks` lane, under the account's cap
   * and the callback's budget, and only what the PSP answers becomes reports.
   */
  async receiveCallback(account: Account<PixApiCredentials>, request: InboundCallback): Promise<RecurringReport[]> {
    const entries = recurringCallbackEntries(request.path, request.rawBody);
    if (entries.length === 0) return [];
    const results = await readBack(entries, (entry, signal) => this.confirm(account, entry, signal), {
      limiter: this.context.readBacks,
      limiterKey: account.id,
      budgetMs: this.context.callbackBudgetMs,
      label: `${this.profile.displayName}: recurring callback`,
    });
    const confirmed = results.filter((result): result is RecurringReport => result !== null && result !== undefined);
    if (confirmed.length === 0) {
      const read = results.filter((result) => result !== undefined).length;
      throw new WebhookAuthError(`${this.profile.displayName}: the PSP confirms none of the ${entries.length} entries of the callback (${read} read back)`);
    }
    return confirmed;
  }

  private async confirm(account: Account<PixApiCredentials>, entry: RecurringCallbackEntry, signal: AbortSignal): Promise<RecurringReport | null> {
    const options: Partial<CallOptions> = { lane: 'callbacks', timeoutMs: this.context.callbackTimeoutMs, signal };
    const answer = await this.context.send(account, readBackCall(entry), options);
    const held: Rec | CobR | null = orThrow(entry.kind === 'recurrence' ? parseReadRecurrence(this.profile, answer) : parseReadRecurringCharge(this.profile, answer));
    return confirmedReports(this.profile, entry, held);
  }

  /** The recurrence a lost answer made for this request, if any (see createRecurrence). */
  private async findCreated(account: Account<PixApiCredentials>, request: CreateRecurrenceRequest): Promise<Rec | null> {
    const now = this.context.clock.now();
    const since = new Date(now.getTime() - LOOKBACK_MS);
    for (let page = 0; page < MAX_LOOKUP_PAGES; page++) {
      const { recs, pages } = orThrow(parseRecurrenceList(this.profile, await this.context.send(account, listRecurrencesCall(request.payer.document, since, now, page))));
      const same = recs.find((rec) => isSameRecurrence(rec, request));
      if (same) return same;
      if (page + 1 >= pages) break;
    }
    return null;
  }

  private async newLocation(account: Account<PixApiCredentials>): Promise<number> {
    return orThrow(parseLocation(this.profile, await this.context.send(account, createLocationCall()))).id;
  }

  /**
   * `POST /solicrec`. The document refuses a second request while one for the same recurrence is
   * active: a refusal is taken when the recurrence, read back, lists a request.
   */
  private async requestAuthorization(account: Account<PixApiCredentials>, request: CreateRecurrenceRequest, idRec: string): Promise<void> {
    const answer = await this.context.send(account, requestAuthorizationCall(request, idRec, this.context.clock.now()));
    const failure = parseAuthorizationRequest(this.profile, answer);
    if (!failure) return;
    if (isRefusal(answer.status) && ((await this.find(account, readRecurrenceCall(idRec), parseReadRecurrence))?.requests ?? 0) > 0) return;
    throw failure;
  }

  private async find<T>(account: Account<PixApiCredentials>, call: ApiCall, parse: Parse<T>): Promise<T | null> {
    return orThrow(parse(this.profile, await this.context.send(account, call)));
  }

  /** A read of something that must exist: a 404 is the PSP's refusal, with its code. */
  private async get<T>(account: Account<PixApiCredentials>, call: ApiCall, parse: Parse<T>): Promise<T> {
    const answer = await this.context.send(account, call);
    const found = orThrow(parse(this.profile, answer));
    if (found === null) throw pixApiFailure(labelOf(this.profile, call.operation), answer);
    return found;
  }
}
