import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { performance } from 'node:perf_hooks';
import { HttpService } from '@nestjs/axios';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { isAxiosError, type AxiosResponse } from 'axios';
import { centsToDecimalString, reaisToCents } from '../../common/money';
import { AppConfig } from '../../config/app-config';
import type { PaymentStatus } from '../../payments/payment-status';
import {
  type ChargeRef,
  type CreateChargeRequest,
  type PaymentProvider,
  PROVIDER_EVENT_TYPES,
  type ProviderCharge,
  type ProviderEvent,
  type ProviderEventType,
  type ProviderHealth,
  UpstreamError,
  WebhookParseError,
  type WebhookRequest,
} from '../payment-provider';
import { isSandboxStatus, type SandboxChargeStatus, type SandboxCreateChargeBody, wireAmountToCents } from './sandbox-api';
import { SANDBOX_SIGNATURE_HEADER, verifySandboxSignature } from './sandbox-signature';

/** Largest response body read from the sandbox; a charge is well under 1 KiB. */
const MAX_RESPONSE_BYTES = 256 * 1024;
/** A health probe should fail fast even when the upstream timeout is long. */
const HEALTH_TIMEOUT_MS = 3_000;

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

type Operation = 'create' | 'get' | 'health';

/**
 * Adapter for the sandbox PSP (its API: docs/sandbox.md), over HTTP through @nestjs/axios. Every failure
 * leaves as an UpstreamError; axios errors never do, since they carry the request (the payer's
 * document and name) into whatever logs them.
 */
