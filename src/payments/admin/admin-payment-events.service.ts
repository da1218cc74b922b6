import { toAnswerView } from '../../deliveries/dto/delivery.view';
import type { Refund } from '../refunds/refund.entity';
import { RefundRepository } from '../refunds/refund.repository';
import { toAdminRefundView } from '../refunds/refund.view';
import { isRefundable } from '../../domain/payment-status';
import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-codes';
import { hasIdShape } from '../../common/ids';
import { centsToReais, reaisToCents } from '../../domain/money';
import { WebhookDeliveryAttemptRepository } from '../../deliveries/webhook-delivery-attempt.repository';
import { WebhookDeliveryRepository } from '../../deliveries/webhook-delivery.repository';
import type { Payment } from '../payment.entity';
import { PaymentRepository } from '../payment.repository';
import { PaymentViews } from '../payment-views';
import { BRAZIL_CALENDAR } from '../../common/calendar/brazil-calendar';
import { effectiveDueDate, lastPayableDate } from '../../domain/due-charge';
import { Clock } from '../../domain/clock';
import { brasiliaDate } from '../../domain/recurrence';
import { supports } from '../../providers/capabilities';
import { ProviderAdapters } from '../../providers/provider-registry';
import { AccountResolver, type ActingAccount } from '../../providers/provider-accounts/account-resolver';
import { rethrowProviderFailure } from '../../providers/provider-errors';
import { toDeliveryView } from '../../deliveries/dto/delivery-history.view';
import type { PaymentAttemptView, PaymentDetailView, PaymentEventView, SimulationResultView, SimulationView } from './dto/payment-detail.view';
import type { SimulateEventDto } from './dto/simulate-event.dto';
import type { PaymentEvent } from '../lifecycle/payment-event.entity';
import { PaymentEventRepository } from '../lifecycle/payment-event.repository';
import type { PaymentAttempt } from '../routing/payment-attempt.entity';
import { PaymentAttemptRepository } from '../routing/payment-attempt.repository';

