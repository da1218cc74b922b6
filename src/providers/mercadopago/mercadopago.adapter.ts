import { performance } from 'node:perf_hooks';
import type { ProviderEvent } from '../../domain/provider-event';
import {
  type Account,
  type AccountSettings,
  type ChargeLookup,
  type CreateChargeRequest,
  type CredentialsSummary,
  type InboundCallback,
  type ProviderAdapter,
  type ProviderCharge,
  type ProviderHealth,
  type ProviderRefund,
  type RefundLookup,
  type RefundRequest,
  UpstreamError,
  WebhookAuthError,
} from '../provider-adapter';
import { KeyedLimiter } from '../support/limits';
import type { ProviderDescriptor } from '../provider-descriptor';
import type { Channel, OutboundAnswer, OutboundTransport } from '../transport/transport';
import { type MercadoPagoCredentials, parseMercadoPagoCredentials } from './credentials';
import { MERCADO_PAGO_DESCRIPTOR } from './descriptor';
import { apiBaseOf, labelOf, type MpCall, mpFailure, mpRequest, orThrow } from './flows/api-call';
import { assertSigned, eventOf, notifiedPaymentId, readNotification } from './flows/callback';
import {
  cancelPaymentCall,
  checkCall,
  createPaymentCall,
  isConcluded,
  mayHaveRefunds,
  parseCreatedPayment,
  parsePayment,
  parseSearch,
  readPaymentCall,
  searchPaymentCall,
  toCharge,
} from './flows/payment';
import {
  createRefundCall,
  findRefundCall,
  listRefundsCall,
  parseProviderRefundId,
  parseRefund,
  parseRefunds,
  readRefundCall,
  refundNotFound,
  toProviderRefund,
} from './flows/refund';
import type { MpPayment, MpRefund } from './wire';

export interface MercadoPagoAdapterOptions {
  clock?: { now(): Date };
  /** Per call, in milliseconds (default 10 s). */
  timeoutMs?: number;
  /** Per call of a health check (default 3 s). */
  checkTimeoutMs?: number;
  /** The read-back of a notification (default 5 s, or timeoutMs when shorter): Mercado Pago waits about 22 s for an answer. */
  callbackTimeoutMs?: number;
  /** How many notification read-backs of one account run at once (default 4); the others wait, within callbackTimeoutMs. */
  readBackConcurrency?: number;
  /** How far a notification's `ts` may be from now (default 5 minutes). */
  signatureToleranceMs?: number;
}

/**
 * Mercado Pago's payments API (`/v1/payments`) for Pix (docs/providers.md, Mercado Pago). The flows
 * (flows/) build each request and parse each answer; this class sends them through the gateway's
 * transport with the account's access token, and reads back what a notification names: a
 * notification proves, by its signature, only that something changed.
 */
export class MercadoPagoAdapter implements ProviderAdapter<MercadoPagoCredentials> {
  readonly name = 'mercadopago';
  readonly descriptor: ProviderDescriptor = MERCADO_PAGO_DESCRIPTOR;
  private readonly clock: { now(): Date };
  private readonly timeoutMs: number;
  private readonly checkTimeoutMs: number;
  private readonly callbackTimeoutMs: number;
  private readonly signatureToleranceMs: number | undefined;
  private readonly readBacks: KeyedLimiter;

  /** `transport`: the gateway's one outbound client, which every call of every account goes through. */
  constructor(
    private readonly transport: OutboundTransport,
    options: MercadoPagoAdapterOptions = {},
  ) {
    this.clock = options.clock ?? { now: () => new Date() };
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.checkTimeoutMs = options.checkTimeoutMs ?? 3_000;
    this.callbackTimeoutMs = options.callbackTimeoutMs ?? Math.min(5_000, this.timeoutMs);
    this.signatureToleranceMs = options.signatureToleranceMs;
    this.readBacks = new KeyedLimiter(options.readBackConcurrency ?? 4);
  }

  parseCredentials(input: unknown, settings: AccountSettings): MercadoPagoCredentials {
    const credentials = parseMercadoPagoCredentials(input, settings);
    apiBaseOf(settings);
    return credentials;
  }

  summarizeCredentials(): CredentialsSummary {
    // Nothing about an access token or a secret is shown.
    return {};
  }

  async createCharge(account: Account<MercadoPagoCredentials>, request: CreateChargeRequest): Promise<ProviderCharge> {
    const now = this.clock.now();
    const created = orThrow(parseCreatedPayment(await this.send(account, createPaymentCall(request, now))));
    return toCharge(created, request.txid, this.clock.now());
  }

