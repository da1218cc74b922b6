import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { namingProvider } from '../common/errors/answer-provider';
import { ErrorCode } from '../common/errors/error-codes';
import { decodeCursor, type Page, toPage } from '../common/http/cursor';
import type { ProviderAnswer } from '../common/http/envelope';
import { hasIdShape } from '../common/ids';
import { toAnswerView } from '../deliveries/dto/delivery.view';
import { WebhookDeliveryAttemptRepository } from '../deliveries/webhook-delivery-attempt.repository';
import { WebhookDeliveryRepository } from '../deliveries/webhook-delivery.repository';
import { isRecurrenceFinal } from '../domain/recurrence';
import { AccountResolver, type ActingAccount } from '../providers/provider-accounts/account-resolver';
import { supports } from '../providers/capabilities';
import type { SimulatedEventResult } from '../providers/provider-adapter';
import { type FailureContext, rethrowProviderFailure } from '../providers/provider-errors';
import type { RecurringProvider, RecurringSimulation } from '../providers/recurring';
import { toDeliveryView } from '../deliveries/dto/delivery-history.view';
import type { AdminRecurrenceDetailView, AdminRecurrenceView, RecurrenceEventView, RecurringSimulationResultView } from './admin-recurrence.view';
import type { ListAdminRecurrencesQuery, SimulateRecurrenceDto, SimulateRecurringChargeDto } from './dto/admin-recurrences.dto';
import type { RecurrenceEvent } from './recurrence-event.entity';
import { RecurrenceEventRepository } from './recurrence-event.repository';
import type { Recurrence } from './recurrence.entity';
import { RecurrenceRepository } from './recurrence.repository';
import { toRecurrenceView, toRecurringChargeView } from './recurrence.view';
import { RecurrencesService } from './recurrences.service';
import { RecurringChargeRepository } from './recurring-charge.repository';
import { AppConfig } from '../config/app-config';

/**
 * The operator's side of Pix Automático (docs/dashboard.md, Recurrences): every merchant's
 * recurrences, one with its charges, history and deliveries, the merchant's cancel on its behalf,
 * and a test PSP's "make this happen" buttons.
 */
@Injectable()
export class AdminRecurrencesService {
  constructor(
    private readonly recurrences: RecurrenceRepository,
    private readonly charges: RecurringChargeRepository,
    private readonly events: RecurrenceEventRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly attempts: WebhookDeliveryAttemptRepository,
    private readonly accounts: AccountResolver,
    private readonly merchantSide: RecurrencesService,
    private readonly config: AppConfig,
  ) {}

  /** Newest first, across merchants, one keyset page at a time. */
  async list(query: ListAdminRecurrencesQuery): Promise<Page<AdminRecurrenceView>> {
    const limit = query.limit ?? 50;
    const rows = await this.recurrences.listPage({
      merchantId: query.merchant_id,
      status: query.status,
      externalId: query.external_id,
      after: query.cursor ? decodeCursor(query.cursor) : undefined,
      limit,
    });
    return toPage(rows, limit, ({ recurrence }) => toAdminView(recurrence, this.config.publicBaseUrl));
  }

  async detail(id: string): Promise<AdminRecurrenceDetailView> {
    const recurrence = await this.find(id);
    const [charges, events, deliveries, recurring] = await Promise.all([
      this.charges.listForRecurrence(recurrence.id),
      this.events.listForRecurrence(recurrence.id),
      this.deliveries.listForRecurrence(recurrence.id),
      this.recurringOf(recurrence),
    ]);
    const attempts = await this.attempts.listForDeliveries(deliveries.map((d) => d.id));
    return {
      ...toAdminView(recurrence, this.config.publicBaseUrl),
      can_simulate: recurrence.providerRecurrenceId !== null && recurring?.simulate !== undefined,
      can_cancel: !isRecurrenceFinal(recurrence.status) && recurring !== undefined,
      charges: charges.map(toRecurringChargeView),
      events: events.map(toEventView),
      deliveries: deliveries.map((delivery) => toDeliveryView(delivery, attempts.filter((a) => a.deliveryId === delivery.id).map(toAnswerView))),
    };
  }