/** The admin's view of one payment's life, and a test PSP's "make this happen" buttons. */
@Injectable()
export class AdminPaymentEventsService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly events: PaymentEventRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly attempts: WebhookDeliveryAttemptRepository,
    private readonly adapters: ProviderAdapters,
    private readonly accounts: AccountResolver,
    private readonly paymentAttempts: PaymentAttemptRepository,
    private readonly refunds: RefundRepository,
    private readonly paymentViews: PaymentViews,
    private readonly clock: Clock,
  ) {}

  async detail(id: string): Promise<PaymentDetailView> {
    const payment = await this.find(id);
    const [events, deliveries, paymentAttempts, refunds] = await Promise.all([
      this.events.listForPayment(payment.id),
      this.deliveries.listForPayment(payment.id),
      this.paymentAttempts.listForPayment(payment.merchantId, payment.id),
      this.refunds.listForPayment(payment.id),
    ]);
    const attempts = await this.attempts.listForDeliveries(deliveries.map((d) => d.id));
    return {
      ...this.paymentViews.view(payment),
      merchantId: payment.merchantId,
      can_simulate: this.canSimulate(payment),
      events: events.map(toEventView),
      deliveries: deliveries.map((delivery) => toDeliveryView(delivery, attempts.filter((attempt) => attempt.deliveryId === delivery.id).map(toAnswerView))),
      attempts: paymentAttempts.map(toAttemptView),
      refunds: refunds.map(toAdminRefundView),
      can_refund: this.canRefund(payment, refunds),
      can_cancel: this.canCancel(payment),
      // The dashboard has no holiday calendar: the gateway says which days these are.
      due_dates: payment.due
        ? {
            effective_due_date: effectiveDueDate(payment.due, BRAZIL_CALENDAR),
            last_payable_date: lastPayableDate(payment.due, BRAZIL_CALENDAR),
            amount_due_on: brasiliaDate(this.clock.now()),
          }
        : null,
    };
  }

  /**
   * Asks a test PSP (one whose adapter can simulate events) to make `event` happen to this payment's
   * charge. The PSP then sends a real, signed event to the charge's notification URL, so the whole
   * intake path runs as it would with a real provider; it answers after that delivery, so the
   * payment read back here already shows the outcome.
   */
  async simulate(id: string, dto: SimulateEventDto): Promise<SimulationResultView> {
    const payment = await this.find(id);
    if (!this.canSimulate(payment)) {
      throw new AppError(ErrorCode.CONFLICT, {
        message: payment.providerPaymentId
          ? `The provider "${payment.provider}" cannot simulate events: only test providers can.`
          : 'This payment has no charge at its provider to simulate an event on.',
      });
    }
    // The operator may see why a provider or account cannot be used, and the PSP's own code and text.
    const failure = { audience: 'admin', operation: 'call', provider: payment.provider, accountId: payment.providerAccountId, paymentId: payment.id } as const;
    let acting: ActingAccount;
    try {
      acting = await this.accounts.forPayment(payment);
    } catch (error) {
      rethrowProviderFailure(error, failure);
    }
    if (!acting.adapter.simulateEvent) throw new AppError(ErrorCode.CONFLICT, { message: `The provider "${payment.provider}" cannot simulate events: only test providers can.` });
    const amountCents = dto.amount === undefined ? undefined : reaisToCents(dto.amount);
    let simulation: SimulationView;
    try {
      simulation = await acting.adapter.simulateEvent(
        acting.account,
        { txid: payment.txid, providerPaymentId: payment.providerPaymentId, due: payment.due !== null },
        { event: dto.event, amountCents },
      );
    } catch (error) {
      rethrowProviderFailure(error, failure);
    }
    return { simulation, payment: await this.detail(payment.id) };
  }

  /** Whether the dashboard offers a refund: money was received, some is neither returned nor being returned, and the payment's provider refunds. */
  private canRefund(payment: Payment, refunds: Refund[]): boolean {
    const held = refunds.filter((refund) => refund.origin !== 'routing' && refund.status !== 'failed').reduce((sum, refund) => sum + refund.amountCents, 0);
    return isRefundable(payment.status) && held < payment.amountCents && supports(this.adapters.find(payment.provider), 'refund');
  }

  private canCancel(payment: Payment): boolean {
    return payment.status === 'pending' && supports(this.adapters.find(payment.provider), 'cancel');
  }

  private canSimulate(payment: Payment): boolean {
    return payment.providerPaymentId !== null && this.adapters.find(payment.provider)?.simulateEvent !== undefined;
  }

  private async find(id: string): Promise<Payment> {
    const payment = hasIdShape(id, 'pay') ? await this.payments.findById(id) : null;
    if (!payment) throw AppError.notFound('Payment not found.');
    return payment;
  }
}

function toEventView(event: PaymentEvent): PaymentEventView {
  return {
    id: event.id,
    type: event.type,
    source: event.source,
    outcome: event.outcome,
    from_status: event.fromStatus,
    to_status: event.toStatus,
    amount: event.amountCents === null ? null : centsToReais(event.amountCents),
    forward: event.forward,
    note: event.note,
    provider_event_id: event.providerEventId,
    refund_id: event.refundId,
    amount_due: dueOfMismatch(event),
    request_id: event.requestId,
    created_at: event.createdAt.toISOString(),
  };
}

/** What was due the day a due-date charge was paid, as its amount_mismatch entry recorded it (src/payments/lifecycle/payment-events.service.ts). */
function dueOfMismatch(event: PaymentEvent): number | null {
  if (event.outcome !== 'amount_mismatch' || !event.providerEventId.endsWith(':amount_mismatch')) return null;
  const dueCents = (event.payload as { dueCents?: unknown } | null)?.dueCents;
  return typeof dueCents === 'number' ? centsToReais(dueCents) : null;
}

function toAttemptView(attempt: PaymentAttempt): PaymentAttemptView {
  return {
    id: attempt.id,
    attempt: attempt.attempt,
    account_id: attempt.accountId,
    provider: attempt.provider,
    environment: attempt.environment,
    txid: attempt.txid,
    provider_payment_id: attempt.providerPaymentId,
    outcome: attempt.outcome,
    upstream_status: attempt.upstreamStatus,
    error: attempt.error,
    duration_ms: attempt.durationMs,
    created_at: attempt.createdAt.toISOString(),
    orphan:
      attempt.orphanStatus === null
        ? null
        : {
            status: attempt.orphanStatus,
            tries: attempt.orphanTries,
            last_error: attempt.orphanLastError,
            updated_at: (attempt.orphanUpdatedAt ?? attempt.createdAt).toISOString(),
          },
  };
}
