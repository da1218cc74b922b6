import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-codes';
import { namingProvider } from '../../common/errors/answer-provider';
import { PreparedResponse, type ProviderAnswer, successEnvelope } from '../../common/http/envelope';
import { hasIdShape } from '../../common/ids';
import { Clock } from '../../domain/clock';
import { centsToDecimalString, reaisToCents } from '../../domain/money';
import { isRefundable } from '../../domain/payment-status';
import { type IdempotencyClaim, IdempotencyService } from '../../idempotency/idempotency.service';
import { idempotentCall, type IdempotentRequest } from '../../idempotency/idempotent-request';
import { AppConfig } from '../../config/app-config';
import { GatewayMetrics } from '../../metrics/gateway-metrics';
import type { Payment } from '../payment.entity';
import { PaymentRepository } from '../payment.repository';
import type { Refund } from './refund.entity';
import { RefundRepository } from './refund.repository';
import { toRefundView, type RefundView } from './refund.view';
import { type ActingAccount, AccountResolver } from '../../providers/provider-accounts/account-resolver';
import { type FailureContext, rethrowProviderFailure } from '../../providers/provider-errors';
import { supports } from '../../providers/capabilities';
import { type ChargeLookup, type ProviderRefund, UpstreamError } from '../../providers/provider-adapter';
import { PaymentEventsService, type RefundOutcome } from '../lifecycle/payment-events.service';
import type { CreateRefundDto } from './dto/create-refund.dto';

/** What a refund asks for, once its key is claimed. */
interface RefundAsk {
  merchantId: string;
  payment: Payment;
  refundId: string;
  asked: number | undefined;
  reason: string | undefined;
  acting: ActingAccount;
}

/**
 * Refunds the merchant (or the operator for it) asks for (docs/api.md, Refunds). Money safety:
 * what is left to refund is read and the refund written under the payment's row lock, counting
 * pending refunds, so two refunds racing for the last reais cannot both pass, in any number of
 * processes; the PSP's key is derived from the refund's id, so a retry after a timeout asks for
 * the same refund, never a second one; the PSP's answer is applied by PaymentEventsService, like
 * any other reports of the refund, exactly once.
 */
@Injectable()
export class RefundsService {
  private readonly logger = new Logger('Refunds');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly payments: PaymentRepository,
    private readonly refunds: RefundRepository,
    private readonly idempotency: IdempotencyService,
    private readonly accounts: AccountResolver,
    private readonly events: PaymentEventsService,
    private readonly metrics: GatewayMetrics,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * The key is looked up before anything else is checked (docs/api.md, Idempotency): a replay
   * answers what was answered whatever the payment's state now, and a retry resumes its own refund,
   * which is not counted against itself. The request's path names the payment: one key for two
   * payments is two requests. A refusal for the payment's state or what is left frees the key; any
   * other failure (the PSP's, the database's) leaves it for the retry, which answers the refund as it stands.
   */
  async create(merchantId: string, paymentId: string, dto: CreateRefundDto, request: IdempotentRequest): Promise<PreparedResponse> {
    const call = idempotentCall(merchantId, request);
    const asked = dto.amount === undefined ? undefined : this.amountInCents(dto.amount);
    const payment = await this.merchantPayment(merchantId, paymentId);
    const refund = async (claim: IdempotencyClaim) => ({ complete: await this.refundUnder(claim, payment, asked, dto.reason, request.requestId) });
    // From here on, every answer names the payment's provider.
    return namingProvider(payment.provider, () => this.idempotency.run(call, refund, { provider: payment.provider }));
  }

  /**
   * The claim's refund: opened under the payment's lock (or the one an earlier attempt of the key
   * opened), asked of the PSP when the PSP has not answered for it, and answered as it stands.
   */
  private async refundUnder(claim: IdempotencyClaim, payment: Payment, asked: number | undefined, reason: string | undefined, requestId: string): Promise<PreparedResponse> {
    // The id the claim reserved, the same on every retry of the key: the PSP's key derives from it.
    const refundId = `ref_${claim.paymentId.slice('pay_'.length)}`;
    const acting = await this.acting(payment);
    const refund = await this.dataSource.transaction((tx) => this.openRefund(tx, { merchantId: claim.merchantId, payment, refundId, asked, reason, acting }));
    // A refund the PSP has not answered for (new, or its answer lost) is asked for, with its own id;
    // one it answered, or that settled meanwhile, is answered as it stands: never asked again, never re-opened.
    if (refund.status === 'pending' && refund.providerRefundId === null) {
      await this.send(acting, refund, requestId).catch((error: unknown) => rethrowProviderFailure(error, this.failure(payment, 'refund')));
    }
    const stored = (await this.refunds.findById(refund.id))!;
    const body = JSON.stringify(successEnvelope(toRefundView(stored), requestId, payment.provider));
    return new PreparedResponse(201, body, { 'content-type': 'application/json; charset=utf-8' });
  }