@Injectable()
export class SandboxProvider implements PaymentProvider, OnApplicationShutdown {
  readonly name = 'sandbox';
  private readonly baseUrl: string;
  // One pool of kept-alive sockets for the adapter's life: a TCP handshake per create would cost
  // more than the sandbox's own work.
  private readonly httpAgent = new HttpAgent({ keepAlive: true, maxSockets: 512, maxFreeSockets: 256 });
  private readonly httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: 512, maxFreeSockets: 256 });

  constructor(
    private readonly http: HttpService,
    private readonly config: AppConfig,
  ) {
    this.baseUrl = config.sandboxBaseUrl.replace(/\/+$/, '');
  }

  // Not onModuleDestroy: Nest runs that before the HTTP server drains, which cut the upstream calls
  // of requests still in flight at SIGTERM. onApplicationShutdown runs after the drain.
  onApplicationShutdown(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  async createCharge(request: CreateChargeRequest): Promise<ProviderCharge> {
    const body: SandboxCreateChargeBody = {
      txid: request.txid,
      amount: centsToDecimalString(request.amountCents),
      currency: request.currency,
      description: request.description,
      externalId: request.externalId,
      debtor: { document: request.debtor.document, name: request.debtor.name },
      expiresIn: request.expiresInSeconds,
      notificationUrl: request.notificationUrl,
    };
    const response = await this.call('create', 'POST', '/charges', body, { 'idempotency-key': request.txid });
    // 201 created, 200 the same txid again (the charge created by an earlier, maybe lost, attempt).
    if (response.status !== 200 && response.status !== 201) throw unexpectedStatus('create', response);
    return toProviderCharge(response, 'create');
  }

  async getCharge(ref: ChargeRef): Promise<ProviderCharge> {
    const id = ref.providerPaymentId ?? ref.txid;
    const response = await this.call('get', 'GET', `/charges/${encodeURIComponent(id)}`);
    if (response.status !== 200) throw unexpectedStatus('get', response);
    return toProviderCharge(response, 'get');
  }

  verifyWebhook(request: WebhookRequest): boolean {
    const secret = this.config.sandboxWebhookSecret?.reveal();
    // Without a configured secret the sandbox's events are unsigned, by design, but only outside
    // production: there nobody may move a payment with an unauthenticated request, so no secret means no event.
    if (secret === undefined) return !this.config.isProduction;
    return verifySandboxSignature(header(request.headers, SANDBOX_SIGNATURE_HEADER), request.rawBody, secret);
  }

  parseEvent(request: WebhookRequest): ProviderEvent {
    return parseSandboxEvent(request.body, request.rawBody);
  }

  async health(): Promise<ProviderHealth> {
    const started = performance.now();
    try {
      const response = await this.call('health', 'GET', '/health', undefined, undefined, Math.min(this.config.upstreamTimeoutMs, HEALTH_TIMEOUT_MS));
      const latencyMs = Math.round(performance.now() - started);
      if (response.status !== 200) return { ok: false, latencyMs, detail: `HTTP ${response.status}` };
      const status = (parseJson(response.data) as { status?: unknown } | undefined)?.status;
      return status === 'ok' ? { ok: true, latencyMs } : { ok: false, latencyMs, detail: 'unexpected health body' };
    } catch (error) {
      return { ok: false, latencyMs: Math.round(performance.now() - started), detail: (error as Error).message };
    }
  }

  /** One HTTP exchange; the body is kept as text so the adapter, not axios, decides what is malformed. */
  private async call(
    operation: Operation,
    method: 'GET' | 'POST',
    path: string,
    data?: unknown,
    headers?: Record<string, string>,
    timeoutMs: number = this.config.upstreamTimeoutMs,
  ): Promise<AxiosResponse<string>> {
    try {
      return await this.http.axiosRef.request<string>({
        method,
        url: this.baseUrl + path,
        data: data === undefined ? undefined : JSON.stringify(data),
        // The adapter authenticates every call, as a real PSP client presents its API key.
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${this.config.sandboxApiToken.reveal()}`,
          ...(data === undefined ? {} : { 'content-type': 'application/json' }),
          ...headers,
        },
        timeout: timeoutMs,
        httpAgent: this.httpAgent,
        httpsAgent: this.httpsAgent,
        // Axios costs several times the CPU of the socket work here, so skip what the sandbox never
        // needs: proxy discovery from the environment on every call, and its own (de)serialisation.
        proxy: false,
        transformRequest: [(body: unknown) => body],
        responseType: 'text',
        transformResponse: [(text: string) => text],
        validateStatus: null,
        // Native http rather than follow-redirects: a redirect is the sandbox misbehaving anyway.
        maxRedirects: 0,
        maxContentLength: MAX_RESPONSE_BYTES,
        transitional: { clarifyTimeoutError: true },
      });
    } catch (error) {
      throw transportError(operation, error, timeoutMs);
    }
  }
}

/** Maps a failed exchange (no usable HTTP answer) to an UpstreamError, keeping only the error's code as the cause. */
export function transportError(operation: Operation, error: unknown, timeoutMs: number): UpstreamError {
  const code = isAxiosError(error) ? error.code : (error as { code?: unknown } | undefined)?.code;
  const summary = new Error(`${typeof code === 'string' ? code : 'error'}: ${(error as Error | undefined)?.message ?? String(error)}`);
  if (code === 'ETIMEDOUT' || code === 'ECONNABORTED') {
    return new UpstreamError({ kind: 'timeout', message: `Sandbox ${operation}: no answer within ${timeoutMs} ms`, cause: summary });
  }
  // ERR_BAD_RESPONSE is also a response cut off mid-way, which is a network failure like a reset.
  if (code === 'ERR_BAD_RESPONSE' && (error as Error).message.includes('maxContentLength')) {
    return new UpstreamError({ kind: 'malformed', message: `Sandbox ${operation}: unreadable response`, cause: summary });
  }
  return new UpstreamError({
    kind: 'network',
    message: `Sandbox ${operation}: ${typeof code === 'string' ? code : 'connection failed'}`,
    cause: summary,
  });
}

/**
 * An answer of the wrong status: a non-2xx is an `http` failure carrying the sandbox's own error
 * code and message when its body has them (`{error:{code, message}}`); an unexpected 2xx is malformed.
 */
function unexpectedStatus(operation: Operation, response: AxiosResponse<string>): UpstreamError {
  const status = response.status;
  if (status >= 200 && status < 300) return new UpstreamError({ kind: 'malformed', message: `Sandbox ${operation}: unexpected HTTP ${status}`, upstreamStatus: status });
  const error = (parseJson(response.data) as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  const code = typeof error?.code === 'string' ? error.code : undefined;
  const message = typeof error?.message === 'string' ? error.message : undefined;
  return new UpstreamError({
    kind: 'http',
    message: `Sandbox ${operation}: HTTP ${status}${code ? ` ${code}` : ''}`,
    upstreamStatus: status,
    providerCode: code,
    providerMessage: message,
  });
}

function toProviderCharge(response: AxiosResponse<string>, operation: Operation): ProviderCharge {
  const body = parseJson(response.data);
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
  return {
    providerPaymentId: charge.id,
    txid: charge.txid,
    status: sandboxStatusToPaymentStatus(charge.status),
    amountCents,
    copyPaste: charge.pixCopiaECola,
    expiresAt,
    paidAt,
  };
}

/** null for null/absent, a Date for an ISO timestamp, undefined for anything else. */
function optionalDate(value: unknown): Date | null | undefined {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function parseJson(text: unknown): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function header(headers: WebhookRequest['headers'], name: string): string | string[] | undefined {
  if (name in headers) return headers[name];
  // Node lower-cases header names; a hand-built request might not.
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

const MAX_ID_LENGTH = 200;
const MAX_TIMESTAMP_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * A sandbox event (`{event, id, created_at?, data:{id, amount, …}}`, docs/sandbox.md) into the closed
 * ProviderEvent type. Reads the parsed body when the host parsed one, else the raw bytes.
 */
export function parseSandboxEvent(body: unknown, rawBody?: Buffer): ProviderEvent {
  const value = body === undefined && rawBody !== undefined ? parseJson(rawBody.toString('utf8')) : body;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new WebhookParseError('The event must be a JSON object.', 'body');
  const event = value as Record<string, unknown>;
  if (typeof event.event !== 'string') throw new WebhookParseError('event is required.', 'event');
  if (!(PROVIDER_EVENT_TYPES as readonly string[]).includes(event.event)) {
    throw new WebhookParseError(`Unknown event kind "${event.event.slice(0, 64)}".`, 'event');
  }
  const id = requiredId(event.id, 'id');
  let occurredAt = new Date();
  if (event.created_at !== undefined && event.created_at !== null) {
    const date = typeof event.created_at === 'string' ? new Date(event.created_at) : new Date(Number.NaN);
    // Years outside 1970–9999 are no event's time, and some (-100000) are outside what PostgreSQL
    // can store: refused here rather than failing the transaction that would apply the event.
    if (Number.isNaN(date.getTime()) || date.getTime() < 0 || date.getTime() > MAX_TIMESTAMP_MS) {
      throw new WebhookParseError('created_at must be an ISO 8601 timestamp between 1970 and 9999.', 'created_at');
    }
    occurredAt = date;
  }
  if (typeof event.data !== 'object' || event.data === null || Array.isArray(event.data)) throw new WebhookParseError('data must be an object.', 'data');
  const data = event.data as Record<string, unknown>;
  const paymentRef = requiredId(data.id, 'data.id');
  if (typeof data.amount !== 'number') throw new WebhookParseError('data.amount must be a number (reais).', 'data.amount');
  const amountCents = reaisToCents(data.amount);
  if (amountCents === undefined) throw new WebhookParseError('data.amount must be a non-negative amount with at most 2 decimal places.', 'data.amount');
  return { eventId: id, type: event.event as ProviderEventType, paymentRef, amountCents, occurredAt };
}

function requiredId(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new WebhookParseError(`${field} must be a non-empty string.`, field);
  if (value.length > MAX_ID_LENGTH) throw new WebhookParseError(`${field} must be at most ${MAX_ID_LENGTH} characters.`, field);
  return value;
}
