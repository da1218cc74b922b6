import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import type { GatewayRequestState } from '../common/http/request-state';
import { type ProviderEvent, type WebhookRequest, WebhookParseError } from '../providers/payment-provider';
import { GatewayMetrics } from '../metrics/gateway-metrics';
import { ProviderRegistry } from '../providers/provider-registry';
import type { WebhookIntakeResult } from './dto/webhook-intake-result';
import { ApplyResult, PaymentEventsService } from './payment-events.service';

/** `POST /webhooks/:provider`: verify with the provider's own scheme, parse, apply (docs/architecture.md, A provider callback). */
@Injectable()
export class WebhookIntakeService {
  constructor(
    private readonly providers: ProviderRegistry,
    private readonly events: PaymentEventsService,
    private readonly metrics: GatewayMetrics,
  ) {}

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