  /**
   * The key's refund under the payment's row lock: the one an earlier attempt of the key made, as it
   * stands, or a new pending one once the payment, the provider and what is left allow it. What is
   * left counts pending refunds, so two refunds racing for the last reais cannot both pass.
   */
  private async openRefund(tx: EntityManager, ask: RefundAsk): Promise<Refund> {
    const { payment, acting } = ask;
    const locked = await this.payments.lockForMerchant(tx, ask.merchantId, payment.id);
    if (!locked) throw AppError.notFound('Payment not found.');
    const existing = await this.refunds.findForUpdate(tx, ask.refundId);
    if (existing) return existing;
    if (!supports(acting.adapter, 'refund')) {
      throw new AppError(ErrorCode.OPERATION_NOT_SUPPORTED, { message: `The provider "${payment.provider}" cannot refund payments.` });
    }
    this.assertRefundable(locked.payment);
    const available = locked.payment.amountCents - (await this.refunds.heldCents(tx, payment.id));
    const amount = ask.asked ?? available;
    this.assertAvailable(amount, available, acting, locked.payment);
    const now = this.clock.now();
    return this.refunds.insert(tx, {
      id: ask.refundId,
      paymentId: payment.id,
      merchantId: ask.merchantId,
      origin: 'merchant',
      status: 'pending',
      amountCents: amount,
      reason: ask.reason?.trim() || null,
      provider: payment.provider,
      providerAccountId: payment.providerAccountId,
      txid: payment.txid,
      providerPaymentId: payment.providerPaymentId,
      endToEndId: payment.endToEndId,
      providerRefundId: null,
      attemptId: null,
      // Should this process stop before the PSP answers, reconciliation asks again (same id) after this.
      nextCheckAt: new Date(now.getTime() + 2 * this.config.upstreamTimeoutMs),
      createdAt: now,
    });
  }

  /** The dashboard's refund: the operator acts for the payment's merchant, under the merchant's keys. */
  async createAsOperator(paymentId: string, dto: CreateRefundDto, request: IdempotentRequest): Promise<PreparedResponse> {
    return this.create(await this.merchantOf(paymentId), paymentId, dto, request);
  }

  /** Whose payment this is (for the operator's calls), or NOT_FOUND. */
  async merchantOf(paymentId: string): Promise<string> {
    const payment = hasIdShape(paymentId, 'pay') ? await this.payments.findById(paymentId) : null;
    if (!payment) throw AppError.notFound('Payment not found.');
    return payment.merchantId;
  }

  /**
   * Asks the PSP for the refund and applies its answer. A refusal (the PSP answered 4xx) fails the
   * refund, giving its amount back, and is rethrown for the 502; anything ambiguous leaves it
   * pending for reconciliation, which asks again with the same id.
   */
  async send(acting: ActingAccount, refund: Refund, requestId: string): Promise<ProviderRefund> {
    if (!supports(acting.adapter, 'refund')) throw new Error(`The provider "${refund.provider}" cannot refund.`);
    const refundAt = acting.adapter.refund.bind(acting.adapter);
    let answer: ProviderRefund;
    try {
      answer = await this.metrics.timeProviderCall(acting.metricsLabel, 'refund', () =>
        refundAt(acting.account, {
          refundId: refund.id,
          charge: chargeOf(refund),
          endToEndId: refund.endToEndId,
          amountCents: refund.amountCents,
          reason: refund.reason,
        }),
      );
    } catch (error) {
      if (error instanceof UpstreamError && error.kind === 'http' && !error.ambiguous) {
        await this.settle(
          refund,
          { status: 'failed', providerRefundId: null, amountCents: refund.amountCents, failureReason: error.providerMessage ?? error.message },
          requestId,
          false,
        );
      }
      throw error;
    }
    await this.settle(refund, answer, requestId, true);
    return answer;
  }

  /** Reads a refund the PSP answered back from it (reconciliation), and applies it once it settled. */
  async readBack(acting: ActingAccount, refund: Refund, requestId: string): Promise<ProviderRefund> {
    if (!supports(acting.adapter, 'refund')) throw new Error(`The provider "${refund.provider}" cannot read refunds back.`);
    const getRefund = acting.adapter.getRefund.bind(acting.adapter);
    const read = await this.metrics.timeProviderCall(acting.metricsLabel, 'get_refund', () =>
      getRefund(acting.account, { refundId: refund.id, endToEndId: refund.endToEndId, providerRefundId: refund.providerRefundId, charge: chargeOf(refund) }),
    );
    if (read.status !== 'pending') await this.settle(refund, read, requestId, true);
    return read;
  }

