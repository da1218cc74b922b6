import { performance } from 'node:perf_hooks';
import type { ProviderEvent } from '../../domain/provider-event';
import type {
  Account,
  AccountSettings,
  ChargeBatchItem,
  ChargeBatchRequest,
  ChargeChange,
  ChargeLookup,
  CreateChargeRequest,
  CredentialsSummary,
  InboundCallback,
  ProviderAdapter,
  ProviderCharge,
  ProviderHealth,
  ProviderRefund,
  RefundLookup,
  RefundRequest,
  SimulatedEventRequest,
  SimulatedEventResult,
} from '../provider-adapter';
import type { ProviderDescriptor } from '../provider-descriptor';
import type { OutboundAnswer, OutboundTransport } from '../transport/transport';
import { creationSecretOf, parseSandboxCredentials, SANDBOX_BUILT_IN_ACCOUNT, type SandboxCredentials } from './credentials';
import { sandboxDescriptor } from './descriptor';
import { orThrow, type SandboxCall } from './flows/api-call';
import { createBatchCall, parseBatch, parseBatchAsked, readBatchCall } from './flows/batch';
import { assertSigned, parseSandboxEvent } from './flows/callback';
import {
  cancelChargeCall,
  createChargeCall,
  healthCall,
  healthProblem,
  parseCancelledCharge,
  parseCreatedCharge,
  parseReadCharge,
  parseSimulation,
  parseUpdatedCharge,
  readChargeCall,
  simulateCall,
  updateChargeCall,
} from './flows/charge';
import { parseReadRefund, parseRefund, readRefundCall, refundCall } from './flows/refund';
import { SandboxRecurring } from './sandbox.recurring';
import type { SandboxSettings } from './settings';

/** Largest response body read from the simulated PSP; a charge is well under 1 KiB. */
const MAX_RESPONSE_BYTES = 256 * 1024;
/** A health probe should fail fast even when the upstream timeout is long. */
const HEALTH_TIMEOUT_MS = 3_000;
/**
 * Sockets to the simulated PSP per lane. It is the gateway itself, or a process beside it, and
 * answers in about a millisecond: a create should never wait for a socket under load.
 */
const SANDBOX_MAX_SOCKETS = 512;

/**
 * Adapter for the simulated PSP (its API: docs/sandbox.md), over the gateway's OutboundTransport.
 * The flows (flows/) build each request and parse each answer; this class sends them. Its built-in
 * account is the gateway's own configuration (SANDBOX_*), used by merchants with no provider
 * accounts; stored `sandbox` accounts carry their own webhook secret. Every failure leaves as an
 * UpstreamError (the transport's, or an answer of the wrong status or shape).
 */
export class SandboxAdapter implements ProviderAdapter<SandboxCredentials> {
  readonly name = 'sandbox';
  readonly descriptor: ProviderDescriptor;
  /** Pix Automático at the simulated PSP (docs/sandbox.md, Recurrences). */
  readonly recurring: SandboxRecurring;

