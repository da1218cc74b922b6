import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { namingProvider } from '../common/errors/answer-provider';
import type { ProviderAnswer } from '../common/http/envelope';
import { type InboundCallback, ProviderFailureCode } from '../providers/provider-adapter';
import { AccountResolver, type ActingAccount } from '../providers/provider-accounts/account-resolver';
import { isProviderFailure, providerFailureToAppError, rethrowProviderFailure } from '../providers/provider-errors';
import { GatewayMetrics } from '../metrics/gateway-metrics';
import type { AccountCallbackResult, WebhookIntakeResult } from './dto/webhook-intake-result';
import { ApplyResult, PaymentEventsService } from '../payments/lifecycle/payment-events.service';
import type { ProviderEvent } from '../domain/provider-event';

/**
 * Provider callbacks (docs/architecture.md, A provider callback): the account's adapter proves what
 * it can — a signature over the raw request, or each entry read back from the PSP with the
 * account's credentials — and answers only confirmed events; each is applied in its own transaction.
 */
@Injectable()
export class WebhookIntakeService {
  private readonly logger = new Logger('WebhookIntake');

  constructor(
    private readonly events: PaymentEventsService,
    private readonly metrics: GatewayMetrics,
    private readonly accounts: AccountResolver,
  ) {}

  /**
   * `POST /webhooks/:provider/:account/…`: a callback for a stored provider account. Nothing is
   * trusted from the body alone, so a callback the adapter cannot confirm is 401 and changes
   * nothing, and a PSP that cannot be asked is 502 (the PSP posts again later). An unknown or
   * inactive account is 404 before any PSP is asked.
   */
  async receiveForAccount(providerName: string, accountId: string, request: InboundCallback, body: unknown, requestId: string): Promise<ProviderAnswer<AccountCallbackResult>> {
    const acting = await this.accounts
      .forCallback(providerName, accountId)
      .catch((error: unknown) => rethrowProviderFailure(error, { audience: 'caller', operation: 'call', provider: providerName, accountId, logger: this.logger }));
    const applied = await this.receiveEvents(acting, request, body, requestId);
    return { provider: acting.provider, data: callbackResult(applied) };
  }

  /**
   * `POST /webhooks/:provider`: a callback for the provider's built-in account (merchants with no
   * provider accounts). One event answers as that event's result; a callback of zero or several
   * events (a provider that batches) answers as an account callback does.
   */
  async receive(providerName: string, request: InboundCallback, body: unknown, requestId: string): Promise<ProviderAnswer<WebhookIntakeResult | AccountCallbackResult>> {
    // An unknown provider (404) is not counted: its name comes from the URL and would grow the series.
    const acting = await this.accounts.forCallback(providerName);
    const applied = await this.receiveEvents(acting, request, body, requestId);
    return { provider: acting.provider, data: applied.length === 1 ? intakeResult(applied[0]!) : callbackResult(applied) };
  }

  /** The callback verified and applied; every answer about it, its failures too, names the account's provider. */
  private receiveEvents(acting: ActingAccount, request: InboundCallback, body: unknown, requestId: string): Promise<ApplyResult[]> {
    return namingProvider(acting.provider, () => this.verifyAndApply(acting, request, body, requestId));
  }

  /** Every event counts once in the intake series, a callback with none once as `ping`. */
  private async verifyAndApply(acting: ActingAccount, request: InboundCallback, body: unknown, requestId: string): Promise<ApplyResult[]> {
    const { adapter, account } = acting;
    const count = (result: string) => this.metrics.webhookIntake.inc({ provider: acting.provider, result });
    let events: ProviderEvent[];
    try {
      events = await adapter.receiveCallback(account, request);
    } catch (error) {
      if (!isProviderFailure(error)) {
        count('error');
        throw error;
      }
      count(error.code === ProviderFailureCode.WEBHOOK_UNCONFIRMED ? 'invalid_signature' : error.code === ProviderFailureCode.WEBHOOK_MALFORMED ? 'invalid_event' : 'error');
      // Whoever posts to /webhooks is anonymous: the PSP's words and the account's internals go to the log only.
      throw providerFailureToAppError(error, { audience: 'caller', operation: 'call', provider: acting.provider, accountId: acting.accountId, logger: this.logger });
    }
    if (events.length === 0) count('ping');
    const applied: ApplyResult[] = [];
    for (const event of events) {
      try {
        const result = await this.events.apply(acting.provider, event, { source: 'webhook', requestId, payload: body, accountId: acting.accountId });
        count(intakeMetricResult(result));
        applied.push(result);
      } catch (error) {
        count('error');
        throw error;
      }
    }
    if (applied.some((result) => result.kind === 'deferred')) {
      // The PSP posts again later; by then the gateway's own refund has its PSP id, and the report is told apart.
      throw new AppError(ErrorCode.SERVICE_UNAVAILABLE, {
        message: "A refund in this callback cannot yet be told apart from one of the gateway's own whose answer was lost: send it again later.",
        headers: { 'retry-after': '30' },
      });
    }
    return applied;
  }
}

/** The intake series' result label: applied, duplicate, unmatched, amount_mismatch, transition_not_allowed. */
function intakeMetricResult(result: ApplyResult): string {
  if (result.kind === 'deferred') return 'deferred';
  if (result.kind !== 'recorded') return 'duplicate';
  if (result.paymentId === null) return 'unmatched';
  if (result.outcome === 'ignored') return 'transition_not_allowed';
  return result.outcome;
}

/** A callback's answer: each event's result, and whether every one had been seen before. */
function callbackResult(applied: ApplyResult[]): AccountCallbackResult {
  return { received: true, duplicate: applied.length > 0 && applied.every((a) => a.kind !== 'recorded'), events: applied.map(intakeResult) };
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