  /**
   * Reads a payment by Mercado Pago's id; one whose id the gateway never learnt (its create answer
   * was lost) by the gateway's payment id, its `external_reference`: none found is http 404. A paid
   * payment comes with every refund Mercado Pago lists for it.
   */
  async getCharge(account: Account<MercadoPagoCredentials>, ref: ChargeLookup): Promise<ProviderCharge> {
    const payment = ref.providerPaymentId ? await this.read(account, ref.providerPaymentId) : await this.found(account, ref);
    return toCharge(payment, ref.txid, this.clock.now(), await this.refundsIfPaid(account, payment));
  }

  /** Cancels a payment still pending; one that was paid (or ended) meanwhile is answered as it is. */
  async cancelCharge(account: Account<MercadoPagoCredentials>, ref: ChargeLookup): Promise<ProviderCharge> {
    const id = ref.providerPaymentId ?? (await this.found(account, ref)).id;
    const answer = await this.send(account, cancelPaymentCall(id));
    const cancelled = parsePayment('cancel payment', answer);
    if (!(cancelled instanceof UpstreamError)) return toCharge(cancelled, ref.txid, this.clock.now());
    if (answer.status >= 400 && answer.status < 500 && answer.status !== 401 && answer.status !== 403 && answer.status !== 429) {
      const current = await this.read(account, id).catch(() => null);
      if (isConcluded(current, this.clock.now())) return toCharge(current, ref.txid, this.clock.now(), await this.refundsIfPaid(account, current));
    }
    throw cancelled;
  }

  /**
   * `POST /v1/payments/{id}/refunds` with the amount and the refund id as X-Idempotency-Key: the
   * same refund id again is answered with the refund already made, never a second one (as Mercado
   * Pago first answered it: its status then may be older than the refund's). A refusal is http with
   * Mercado Pago's cause; a timeout or a 5xx is ambiguous, and asking again with the same refund id
   * is safe.
   */
  async refund(account: Account<MercadoPagoCredentials>, request: RefundRequest): Promise<ProviderRefund> {
    const paymentId = request.charge.providerPaymentId ?? (await this.found(account, request.charge)).id;
    const answer = await this.send(account, createRefundCall(paymentId, request.refundId, request.amountCents));
    return toProviderRefund(orThrow(parseRefund('create refund', answer)), paymentId, request.refundId);
  }

  /**
   * A refund by its `providerRefundId` (`<payment id>/<refund id>`), read under its payment. One
   * whose answer was lost (no providerRefundId) is found by its refund id's key (findRefundCall):
   * a payment with no refund at all, or a key Mercado Pago refuses as new, is http 404
   * `refund_not_found`, and the refund may then be asked for again with the same refund id.
   */
  async getRefund(account: Account<MercadoPagoCredentials>, ref: RefundLookup): Promise<ProviderRefund> {
    if (ref.providerRefundId !== null) {
      const ids = parseProviderRefundId(ref.providerRefundId, ref.charge?.providerPaymentId ?? null);
      if (!ids) throw new TypeError('a Mercado Pago providerRefundId is "<payment id>/<refund id>", or a refund id with the charge');
      const read = orThrow(parseRefund('read refund', await this.send(account, readRefundCall(ids.paymentId, ids.refundId))));
      return toProviderRefund(read, ids.paymentId, ref.refundId);
    }
    if (!ref.charge) throw new TypeError('a Mercado Pago refund whose answer was lost is found under its payment: the lookup needs the charge');
    const payment = ref.charge.providerPaymentId ? await this.read(account, ref.charge.providerPaymentId) : await this.found(account, ref.charge);
    const refunds = await this.refundsOf(account, payment.id);
    if (refunds.length === 0) throw refundNotFound('the payment has no refund');
    const answer = await this.send(account, findRefundCall(payment.id, ref.refundId, payment.amountCents));
    const found = parseRefund('find refund', answer);
    if (found instanceof UpstreamError) {
      // 409 is an idempotency conflict: a request was made with that key, so the refund is not "not found".
      if (answer.status >= 400 && answer.status < 500 && ![401, 403, 409, 429].includes(answer.status)) {
        throw refundNotFound('Mercado Pago made no refund with that key');
      }
      throw found;
    }
    // The key's answer is the refund as first made: its status now is the list's.
    return toProviderRefund(refunds.find((refund) => refund.id === found.id) ?? found, payment.id, ref.refundId);
  }

  /**
   * A notification. The signature is checked first (WebhookAuthError when missing, wrong or stale);
   * a topic other than `payment` is then acknowledged with no event; a payment's is read back with
   * the account's token and becomes the event its status amounts to. A payment Mercado Pago does not
   * know under this account confirms nothing (WebhookAuthError); a Mercado Pago that cannot be asked
   * is an UpstreamError (the notification is refused, and Mercado Pago sends it again).
   */
  async receiveCallback(account: Account<MercadoPagoCredentials>, request: InboundCallback): Promise<ProviderEvent[]> {
    const notification = readNotification(request);
    assertSigned(notification, account.credentials.webhookSecret, this.clock.now(), this.signatureToleranceMs);
    if (notification.topic !== 'payment') return [];
    const { payment, refunds } = await this.readBack(account, notifiedPaymentId(notification));
    const now = this.clock.now();
    return eventOf(payment, toCharge(payment, '', now), now, refunds);
  }

