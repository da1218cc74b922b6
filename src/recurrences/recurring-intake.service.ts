import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { namingProvider } from '../common/errors/answer-provider';
import type { ProviderAnswer } from '../common/http/envelope';
import { GatewayMetrics } from '../metrics/gateway-metrics';
import { AccountResolver, type ActingAccount } from '../providers/provider-accounts/account-resolver';
import { type InboundCallback, ProviderFailureCode, UpstreamError } from '../providers/provider-adapter';
import { isProviderFailure, providerFailureToAppError, rethrowProviderFailure } from '../providers/provider-errors';
import type { RecurringReport } from '../providers/recurring';
import { type ReportContext, type ReportResult, RecurrenceEventsService } from './recurrence-events.service';
import type { RecurringCallbackResult } from './dto/recurring-callback-result';

/** `data` of a recurring callback's answer: one entry per confirmed report. */

/**
 * Callbacks about recurrences (`<webhook url>/rec`) and recurring charges (`/cobr`), under the same
 * rules as Pix callbacks (docs/architecture.md, A provider callback): the adapter reads each entry
 * back from the PSP, and only what the PSP confirms is applied; each in its own transaction,
 * deduplicated per account. A failed attempt the policy retries is asked for here, after the commit.
 */
@Injectable()
export class RecurringIntakeService {
  private readonly logger = new Logger('RecurringIntake');

  constructor(
    private readonly events: RecurrenceEventsService,
    private readonly accounts: AccountResolver,
    private readonly metrics: GatewayMetrics,
  ) {}

  /** A recurring callback for the account, answered (its failures too) naming the account's provider. */
  async receive(provider: string, accountId: string | undefined, request: InboundCallback, body: unknown, requestId: string): Promise<ProviderAnswer<RecurringCallbackResult>> {
    const acting = await this.accounts
      .forCallback(provider, accountId)
      .catch((error: unknown) => rethrowProviderFailure(error, { audience: 'caller', operation: 'call', provider, accountId, logger: this.logger }));
    return { provider: acting.provider, data: await namingProvider(acting.provider, () => this.receiveAt(acting, request, body, requestId)) };
  }

  private async receiveAt(acting: ActingAccount, request: InboundCallback, body: unknown, requestId: string): Promise<RecurringCallbackResult> {
    const recurring = acting.adapter.recurring;
    if (!recurring) throw AppError.notFound('This provider takes no recurring callbacks.');
    const count = (result: string) => this.metrics.webhookIntake.inc({ provider: acting.provider, result });
    let reports: RecurringReport[];
    try {
      reports = await recurring.receiveCallback(acting.account, request);
    } catch (error) {
      if (!isProviderFailure(error)) {
        count('error');
        throw error;
      }
      count(error.code === ProviderFailureCode.WEBHOOK_UNCONFIRMED ? 'invalid_signature' : error.code === ProviderFailureCode.WEBHOOK_MALFORMED ? 'invalid_event' : 'error');
      throw providerFailureToAppError(error, { audience: 'caller', operation: 'call', provider: acting.provider, accountId: acting.accountId, logger: this.logger });
    }
    if (reports.length === 0) count('ping');
    const context: ReportContext = { provider: acting.provider, accountId: acting.accountId, source: 'webhook', requestId, payload: body };
    const results: RecurringCallbackResult['events'] = [];
    for (const item of reports) {
      const result = await this.apply(acting, item, context);
      count(result.kind === 'recorded' ? 'applied' : result.kind);
      results.push(resultOf(item, result));
    }
    return { received: true, duplicate: results.length > 0 && results.every((r) => r.duplicate), events: results };
  }

  /** Applies one report, and asks the PSP for the retry it calls for. Shared with reconciliation. */
  async apply(acting: ActingAccount, report: RecurringReport, context: ReportContext): Promise<ReportResult> {
    const result =
      report.kind === 'recurrence'
        ? await this.events.applyRecurrence(report.eventId, report.recurrence, context)
        : await this.events.applyCharge(report.eventId, report.charge, context);
    if (result.kind !== 'unmatched' && result.retry) await this.askRetry(acting, result.retry, context);
    return result;
  }

  /**
   * Asks the PSP for the next attempt. A PSP that refuses it outright (400: the window closed, the
   * policy does not allow it) fails the charge; one that cannot be reached is asked again by
   * reconciliation, which finds the charge still `retrying` with its failed attempt last.
   */
  async askRetry(acting: ActingAccount, retry: { chargeId: string; txid: string; date: string }, context: ReportContext): Promise<void> {
    try {
      const answer = await acting.adapter.recurring!.retryCharge(acting.account, { txid: retry.txid }, retry.date);
      await this.events.recordRetryAsked(retry.chargeId, answer);
    } catch (error) {
      if (error instanceof UpstreamError && error.upstreamStatus !== undefined && error.upstreamStatus < 500 && error.upstreamStatus !== 429) {
        await this.events.failCharge(retry.chargeId, `The provider refused a retry on ${retry.date} (${error.providerCode ?? error.upstreamStatus}).`, context);
        return;
      }
      this.logger.warn(
        { charge_id: retry.chargeId, provider: acting.provider, account_id: acting.accountId, err: error },
        `Could not ask for the retry of ${retry.chargeId}; reconciliation asks again`,
      );
    }
  }
}

function resultOf(report: RecurringReport, result: ReportResult): RecurringCallbackResult['events'][number] {
  const kind = report.kind;
  if (result.kind === 'duplicate') return { kind, duplicate: true, matched: true };
  if (result.kind === 'unmatched') return { kind, duplicate: false, matched: false };
  return {
    kind,
    duplicate: false,
    matched: true,
    event_id: result.eventId,
    recurrence_id: result.recurrenceId,
    ...(result.chargeId ? { charge_id: result.chargeId } : {}),
    status: result.status,
  };
}
