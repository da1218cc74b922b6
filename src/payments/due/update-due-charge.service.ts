import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { namingProvider } from '../../common/errors/answer-provider';
import { ErrorCode } from '../../common/errors/error-codes';
import { PreparedResponse, successEnvelope } from '../../common/http/envelope';
import { hasIdShape } from '../../common/ids';
import { AppConfig } from '../../config/app-config';
import { Clock } from '../../domain/clock';
import { dueTermsProblems, type DueTerms } from '../../domain/due-charge';
import { reaisToCents } from '../../domain/money';
import { brasiliaDate } from '../../domain/recurrence';
import { type IdempotencyClaim, IdempotencyService } from '../../idempotency/idempotency.service';
import { idempotentCall, type IdempotentRequest } from '../../idempotency/idempotent-request';
import { GatewayMetrics } from '../../metrics/gateway-metrics';
import { supports } from '../../providers/capabilities';
import type { ProviderCharge } from '../../providers/provider-adapter';
import { rethrowProviderFailure } from '../../providers/provider-errors';
import { deliveryBody } from '../lifecycle/delivery-body';
import { EventWriter } from '../lifecycle/event-writer';
import type { Payment } from '../payment.entity';
import { PaymentRepository } from '../payment.repository';
import { RefundsService } from '../refunds/refunds.service';
import { dueTermsOf } from './due-terms';
import { PaymentViews } from '../payment-views';
import type { UpdatePaymentDto } from './update-payment.dto';

/** A change to make: the payment's new original amount and terms. */
interface Change {
  amountCents: number;
  due: DueTerms;
}

/**
 * Changing a pending due-date charge (`PATCH /v1/payments/:id`; docs/due-charges.md): at the PSP
 * first (Pix API `PATCH /cobv/{txid}`, the same BR Code), then the payment, its `payment.updated`
 * event and the event's delivery in one transaction under the payment's row lock.
 */
