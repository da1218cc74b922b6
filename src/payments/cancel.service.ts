import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { namingProvider } from '../common/errors/answer-provider';
import { ErrorCode } from '../common/errors/error-codes';
import type { ProviderAnswer } from '../common/http/envelope';
import type { PaymentEventType } from '../domain/provider-event';
import type { PaymentStatus } from '../domain/payment-status';
import { GatewayMetrics } from '../metrics/gateway-metrics';
import type { Payment } from './payment.entity';
import { PaymentRepository } from './payment.repository';
import type { PaymentView } from './payment.view';
import { PaymentViews } from './payment-views';
import { supports } from '../providers/capabilities';
import { type ProviderCharge, UpstreamError } from '../providers/provider-adapter';
import { rethrowProviderFailure } from '../providers/provider-errors';
import { PaymentEventsService } from './lifecycle/payment-events.service';
import { RefundsService } from './refunds/refunds.service';

/**
 * Cancelling a pending payment at its PSP (docs/api.md, Cancellation). The PSP's answer is the
 * truth: a charge paid meanwhile makes the payment paid and the answer 409, and whichever way the
 * charge ended is applied as the event it amounts to, through PaymentEventsService.
 */
@Injectable()
export class CancelService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly refunds: RefundsService,
    private readonly events: PaymentEventsService,
    private readonly metrics: GatewayMetrics,
    private readonly paymentViews: PaymentViews,
  ) {}

  /** The dashboard's cancel, for the payment's merchant. */
  async cancelAsOperator(paymentId: string, requestId: string): Promise<ProviderAnswer<PaymentView>> {
    return this.cancel(await this.refunds.merchantOf(paymentId), paymentId, requestId);
  }

  /** The merchant's payment cancelled, answered (its failures too) naming the payment's provider. */
  async cancel(merchantId: string, paymentId: string, requestId: string): Promise<ProviderAnswer<PaymentView>> {
    const payment = await this.refunds.merchantPayment(merchantId, paymentId);
    return { provider: payment.provider, data: await namingProvider(payment.provider, () => this.cancelAtProvider(merchantId, payment, requestId)) };
  }

  private async cancelAtProvider(merchantId: string, payment: Payment, requestId: string): Promise<PaymentView> {
    if (payment.status === 'cancelled') return this.paymentViews.view(payment);
    this.assertPending(payment.status);
    const acting = await this.refunds.acting(payment);
    if (!supports(acting.adapter, 'cancel')) {
      throw new AppError(ErrorCode.OPERATION_NOT_SUPPORTED, { message: `The provider "${payment.provider}" cannot cancel charges.` });
    }
    let charge: ProviderCharge;
    try {
      const ref = { txid: payment.txid, providerPaymentId: payment.providerPaymentId, paymentId: payment.id, due: payment.due !== null };
      charge = await this.metrics.timeProviderCall(acting.metricsLabel, 'cancel_charge', () => acting.adapter.cancelCharge!(acting.account, ref));
    } catch (error) {
      rethrowProviderFailure(error, this.refunds.failure(payment, 'cancel'));
    }
    const type = eventFor(charge.status);
    if (!type)
      rethrowProviderFailure(new UpstreamError({ kind: 'malformed', message: 'The PSP answered the cancel with the charge still open.' }), this.refunds.failure(payment, 'cancel'));
    await this.events.apply(
      payment.provider,
      {
        eventId: `gateway:cancel:${payment.id}:${charge.status}`,
        type,
        paymentRef: payment.id,
        amountCents: charge.amountCents,
        occurredAt: charge.paidAt ?? new Date(),
        pix: charge.pix,
      },
      { source: 'gateway', requestId, payload: { cancel: { status: charge.status, paidAt: charge.paidAt } }, accountId: payment.providerAccountId },
    );
    const after = (await this.payments.findForMerchant(merchantId, payment.id))!;
    if (after.status !== 'cancelled') this.assertPending(after.status, charge.status === 'paid' ? 'It was paid before it could be cancelled.' : undefined);
    return this.paymentViews.view(after);
  }

  private assertPending(status: PaymentStatus, why?: string): void {
    if (status === 'pending') return;
    throw new AppError(ErrorCode.PAYMENT_STATE_CONFLICT, { message: why ?? `A ${status} payment cannot be cancelled: only pending payments can.`, details: { status } });
  }
}

/** The event a charge's status after a cancel amounts to; null while the PSP still shows it open. */
function eventFor(status: PaymentStatus): PaymentEventType | null {
  switch (status) {
    case 'cancelled':
      return 'payment.cancelled';
    case 'paid':
    case 'partially_refunded':
    case 'refunded':
      // Paid meanwhile: the payment is confirmed; any refund at the PSP arrives as its own reports.
      return 'payment.confirmed';
    case 'expired':
      return 'payment.expired';
    case 'failed':
      return 'payment.failed';
    case 'pending':
      return null;
  }
}