  /**
   * A notification's read-back (the payment, and its refunds once paid): on the callbacks' own
   * sockets, at most `readBackConcurrency` at once per account, waiting and reading within
   * callbackTimeoutMs in all (Mercado Pago posts again when not answered in about 22 s): a flood of
   * notifications never takes payment creation's connections.
   */
  private async readBack(account: Account<MercadoPagoCredentials>, id: string): Promise<{ payment: MpPayment; refunds: MpRefund[] }> {
    const started = performance.now();
    const budget = AbortSignal.timeout(this.callbackTimeoutMs);
    // Each call gets what is left of the budget when it starts, the wait for a turn included.
    const left = () => ({ lane: 'callbacks' as const, timeoutMs: Math.max(1, this.callbackTimeoutMs - Math.round(performance.now() - started)) });
    try {
      return await this.readBacks.run(account.id, budget, async () => {
        const answer = await this.send(account, readPaymentCall(id), left());
        if (answer.status === 404) throw new WebhookAuthError(`Mercado Pago knows no payment ${id} for this account`);
        const payment = orThrow(parsePayment('read payment', answer));
        const refunds = mayHaveRefunds(payment, this.clock.now()) ? orThrow(parseRefunds(await this.send(account, listRefundsCall(payment.id), left()))) : [];
        return { payment, refunds };
      });
    } catch (error) {
      if (budget.aborted && !(error instanceof UpstreamError) && !(error instanceof WebhookAuthError)) {
        throw new UpstreamError({ kind: 'timeout', message: `${labelOf('read payment')}: no turn for the notification's read-back within its budget` });
      }
      throw error;
    }
  }

  /** One authenticated read (`GET /v1/payment_methods`). Never throws. */
  async check(account: Account<MercadoPagoCredentials>): Promise<ProviderHealth> {
    const started = performance.now();
    const latencyMs = () => Math.round(performance.now() - started);
    try {
      const answer = await this.send(account, checkCall(), { timeoutMs: this.checkTimeoutMs });
      if (answer.status === 200) return { ok: true, latencyMs: latencyMs() };
      return { ok: false, latencyMs: latencyMs(), detail: mpFailure(labelOf('check'), answer).message };
    } catch (error) {
      return { ok: false, latencyMs: latencyMs(), detail: error instanceof Error ? error.message : String(error) };
    }
  }

  /** The newest payment made with the lookup's payment id as `external_reference`. */
  private async found(account: Account<MercadoPagoCredentials>, ref: ChargeLookup): Promise<MpPayment> {
    if (!ref.paymentId) throw new TypeError("Mercado Pago payments are found by their id or by the gateway's payment id (external_reference)");
    const [newest] = orThrow(parseSearch(await this.send(account, searchPaymentCall(ref.paymentId)), ref.paymentId));
    if (!newest) {
      throw new UpstreamError({ kind: 'http', upstreamStatus: 404, providerCode: 'not_found', message: `${labelOf('search payments')}: no payment with that external_reference` });
    }
    return newest;
  }

  /** Every refund of a payment, those in process included. */
  private async refundsOf(account: Account<MercadoPagoCredentials>, paymentId: string): Promise<MpRefund[]> {
    return orThrow(parseRefunds(await this.send(account, listRefundsCall(paymentId))));
  }

  /** A paid payment's refunds; undefined for one never paid, which has none to list. */
  private async refundsIfPaid(account: Account<MercadoPagoCredentials>, payment: MpPayment): Promise<MpRefund[] | undefined> {
    return mayHaveRefunds(payment, this.clock.now()) ? this.refundsOf(account, payment.id) : undefined;
  }

  private async read(account: Account<MercadoPagoCredentials>, id: string): Promise<MpPayment> {
    return orThrow(parsePayment('read payment', await this.send(account, readPaymentCall(id))));
  }

  private send(account: Account<MercadoPagoCredentials>, call: MpCall, options: { lane?: Channel['lane']; timeoutMs?: number } = {}): Promise<OutboundAnswer> {
    return this.transport.send({
      ...mpRequest(account, account.credentials.accessToken, call),
      channel: { key: account.id, tls: account.credentials.tls, lane: options.lane ?? 'payments' },
      timeoutMs: options.timeoutMs ?? this.timeoutMs,
    });
  }
}