  /** The merchant's cancel (`POST /v1/recurrences/:id/cancel`), made by the operator: the same rules, events and answer. */
  async cancel(id: string, requestId: string): Promise<ProviderAnswer<AdminRecurrenceDetailView>> {
    const recurrence = await this.find(id);
    const { provider } = await this.merchantSide.cancel(recurrence.merchantId, recurrence.id, requestId);
    return { provider, data: await namingProvider(provider, () => this.detail(recurrence.id)) };
  }

  async simulateRecurrence(id: string, dto: SimulateRecurrenceDto): Promise<RecurringSimulationResultView> {
    const recurrence = await this.find(id);
    return this.simulate(recurrence, (providerRecurrenceId) => ({ subject: 'recurrence', ref: { providerRecurrenceId }, action: dto.action }));
  }

  async simulateCharge(id: string, dto: SimulateRecurringChargeDto): Promise<RecurringSimulationResultView> {
    const charge = hasIdShape(id, 'rch') ? await this.charges.findById(id) : null;
    const recurrence = charge && (await this.recurrences.findById(charge.recurrenceId));
    if (!charge || !recurrence) throw AppError.notFound('Recurring charge not found.');
    return this.simulate(recurrence, () => ({ subject: 'charge', ref: { txid: charge.txid }, action: dto.action }));
  }

  /**
   * Asks the recurrence's test PSP to act as the payer or the payer's bank would. The PSP posts its
   * callback to the gateway, which applies it through the normal intake before the PSP answers, so
   * the recurrence read again here already shows the outcome. A provider that cannot simulate: 409.
   */
  private async simulate(recurrence: Recurrence, request: (providerRecurrenceId: string) => RecurringSimulation): Promise<RecurringSimulationResultView> {
    const failure: FailureContext = { audience: 'admin', operation: 'call', provider: recurrence.provider, accountId: recurrence.providerAccountId };
    let acting: ActingAccount;
    try {
      acting = await this.accounts.forPayment(recurrence);
    } catch (error) {
      rethrowProviderFailure(error, failure);
    }
    const simulate = acting.adapter.recurring?.simulate?.bind(acting.adapter.recurring);
    if (!simulate)
      throw new AppError(ErrorCode.CONFLICT, { message: `The provider "${recurrence.provider}" cannot simulate the payer's side of a recurrence: only test providers can.` });
    if (recurrence.providerRecurrenceId === null)
      throw new AppError(ErrorCode.CONFLICT, { message: 'This recurrence has no counterpart at its provider to simulate anything on.' });
    let answer: SimulatedEventResult;
    try {
      answer = await simulate(acting.account, request(recurrence.providerRecurrenceId));
    } catch (error) {
      rethrowProviderFailure(error, failure);
    }
    return {
      simulation: { eventId: answer.eventId, delivered: answer.delivered, status: answer.status, subject: answer.charge },
      recurrence: await this.detail(recurrence.id),
    };
  }

  /** The Pix Automático side of the recurrence's account, or undefined when it has none (or the account cannot be opened). */
  private async recurringOf(recurrence: Recurrence): Promise<RecurringProvider | undefined> {
    try {
      const acting = await this.accounts.forPayment(recurrence);
      return supports(acting.adapter, 'recurring') ? acting.adapter.recurring : undefined;
    } catch {
      // An account deleted or unreadable since: the page still shows the recurrence, without its buttons.
      return undefined;
    }
  }

  private async find(id: string): Promise<Recurrence> {
    const recurrence = hasIdShape(id, 'rec') ? await this.recurrences.findById(id) : null;
    if (!recurrence) throw AppError.notFound('Recurrence not found.');
    return recurrence;
  }
}

function toAdminView(recurrence: Recurrence, publicBaseUrl: string): AdminRecurrenceView {
  return { ...toRecurrenceView(recurrence, publicBaseUrl), merchant_id: recurrence.merchantId };
}

function toEventView(event: RecurrenceEvent): RecurrenceEventView {
  return {
    id: event.id,
    type: event.type,
    source: event.source,
    recurring_charge_id: event.recurringChargeId,
    from_status: event.fromStatus,
    to_status: event.toStatus,
    forward: event.forward,
    note: event.note,
    provider_event_id: event.providerEventId,
    request_id: event.requestId,
    created_at: event.createdAt.toISOString(),
  };
}