  /** Applies what the PSP says of a refund: its own id while pending, the refund's settlement otherwise. */
  async settle(refund: Refund, answer: RefundOutcome, requestId: string, forward: boolean): Promise<void> {
    const now = this.clock.now();
    if (answer.status === 'pending' || refund.origin === 'routing' || !forward) {
      // Nothing for the merchant to hear: still pending, another charge's money (routing), or a refusal answered as 502.
      await this.dataSource.transaction(async (tx) => {
        const current = await this.refunds.findForUpdate(tx, refund.id);
        if (current?.status !== 'pending') return;
        await this.refunds.update(tx, refund.id, { status: answer.status, providerRefundId: answer.providerRefundId, failureReason: answer.failureReason, at: now });
      });
      return;
    }
    await this.events.applyRefundOutcome({ id: refund.paymentId, provider: refund.provider, providerAccountId: refund.providerAccountId }, refund.id, answer, requestId);
  }

  /** The payment's refunds, answered naming its provider. */
  async list(merchantId: string, paymentId: string): Promise<ProviderAnswer<RefundView[]>> {
    const payment = await this.merchantPayment(merchantId, paymentId);
    const refunds = await namingProvider(payment.provider, () => this.refunds.listForPayment(payment.id, true));
    return { provider: payment.provider, data: refunds.map(toRefundView) };
  }

  async get(merchantId: string, refundId: string): Promise<ProviderAnswer<RefundView>> {
    const refund = hasIdShape(refundId, 'ref') ? await this.refunds.findForMerchant(merchantId, refundId) : null;
    // A routing refund returns another charge's money: not the merchant's to see.
    if (!refund || refund.origin === 'routing') throw AppError.notFound('Refund not found.');
    return { provider: refund.provider, data: toRefundView(refund) };
  }

  /** The merchant's own payment, or NOT_FOUND; answers about it name its provider. */
  async merchantPayment(merchantId: string, paymentId: string): Promise<Payment> {
    const payment = hasIdShape(paymentId, 'pay') ? await this.payments.findForMerchant(merchantId, paymentId) : null;
    if (!payment) throw AppError.notFound('Payment not found.');
    return payment;
  }

  async acting(payment: Pick<Payment, 'provider' | 'providerAccountId'>): Promise<ActingAccount> {
    try {
      return await this.accounts.forPayment(payment);
    } catch (error) {
      rethrowProviderFailure(error, this.failure(payment, 'open account'));
    }
  }

  failure(payment: Pick<Payment, 'provider' | 'providerAccountId'> & { id?: string }, what: string): FailureContext {
    return {
      audience: 'merchant',
      operation: 'call',
      provider: payment.provider,
      accountId: payment.providerAccountId,
      paymentId: payment.id,
      logger: this.logger,
      // Names the call in the warning, which would otherwise say only `call`.
      action: what,
      providerReason: what === 'refund',
    };
  }

  private assertRefundable(payment: Pick<Payment, 'status'>): void {
    if (!isRefundable(payment.status)) {
      throw new AppError(ErrorCode.PAYMENT_STATE_CONFLICT, { message: `A ${payment.status} payment cannot be refunded: only paid or partially refunded payments can.` });
    }
  }

  private assertAvailable(amount: number, available: number, acting: ActingAccount, payment: Pick<Payment, 'amountCents'>): void {
    if (available <= 0 || amount > available) {
      throw new AppError(ErrorCode.REFUND_EXCEEDS_AVAILABLE, {
        message: `The refund of ${centsToDecimalString(amount)} is more than the ${centsToDecimalString(Math.max(0, available))} left to refund.`,
        details: { available: Number(centsToDecimalString(Math.max(0, available))) },
      });
    }
    if (amount < payment.amountCents && !supports(acting.adapter, 'partialRefund')) {
      throw new AppError(ErrorCode.OPERATION_NOT_SUPPORTED, { message: 'This provider refunds only whole payments.' });
    }
  }

  private amountInCents(amount: number): number {
    const cents = reaisToCents(amount);
    if (cents === undefined || cents <= 0) throw AppError.validation([{ field: 'amount', message: 'amount must be greater than 0 with at most 2 decimal places' }]);
    return cents;
  }
}

/** The charge a refund returns money of, as adapters look it up. */
function chargeOf(refund: Refund): ChargeLookup {
  return { txid: refund.txid, providerPaymentId: refund.providerPaymentId, paymentId: refund.paymentId };
}
