import { performance } from 'node:perf_hooks';
import { centsToDecimalString } from '../../domain/money';
import { Secret } from '../../config/app-config';
import type { PaymentStatus } from '../../domain/payment-status';
import {
  type AccountSettings,
  type ChargeLookup,
  type CreateChargeRequest,
  CredentialsError,
  type CredentialsSummary,
  type InboundWebhook,
  type Account,
  type ProviderAdapter,
  type ProviderCharge,
  type ProviderHealth,
  type ProviderRefund,
  type RefundLookup,
  type RefundRequest,
  type SimulatedEventRequest,
  type SimulatedEventResult,
  UpstreamError,
  WebhookAuthError,
} from '../provider-adapter';
import { jsonOf } from '../shared/answers';
import { header, optionalDate, type SandboxRecurringOperation, unexpectedStatus } from './sandbox-http';
import type { OutboundAnswer, OutboundTransport } from '../transport/transport';
import { isSandboxStatus, type SandboxChargeStatus, type SandboxCreateChargeBody, type SandboxRefundBody, wireAmountToCents } from '../../common/sandbox-wire/sandbox-api';
import { parseSandboxEvent } from './sandbox-events';
import { readSandboxPix } from './sandbox-pix';
import { readSandboxRefund, sandboxProviderRefund, sandboxRefundReport } from './sandbox-refunds';
import { sandboxDescriptor } from './sandbox-descriptor';
import { SandboxRecurring } from './sandbox-recurring';
import type { SandboxSettings } from './sandbox-settings';
import { SANDBOX_SIGNATURE_HEADER, verifySandboxSignature } from '../../common/sandbox-wire/sandbox-signature';
import type { ProviderEvent, RefundReport } from '../../domain/provider-event';
import type { ProviderDescriptor } from '../provider-descriptor';

/** Largest response body read from the sandbox; a charge is well under 1 KiB. */
const MAX_RESPONSE_BYTES = 256 * 1024;
/** A health probe should fail fast even when the upstream timeout is long. */
const HEALTH_TIMEOUT_MS = 3_000;
/**
 * Sockets to the simulated PSP per lane. It is the gateway itself, or a process beside it, and
 * answers in about a millisecond: a create should never wait for a socket under load.
 */
const SANDBOX_MAX_SOCKETS = 512;

/** The sandbox's statuses in the gateway's terms. Exhaustive: a new sandbox status will not compile until mapped. */
export function sandboxStatusToPaymentStatus(status: SandboxChargeStatus): PaymentStatus {
  switch (status) {
    case 'ATIVA':
      return 'pending';
    case 'CONCLUIDA':
      return 'paid';
    case 'EXPIRADA':
      return 'expired';
    case 'CANCELADA':
      return 'cancelled';
    case 'FALHOU':
      return 'failed';
    case 'DEVOLVIDA':
      return 'refunded';
    default: {
      const unmapped: never = status;
      throw new UpstreamError({ kind: 'malformed', message: `Unmapped sandbox status ${String(unmapped)}` });
    }
  }
}

export { parseSandboxEvent } from './sandbox-events';

type Operation = 'create' | 'get' | 'cancel' | 'refund' | 'get refund' | 'health' | 'simulate' | SandboxRecurringOperation;

/** The built-in account's id: the provider's name (payments made through it have no provider account). */
export const SANDBOX_BUILT_IN_ACCOUNT = 'sandbox';

/**
 * A sandbox account's credentials (docs/providers.md, the sandbox): the secret the simulated PSP
 * signs this account's events with. Optional outside production, where unsigned events are the
 * "simulate an event" call; required in production.
 */
export interface SandboxCredentials {
  webhookSecret: Secret | null;
}

/**
 * Adapter for the sandbox PSP (its API: docs/sandbox.md), over the gateway's OutboundTransport.
 * Its built-in account is the gateway's own configuration (SANDBOX_*), used by merchants with no
 * provider accounts; stored `sandbox` accounts carry their own webhook secret. Every failure leaves
 * as an UpstreamError (the transport's, or an answer of the wrong status or shape).
 */
export class SandboxAdapter implements ProviderAdapter<SandboxCredentials> {
  readonly name = 'sandbox';
  readonly descriptor: ProviderDescriptor;
  /** Pix Automático at the simulated PSP (docs/sandbox.md, Recurrences). */
  readonly recurring: SandboxRecurring;