  /** `transport`: the gateway's one outbound client; `settings`: the sandbox's own (settings.ts). */
  constructor(
    private readonly transport: OutboundTransport,
    private readonly settings: SandboxSettings,
    private readonly options: { isProduction: boolean; timeoutMs: number },
  ) {
    this.descriptor = sandboxDescriptor({ baseUrl: settings.baseUrl, isProduction: options.isProduction });
    this.recurring = new SandboxRecurring((call) => this.send(call), { isProduction: options.isProduction, webhookSecretFor: creationSecretOf });
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

  parseCredentials(input: unknown, settings: AccountSettings): SandboxCredentials {
    return parseSandboxCredentials(input, settings, { baseUrl: this.settings.baseUrl, isProduction: this.options.isProduction });
  }

  summarizeCredentials(_credentials: SandboxCredentials): CredentialsSummary {
    return {};
  }

  async createCharge(account: Account<SandboxCredentials>, request: CreateChargeRequest): Promise<ProviderCharge> {
    return orThrow(parseCreatedCharge(await this.send(createChargeCall(request, creationSecretOf(account)))));
  }

  async getCharge(_account: Account<SandboxCredentials>, ref: ChargeLookup): Promise<ProviderCharge> {
    return orThrow(parseReadCharge(await this.send(readChargeCall(ref))));
  }

  async cancelCharge(_account: Account<SandboxCredentials>, ref: ChargeLookup): Promise<ProviderCharge> {
    return orThrow(parseCancelledCharge(await this.send(cancelChargeCall(ref))));
  }

  /** A due-date charge's new amount and terms; the sandbox finds a charge of either kind by the same routes, so `ref.due` changes nothing here. */
  async updateCharge(_account: Account<SandboxCredentials>, ref: ChargeLookup, change: ChargeChange): Promise<ProviderCharge> {
    return orThrow(parseUpdatedCharge(await this.send(updateChargeCall(ref, change))));
  }

  async createChargeBatch(account: Account<SandboxCredentials>, batch: ChargeBatchRequest): Promise<void> {
    orThrow(parseBatchAsked(await this.send(createBatchCall(batch, creationSecretOf(account)))));
  }

  async getChargeBatch(_account: Account<SandboxCredentials>, id: string): Promise<ChargeBatchItem[]> {
    return orThrow(parseBatch(await this.send(readBatchCall(id))));
  }

  async refund(_account: Account<SandboxCredentials>, request: RefundRequest): Promise<ProviderRefund> {
    return orThrow(parseRefund(await this.send(refundCall(request)), request.refundId));
  }

  async getRefund(_account: Account<SandboxCredentials>, ref: RefundLookup): Promise<ProviderRefund> {
    return orThrow(parseReadRefund(await this.send(readRefundCall(ref)), ref.refundId));
  }

  /** One callback, one event, signed over the raw body: the signature is checked before anything reads the body's meaning. */
  async receiveCallback(account: Account<SandboxCredentials>, request: InboundCallback): Promise<ProviderEvent[]> {
    assertSigned(request, account.credentials.webhookSecret?.reveal(), this.options.isProduction);
    return Promise.resolve([parseSandboxEvent(undefined, request.rawBody)]);
  }

  async check(_account: Account<SandboxCredentials>): Promise<ProviderHealth> {
    const started = performance.now();
    try {
      const response = await this.send(healthCall(), Math.min(this.options.timeoutMs, HEALTH_TIMEOUT_MS));
      const latencyMs = Math.round(performance.now() - started);
      const problem = healthProblem(response);
      return problem === null ? { ok: true, latencyMs } : { ok: false, latencyMs, detail: problem };
    } catch (error) {
      return { ok: false, latencyMs: Math.round(performance.now() - started), detail: (error as Error).message };
    }
  }

  /**
   * Makes the simulated PSP move the charge and post a real, signed callback to the charge's
   * notification URL, so the gateway's whole intake path runs; it answers after that post.
   */
  async simulateEvent(_account: Account<SandboxCredentials>, ref: ChargeLookup, request: SimulatedEventRequest): Promise<SimulatedEventResult> {
    return orThrow(parseSimulation(await this.send(simulateCall(ref, request))));
  }

  /** One HTTP exchange to the gateway's simulated PSP, whatever account it is for (see parseSandboxCredentials). */
  private send(call: SandboxCall, timeoutMs: number = this.options.timeoutMs): Promise<OutboundAnswer> {
    return this.transport.send({
      label: `Sandbox ${call.operation}`,
      method: call.method,
      url: new URL(this.settings.baseUrl.replace(/\/+$/, '') + call.path),
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      // The adapter authenticates every call, as a real PSP client presents its API key.
      headers: {
        accept: 'application/json',
        authorization: `Bearer ${this.settings.apiToken.reveal()}`,
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...call.headers,
      },
      channel: { key: SANDBOX_BUILT_IN_ACCOUNT, maxSockets: SANDBOX_MAX_SOCKETS },
      timeoutMs,
      maxResponseBytes: call.maxResponseBytes ?? MAX_RESPONSE_BYTES,
    });
  }
}