@Injectable()
export class UpdateDueChargeService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly payments: PaymentRepository,
    private readonly refunds: RefundsService,
    private readonly idempotency: IdempotencyService,
    private readonly writer: EventWriter,
    private readonly metrics: GatewayMetrics,
    private readonly paymentViews: PaymentViews,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async update(merchantId: string, paymentId: string, dto: UpdatePaymentDto, request: IdempotentRequest): Promise<PreparedResponse> {
    const call = idempotentCall(merchantId, request);
    const payment = hasIdShape(paymentId, 'pay') ? await this.payments.findForMerchant(merchantId, paymentId) : null;
    if (!payment) throw AppError.notFound('Payment not found.');
    const change = async (claim: IdempotencyClaim) => ({ complete: await this.changeAtProvider(claim, payment, dto, request.requestId) });
    // The key first: a replay answers what was answered, whatever the payment's state now.
    return namingProvider(payment.provider, () => this.idempotency.run(call, change, { provider: payment.provider }));
  }

  private async changeAtProvider(claim: IdempotencyClaim, payment: Payment, dto: UpdatePaymentDto, requestId: string): Promise<PreparedResponse> {
    const asked = this.changeOf(payment, dto);
    const acting = await this.refunds.acting(payment);
    const { adapter } = acting;
    if (!supports(adapter, 'dueCharges')) {
      throw new AppError(ErrorCode.OPERATION_NOT_SUPPORTED, { message: `The provider "${payment.provider}" cannot change due-date charges.` });
    }
    const ref = { txid: payment.txid, providerPaymentId: payment.providerPaymentId, paymentId: payment.id, due: true };
    const charge = await this.metrics
      .timeProviderCall(acting.metricsLabel, 'update_charge', () => adapter.updateCharge(acting.account, ref, asked))
      .catch((error: unknown) => rethrowProviderFailure(error, this.refunds.failure(payment, 'update charge')));
    // A charge the payer settled (or the PSP closed) meanwhile is answered as the PSP holds it, unchanged: its own events tell the rest.
    if (charge.status !== 'pending') {
      throw new AppError(ErrorCode.PAYMENT_STATE_CONFLICT, { message: `The charge is ${charge.status} at the PSP: it could not be changed.`, details: { status: charge.status } });
    }
    const changed = await this.dataSource.transaction((tx) => this.write(tx, claim, payment, asked, charge, requestId));
    const body = JSON.stringify(successEnvelope(this.paymentViews.view(changed), requestId, payment.provider));
    return new PreparedResponse(200, body, { 'content-type': 'application/json; charset=utf-8' });
  }

  /** The new amount and terms, checked: only a pending due-date charge changes, and into valid terms. */
  private changeOf(payment: Payment, dto: UpdatePaymentDto): Change {
    if (!payment.due)
      throw new AppError(ErrorCode.PAYMENT_STATE_CONFLICT, {
        message: 'Only a due-date charge can be changed; this payment is an immediate charge.',
        details: { status: payment.status },
      });
    if (payment.status !== 'pending') {
      throw new AppError(ErrorCode.PAYMENT_STATE_CONFLICT, {
        message: `A ${payment.status} payment cannot be changed: only pending due-date charges can.`,
        details: { status: payment.status },
      });
    }
    if (dto.amount === undefined && dto.due === undefined) throw AppError.validation([{ field: 'body', message: 'give amount, due or both' }]);
    const amountCents = dto.amount === undefined ? payment.amountCents : reaisToCents(dto.amount)!;
    if (amountCents > this.config.maxAmountCents) {
      throw AppError.validation([{ field: 'amount', message: `amount must be at most ${(this.config.maxAmountCents / 100).toFixed(2)}` }]);
    }
    const today = brasiliaDate(this.clock.now());
    if (dto.due) return { amountCents, due: dueTermsOf(dto.due, amountCents, today) };
    // Terms kept as they are: a due date now past is theirs, not this request's; the new amount must still fit them.
    const problems = dueTermsProblems(payment.due, amountCents, payment.due.date < today ? payment.due.date : today);
    if (problems.length > 0) throw AppError.validation(problems);
    return { amountCents, due: payment.due };
  }

  private async write(tx: EntityManager, claim: IdempotencyClaim, payment: Payment, change: Change, charge: ProviderCharge, requestId: string): Promise<Payment> {
    const locked = await this.payments.lockForMerchant(tx, claim.merchantId, payment.id);
    if (!locked) throw AppError.notFound('Payment not found.');
    const now = this.clock.now();
    const { payment: current, webhookUrl } = locked;
    // Paid (or closed) between the read and the lock: the PSP changed a charge the payer had settled; its own events tell the rest.
    if (current.status !== 'pending') {
      throw new AppError(ErrorCode.PAYMENT_STATE_CONFLICT, { message: `The payment became ${current.status} while it was being changed.`, details: { status: current.status } });
    }
    const changed = Object.assign(current as Payment, { amountCents: change.amountCents, due: change.due, expiresAt: charge.expiresAt ?? payment.expiresAt, updatedAt: now });
    await this.payments.setDueTerms(tx, changed);
    await this.writer.record(
      tx,
      {
        provider: payment.provider,
        accountId: payment.providerAccountId,
        // One event per change: the key's claim is the change's identity.
        providerEventId: `gateway:update:${payment.id}:${claim.paymentId}`,
        type: 'payment.updated',
        source: 'gateway',
        paymentId: payment.id,
        merchantId: payment.merchantId,
        outcome: 'applied',
        fromStatus: 'pending',
        toStatus: 'pending',
        amountCents: change.amountCents,
        note: null,
        requestId,
        payload: { update: { amountCents: change.amountCents, due: change.due } },
        forward: { type: 'payment.updated', webhookUrl, body: (eventId) => deliveryBody(eventId, 'payment.updated', changed) },
      },
      requestId,
    );
    return changed;
  }
}
