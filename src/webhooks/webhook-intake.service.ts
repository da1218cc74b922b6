import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import type { GatewayRequestState } from '../common/http/request-state';
import { type ProviderEvent, UpstreamError, type WebhookRequest, WebhookParseError } from '../providers/payment-provider';
import { type InboundWebhook, WebhookAuthError } from '../providers/provider-adapter';
import { ProviderAccountsService } from '../providers/provider-accounts/provider-accounts.service';
import { upstreamToAppError } from '../providers/upstream-errors';
import { GatewayMetrics } from '../metrics/gateway-metrics';
import { ProviderRegistry } from '../providers/provider-registry';
import type { AccountCallbackResult, WebhookIntakeResult } from './dto/webhook-intake-result';
import { ApplyResult, PaymentEventsService } from './payment-events.service';

/** `POST /webhooks/:provider`: verify with the provider's own scheme, parse, apply (docs/architecture.md, A provider callback). */
@Injectable()
export class WebhookIntakeService {
  constructor(
    private readonly providers: ProviderRegistry,
    private readonly events: PaymentEventsService,
    private readonly metrics: GatewayMetrics,
    private readonly accounts: ProviderAccountsService,
  ) {}

  /**
   * `POST /webhooks/:provider/:account/…`: a callback for a provider account. The adapter proves
   * what it can (for the Pix API: each entry read back from the PSP with the account's credentials)
   * and answers only confirmed events; each is applied as any webhook is. Nothing is trusted from
   * the body alone, so a callback the adapter cannot confirm is 401 and changes nothing, and a PSP
   * that cannot be asked is 502 (the PSP posts again later).
   */
  async receiveForAccount(providerName: string, accountId: string, request: InboundWebhook, body: unknown, state: GatewayRequestState): Promise<AccountCallbackResult> {
    const resolved = await this.accounts.resolveForCallback(providerName, accountId);
    const { adapter, ref } = resolved;
    state.provider = adapter.name;
    let result = 'error';
    try {
      let events: ProviderEvent[];
      try {
        events = await adapter.receiveWebhook(ref, request);
      } catch (error) {
        if (error instanceof WebhookAuthError) {
          result = 'invalid_signature';
          throw new AppError(ErrorCode.INVALID_SIGNATURE, { message: 'The provider did not confirm this callback.' });
        }
        if (error instanceof WebhookParseError) {
          result = 'invalid_event';
          throw AppError.validation([{ field: error.field ?? 'body', message: error.message }], `The body is not a valid ${adapter.name} callback.`);
        }
        if (error instanceof UpstreamError) throw upstreamToAppError(ErrorCode.UPSTREAM_ERROR, error, adapter.name);
        throw error;
      }
      const applied: ApplyResult[] = [];
      for (const event of events) {
        applied.push(await this.events.apply(adapter.name, event, { source: 'webhook', requestId: state.requestId, payload: body, accountId: ref.id }));
      }
      result = applied.length === 0 ? 'ping' : intakeMetricResult(applied[applied.length - 1]!);
      return { received: true, duplicate: applied.length > 0 && applied.every((a) => a.kind !== 'recorded'), events: applied.map(intakeResult) };
    } finally {
      this.metrics.webhookIntake.inc({ provider: adapter.name, result });
    }
  }

  async receive(providerName: string, request: WebhookRequest, state: GatewayRequestState): Promise<WebhookIntakeResult> {
    // An unknown provider (404) is not counted: its name comes from the URL and would grow the series.
    const provider = this.providers.get(providerName);
    state.provider = provider.name;
    let result = 'error';
    try {
      // Verification comes before anything reads the body's meaning: an unsigned request changes nothing.
      if (!provider.verifyWebhook(request)) {
        result = 'invalid_signature';
        throw new AppError(ErrorCode.INVALID_SIGNATURE);
      }
      let event: ProviderEvent;
      try {
        event = provider.parseEvent(request);
      } catch (error) {
        if (error instanceof WebhookParseError) {
          result = 'invalid_event';
          throw AppError.validation([{ field: error.field ?? 'body', message: error.message }], `The body is not a valid ${provider.name} event.`);
        }
        throw error;
      }
      const applied = await this.events.apply(provider.name, event, { source: 'webhook', requestId: state.requestId, payload: request.body });
      result = intakeMetricResult(applied);
      return intakeResult(applied);
    } finally {
      this.metrics.webhookIntake.inc({ provider: provider.name, result });
    }
  }
}

/** The intake series' result label: applied, duplicate, unmatched, amount_mismatch, transition_not_allowed. */
function intakeMetricResult(result: ApplyResult): string {
  if (result.kind !== 'recorded') return 'duplicate';
  if (result.paymentId === null) return 'unmatched';
  if (result.outcome === 'ignored') return 'transition_not_allowed';
  return result.outcome;
}

export function intakeResult(result: ApplyResult): WebhookIntakeResult {
  // 'skipped' needs onlyFromStatus, which intake never sets; either way nothing was done again.
  if (result.kind !== 'recorded') return { received: true, duplicate: true };
  if (result.paymentId === null) return { received: true, duplicate: false, matched: false, event_id: result.eventId };
  const reason = result.outcome === 'amount_mismatch' ? 'amount_mismatch' : result.outcome === 'ignored' ? 'transition_not_allowed' : undefined;
  return {
    received: true,
    duplicate: false,
    matched: true,
    applied: result.outcome === 'applied',
    ...(reason ? { reason } : {}),
    status: result.status ?? undefined,
    forward: result.forward,
    event_id: result.eventId,
    payment_id: result.paymentId,
  };
}