  constructor(
    private readonly transport: OutboundTransport,
    private readonly settings: SandboxSettings,
    private readonly options: { isProduction: boolean; timeoutMs: number },
  ) {
    this.descriptor = sandboxDescriptor({ baseUrl: settings.baseUrl, isProduction: options.isProduction });
    this.recurring = new SandboxRecurring((operation, method, path, data, headers) => this.call(operation, method, path, data, headers), {
      isProduction: options.isProduction,
      webhookSecretFor: accountWebhookSecret,
    });
  }

  builtInAccount(): Account<SandboxCredentials> {
    return {
      id: SANDBOX_BUILT_IN_ACCOUNT,
      provider: this.name,
      environment: 'sandbox',
      baseUrl: this.settings.baseUrl,
      tokenUrl: null,
      pixKey: null,
      credentials: { webhookSecret: this.settings.webhookSecret ?? null },
    };
  }

  /**
   * A sandbox account is always served by the gateway's own simulated PSP (SANDBOX_BASE_URL), the
   * only place the gateway-wide SANDBOX_API_TOKEN may go: a `base_url` of its own is refused here,
   * when the operator saves it, rather than silently ignored or sent the token (which would hand
   * the gateway's credential to whoever runs that host). Calls never read an account's base URL.
   */
  parseCredentials(input: unknown, settings: AccountSettings): SandboxCredentials {
    if (settings.baseUrl !== null && trimSlashes(settings.baseUrl) !== trimSlashes(this.settings.baseUrl)) {
      throw new CredentialsError('base_url', "must be left out: sandbox accounts use the gateway's simulated PSP (SANDBOX_BASE_URL)");
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new CredentialsError('credentials', 'must be an object');
    const { webhook_secret: secret, ...rest } = input as Record<string, unknown>;
    const unknown = Object.keys(rest);
    if (unknown.length) throw new CredentialsError(`credentials.${unknown[0]}`, 'is not a sandbox credential (only webhook_secret)');
    if (secret === undefined || secret === null) {
      // Production applies only authenticated events: an unsigned sandbox would let anyone move payments.
      if (this.options.isProduction) throw new CredentialsError('credentials.webhook_secret', 'is required in production');
      return { webhookSecret: null };
    }
    if (typeof secret !== 'string' || secret.length < 16 || secret.length > 256) {
      throw new CredentialsError('credentials.webhook_secret', 'must be a string of 16 to 256 characters');
    }
    return { webhookSecret: new Secret(secret) };
  }

  summarizeCredentials(_credentials: SandboxCredentials): CredentialsSummary {
    return {};
  }

  async createCharge(account: Account<SandboxCredentials>, request: CreateChargeRequest): Promise<ProviderCharge> {
    const body: SandboxCreateChargeBody = {
      txid: request.txid,
      amount: centsToDecimalString(request.amountCents),
      currency: request.currency,
      description: request.description,
      externalId: request.externalId,
      // The gateway's payer is its API's recipient: the simulated PSP's wire speaks the merchant's word.
      recipient: { document: request.payer.document, name: request.payer.name },
      expiresIn: request.expiresInSeconds,
      notificationUrl: request.notificationUrl,
      ...(accountWebhookSecret(account) ? { webhookSecret: accountWebhookSecret(account) } : {}),
    };
    const response = await this.call('create', 'POST', '/charges', body, { 'idempotency-key': request.txid });
    // 201 created, 200 the same txid again (the charge created by an earlier, maybe lost, attempt).
    if (response.status !== 200 && response.status !== 201) throw unexpectedStatus('create', response);
    return toProviderCharge(response, 'create');
  }

  async getCharge(account: Account<SandboxCredentials>, ref: ChargeLookup): Promise<ProviderCharge> {
    const response = await this.call('get', 'GET', `/charges/${encodeURIComponent(chargeRef(ref))}`);
    if (response.status !== 200) throw unexpectedStatus('get', response);
    return toProviderCharge(response, 'get');
  }

  /** Cancels an open charge; the sandbox answers any other as it stands (paid meanwhile: paid). */
  async cancelCharge(_account: Account<SandboxCredentials>, ref: ChargeLookup): Promise<ProviderCharge> {
    const response = await this.call('cancel', 'POST', `/charges/${encodeURIComponent(chargeRef(ref))}/cancel`, {});
    if (response.status !== 200) throw unexpectedStatus('cancel', response);
    return toProviderCharge(response, 'cancel');
  }

  /**
   * A refund keyed by the gateway's refund id (`PUT /charges/:id/refunds/:refundId`): the same id
   * again is the same refund (200), never a second one. A refusal (over what is left, an unpaid
   * charge) is an http 400 with the sandbox's code and words.
   */
  async refund(_account: Account<SandboxCredentials>, request: RefundRequest): Promise<ProviderRefund> {
    const body: SandboxRefundBody = { amount: centsToDecimalString(request.amountCents), reason: request.reason };
    const path = `/charges/${encodeURIComponent(chargeRef(request.charge))}/refunds/${encodeURIComponent(request.refundId)}`;
    const response = await this.call('refund', 'PUT', path, body);
    if (response.status !== 200 && response.status !== 201) throw unexpectedStatus('refund', response);
    return sandboxProviderRefund(toSandboxRefund(response, 'refund'), request.refundId);
  }

  /** Reads a refund by the sandbox's id, or by the gateway's refund id when its answer was lost (the sandbox finds either). */
  async getRefund(_account: Account<SandboxCredentials>, ref: RefundLookup): Promise<ProviderRefund> {
    const response = await this.call('get refund', 'GET', `/refunds/${encodeURIComponent(ref.providerRefundId ?? ref.refundId)}`);
    if (response.status !== 200) throw unexpectedStatus('get refund', response);
    return sandboxProviderRefund(toSandboxRefund(response, 'get refund'), ref.refundId);
  }

  /**
   * One sandbox event per callback, signed over the raw body (docs/api.md, The sandbox signature
   * scheme). Verification comes before anything reads the body's meaning.
   */
  async receiveWebhook(account: Account<SandboxCredentials>, request: InboundWebhook): Promise<ProviderEvent[]> {
    const secret = account.credentials.webhookSecret?.reveal();
    // Without a secret the sandbox's events are unsigned, by design, but only outside production:
    // there nobody may move a payment with an unauthenticated request, so no secret means no event.
    const verified = secret === undefined ? !this.options.isProduction : verifySandboxSignature(header(request.headers, SANDBOX_SIGNATURE_HEADER), request.rawBody, secret);
    if (!verified) throw new WebhookAuthError('The sandbox signature is missing or wrong.');
    return Promise.resolve([parseSandboxEvent(undefined, request.rawBody)]);
  }

  async check(_account: Account<SandboxCredentials>): Promise<ProviderHealth> {
    const started = performance.now();
    try {
      const response = await this.call('health', 'GET', '/health', undefined, undefined, Math.min(this.options.timeoutMs, HEALTH_TIMEOUT_MS));
      const latencyMs = Math.round(performance.now() - started);
      if (response.status !== 200) return { ok: false, latencyMs, detail: `HTTP ${response.status}` };
      const status = (jsonOf(response) as { status?: unknown } | undefined)?.status;
      return status === 'ok' ? { ok: true, latencyMs } : { ok: false, latencyMs, detail: 'unexpected health body' };
    } catch (error) {
      return { ok: false, latencyMs: Math.round(performance.now() - started), detail: (error as Error).message };
    }
  }

  /**
   * Makes the simulated PSP move the charge and post a real, signed event to the charge's
   * notification URL, so the gateway's whole intake path runs; the sandbox answers after that post.
   */
  async simulateEvent(account: Account<SandboxCredentials>, ref: ChargeLookup, request: SimulatedEventRequest): Promise<SimulatedEventResult> {
    const body = { event: request.event, ...(request.amountCents === undefined ? {} : { amount: centsToDecimalString(request.amountCents) }) };
    const response = await this.call('simulate', 'POST', `/charges/${encodeURIComponent(chargeRef(ref))}/simulate`, body);
    if (response.status !== 202 && response.status !== 200) throw unexpectedStatus('simulate', response);
    const answer = jsonOf(response) as Partial<SimulatedEventResult> | undefined;
    if (typeof answer?.eventId !== 'string' || typeof answer.delivered !== 'boolean' || typeof answer.charge !== 'object' || answer.charge === null) {
      throw new UpstreamError({ kind: 'malformed', message: 'Sandbox simulate: unexpected answer', upstreamStatus: response.status });
    }
    return { eventId: answer.eventId, delivered: answer.delivered, status: typeof answer.status === 'number' ? answer.status : null, charge: answer.charge };
  }

  /** One HTTP exchange to the gateway's simulated PSP, whatever account it is for (see parseCredentials). */
  private async call(
    operation: Operation,
    method: 'GET' | 'POST' | 'PUT',
    path: string,
    data?: unknown,
    headers?: Record<string, string>,
    timeoutMs: number = this.options.timeoutMs,
  ): Promise<OutboundAnswer> {
    return this.transport.send({
      label: `Sandbox ${operation}`,
      method,
      url: new URL(trimSlashes(this.settings.baseUrl) + path),
      body: data === undefined ? undefined : JSON.stringify(data),
      // The adapter authenticates every call, as a real PSP client presents its API key.
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${this.settings.apiToken.reveal()}`,
        ...(data === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      channel: { key: SANDBOX_BUILT_IN_ACCOUNT, maxSockets: SANDBOX_MAX_SOCKETS },
      timeoutMs,
      maxResponseBytes: MAX_RESPONSE_BYTES,
    });
  }
}

/**
 * A stored account's events are signed with its own secret; the built-in account's with the secret
 * the simulated PSP was mounted with (SANDBOX_WEBHOOK_SECRET), so none is sent for it.
 */
function accountWebhookSecret(account: Account<SandboxCredentials>): string | undefined {
  return account.id !== SANDBOX_BUILT_IN_ACCOUNT && account.credentials.webhookSecret ? account.credentials.webhookSecret.reveal() : undefined;
}

const trimSlashes = (url: string) => url.replace(/\/+$/, '');
/** The sandbox finds a charge by its own id or by the txid, before the gateway learnt the id. */
const chargeRef = (ref: ChargeLookup) => ref.providerPaymentId ?? ref.txid;

function toProviderCharge(response: OutboundAnswer, operation: Operation): ProviderCharge {
  const body = jsonOf(response);
  const malformed = (why: string) => new UpstreamError({ kind: 'malformed', message: `Sandbox ${operation}: ${why}`, upstreamStatus: response.status });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw malformed('the body is not a JSON object');
  const charge = body as Record<string, unknown>;
  if (typeof charge.id !== 'string' || charge.id === '') throw malformed('no charge id');
  if (typeof charge.txid !== 'string' || charge.txid === '') throw malformed('no txid');
  if (!isSandboxStatus(charge.status)) throw malformed(`unknown status ${JSON.stringify(charge.status)}`);
  const amountCents = typeof charge.amount === 'string' ? wireAmountToCents(charge.amount) : undefined;
  if (amountCents === undefined) throw malformed('amount is not a two-place decimal string');
  if (typeof charge.pixCopiaECola !== 'string' || charge.pixCopiaECola === '') throw malformed('no pixCopiaECola');
  const expiresAt = optionalDate(charge.expiresAt);
  const paidAt = optionalDate(charge.paidAt);
  if (expiresAt === undefined) throw malformed('expiresAt is not a date');
  if (paidAt === undefined) throw malformed('paidAt is not a date');
  const refunds = readRefunds(charge.refunds);
  if (typeof refunds === 'string') throw malformed(refunds);
  const pix = readSandboxPix(charge.pix);
  if (typeof pix === 'string') throw malformed(pix);
  return {
    ...(pix ? { pix } : {}),
    refunds,
    providerPaymentId: charge.id,
    txid: charge.txid,
    status: sandboxStatusToPaymentStatus(charge.status),
    amountCents,
    copyPaste: charge.pixCopiaECola,
    expiresAt,
    paidAt,
  };
}

/** The charge's refunds (listed once it has any: absent is none), or why they do not read. */
function readRefunds(value: unknown): RefundReport[] | string {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return 'refunds is not a list';
  const reports: RefundReport[] = [];
  for (const entry of value) {
    const refund = readSandboxRefund(entry);
    if (typeof refund === 'string') return `refunds: ${refund}`;
    reports.push(sandboxRefundReport(refund));
  }
  return reports;
}

function toSandboxRefund(response: OutboundAnswer, operation: Operation) {
  const refund = readSandboxRefund(jsonOf(response));
  if (typeof refund === 'string') throw new UpstreamError({ kind: 'malformed', message: `Sandbox ${operation}: ${refund}`, upstreamStatus: response.status });
  return refund;
}
