import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { hasIdShape } from '../common/ids';
import { centsToDecimalString, centsToReais, reaisToCents } from '../common/money';
import { AppConfig } from '../config/app-config';
import { WebhookDeliveryAttemptRepository } from '../deliveries/webhook-delivery-attempt.repository';
import { WebhookDeliveryRepository } from '../deliveries/webhook-delivery.repository';
import type { Payment } from '../payments/payment.entity';
import { PaymentRepository } from '../payments/payment.repository';
import { toPaymentView } from '../payments/payment.view';
import type { PaymentDetailView, PaymentEventView, SandboxSimulationView, SimulationResultView } from './dto/payment-detail.view';
import type { SimulateEventDto } from './dto/simulate-event.dto';
import type { PaymentEvent } from './payment-event.entity';
import { PaymentEventRepository } from './payment-event.repository';
import { isoOrNull } from '../common/dates';

/** The admin's view of one payment's life, and the sandbox's "make this happen" button. */
@Injectable()
export class AdminPaymentEventsService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly events: PaymentEventRepository,
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly attempts: WebhookDeliveryAttemptRepository,
    private readonly config: AppConfig,
  ) {}

  async detail(id: string): Promise<PaymentDetailView> {
    const payment = await this.find(id);
    const [events, deliveries] = await Promise.all([this.events.listForPayment(payment.id), this.deliveries.listForPayment(payment.id)]);
    const attempts = await this.attempts.listForDeliveries(deliveries.map((d) => d.id));
    return {
      ...toPaymentView(payment),
      merchantId: payment.merchantId,
      events: events.map(toEventView),
      deliveries: deliveries.map((delivery) => ({
        id: delivery.id,
        event_id: delivery.eventId,
        event_type: delivery.eventType,
        status: delivery.status,
        attempt_count: delivery.attempts,
        next_attempt_at: delivery.nextAttemptAt.toISOString(),
        last_status_code: delivery.lastStatusCode,
        last_error: delivery.lastError,
        delivered_at: isoOrNull(delivery.deliveredAt),
        request_id: delivery.requestId,
        created_at: delivery.createdAt.toISOString(),
        updated_at: delivery.updatedAt.toISOString(),
        attempts: attempts
          .filter((attempt) => attempt.deliveryId === delivery.id)
          .map((attempt) => ({
            attempt: attempt.attempt,
            attempted_at: attempt.attemptedAt.toISOString(),
            url: attempt.url,
            status_code: attempt.statusCode,
            latency_ms: attempt.latencyMs,
            error: attempt.error,
          })),
      })),
    };
  }

  /**
   * Asks the sandbox PSP to make `event` happen to this payment's charge. The sandbox then sends a
   * real, signed event to the charge's notification URL (`/webhooks/sandbox`), so the whole intake
   * path runs as it would with a real provider; the sandbox answers after that delivery, so the
   * payment read back here already shows the outcome.
   */
  async simulate(id: string, dto: SimulateEventDto): Promise<SimulationResultView> {
    const payment = await this.find(id);
    if (payment.provider !== 'sandbox') {
      throw new AppError(ErrorCode.CONFLICT, {
        message: `Only sandbox payments can be simulated; this payment is held by the provider "${payment.provider}".`,
      });
    }
    if (!payment.providerPaymentId) throw new AppError(ErrorCode.CONFLICT, { message: 'This payment has no sandbox charge to simulate an event on.' });
    const sandbox = await this.callSandbox(payment.providerPaymentId, dto);
    return { sandbox, payment: await this.detail(payment.id) };
  }

  private async find(id: string): Promise<Payment> {
    const payment = hasIdShape(id, 'pay') ? await this.payments.findById(id) : null;
    if (!payment) throw AppError.notFound('Payment not found.');
    return payment;
  }

  private async callSandbox(chargeId: string, dto: SimulateEventDto): Promise<SandboxSimulationView> {
    const url = `${this.config.sandboxBaseUrl}/charges/${encodeURIComponent(chargeId)}/simulate`;
    const body: Record<string, string> = { event: dto.event };
    const amountCents = dto.amount === undefined ? undefined : reaisToCents(dto.amount);
    if (amountCents !== undefined) body.amount = centsToDecimalString(amountCents);
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${this.config.sandboxApiToken.reveal()}` },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.config.upstreamTimeoutMs),
      });
    } catch (error) {
      throw new AppError(ErrorCode.UPSTREAM_ERROR, { message: `The sandbox at ${this.config.sandboxBaseUrl} could not be reached.`, cause: error });
    }
    const text = await res.text();
    let answer: unknown;
    try {
      answer = JSON.parse(text);
    } catch {
      answer = undefined;
    }
    if (!res.ok) {
      const error = (answer as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
      throw new AppError(ErrorCode.UPSTREAM_ERROR, {
        message: `The sandbox refused the simulation (HTTP ${res.status}).`,
        upstreamStatus: res.status,
        details: error ? { provider_code: error.code, provider_message: error.message } : undefined,
      });
    }
    if (!answer || typeof answer !== 'object') {
      throw new AppError(ErrorCode.UPSTREAM_ERROR, { message: 'The sandbox answered the simulation with a body that is not JSON.', upstreamStatus: res.status });
    }
    return answer as SandboxSimulationView;
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
    request_id: event.requestId,
    created_at: event.createdAt.toISOString(),
  };
}
