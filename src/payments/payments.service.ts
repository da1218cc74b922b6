import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { nameProvider, namingProvider } from '../common/errors/answer-provider';
import { PreparedResponse, type ProviderAnswer, successEnvelope } from '../common/http/envelope';
import { hasIdShape } from '../common/ids';
import { reaisToCents } from '../domain/money';
import { normaliseDocument } from '../common/validation/brazilian-document';
import { AppConfig } from '../config/app-config';
import { type IdempotencyClaim, type IdempotentCall, IdempotencyService } from '../idempotency/idempotency.service';
import { idempotentCall, type IdempotentRequest } from '../idempotency/idempotent-request';
import { GatewayMetrics, PaymentCreateOutcome } from '../metrics/gateway-metrics';
import type { AuthenticatedMerchant } from '../auth/merchant-key-resolver';
import { chargeTxid } from '../providers/charge-txid';
import { type AccountEnvironment, type CreateChargeRequest, type ProviderCharge, UpstreamError } from '../providers/provider-adapter';
import { AccountResolver, type ActingAccount, type RouteStep } from '../providers/provider-accounts/account-resolver';
import {
  AccountUnusableError,
  classifyCreateFailure,
  type CreateFailureClass,
  type FailureContext,
  isProviderFailure,
  providerFailureLog,
  providerFailureToAppError,
} from '../providers/provider-errors';
import { CircuitOpenError } from '../providers/routing/account-breakers';
import { Clock } from '../domain/clock';
import type { AttemptOutcome } from './routing/payment-attempt.entity';
import { PaymentAttemptRepository } from './routing/payment-attempt.repository';
import type { CreatePaymentDto } from './dto/create-payment.dto';
import { type ChargedAttempt, PaymentRepository } from './payment.repository';
import { PaymentView } from './payment.view';
import { paymentOfCharge } from './payment-of-charge';
import type { MerchantListPaymentsQuery } from './dto/merchant-list-payments.query';
import { decodeCursor, type Page, toPage } from '../common/http/cursor';
import { ErrorCode } from '../common/errors/error-codes';
import type { DueTerms } from '../domain/due-charge';
import { brasiliaDate } from '../domain/recurrence';
import { supports } from '../providers/capabilities';
import type { PayerAddress } from '../providers/provider-adapter';
import { dueChargeOf } from './due/due-terms';
import { PaymentViews } from './payment-views';

/** The merchant's accounts in its order, and the first of them that can be acted through. */
interface Route {
  steps: RouteStep[];
  first: ActingAccount;
}

/** What one create asks of every account it tries. */
interface ChargeAsk {
  merchantId: string;
  key: string;
  dto: CreatePaymentDto;
  amountCents: number;
  requestId: string;
  /** A due-date charge's terms, checked once the key is claimed (its dates are judged against today). */
  due: DueTerms | null;
  payerAddress: PayerAddress | null;
  /** The batch the payment is made for (src/payment-batches), or null. */
  batchId: string | null;
  /** The payment link a payer opened it from (docs/checkout.md). */
  paymentLinkId: string | null;
}

/** A try at one account that charged: the charge, under the txid it was asked for. */
interface Charged {
  charge: ProviderCharge;
  txid: string;
  /** performance.now() when the call started. */
  started: number;
}

/** A try at one account that did not charge, as written to its attempt. */
interface FailedTry {
  error: unknown;
  kind: CreateFailureClass | 'circuit_open';
  provider: string;
  accountId: string | null;
  upstreamStatus: number | null;
}

@Injectable()
export class PaymentsService {
  private readonly logger = new Logger('Payments');

  constructor(
    private readonly payments: PaymentRepository,
    private readonly config: AppConfig,
    private readonly idempotency: IdempotencyService,
    private readonly metrics: GatewayMetrics,
    private readonly accounts: AccountResolver,
    private readonly attempts: PaymentAttemptRepository,
    private readonly clock: Clock,
    private readonly paymentViews: PaymentViews,
  ) {}

  /**
   * Creates a Pix payment at the merchant's provider, exactly once per Idempotency-Key. The
   * response is stored with the completed idempotency record and the payment row in one
   * statement, so a replay returns byte for byte what the first request returned.
   */
  async create(
    merchant: AuthenticatedMerchant,
    dto: CreatePaymentDto,
    request: IdempotentRequest,
    options: { batchId?: string; paymentLinkId?: string } = {},
  ): Promise<PreparedResponse> {
    const call = idempotentCall(merchant.id, request);
    const amountCents = this.amountInCents(dto.amount);
    const route = await this.routeOrReplay(merchant, call, dto.due !== undefined);
    if (route instanceof PreparedResponse) return route;
    const ask: ChargeAsk = {
      merchantId: merchant.id,
      key: call.key,
      dto,
      amountCents,
      requestId: request.requestId,
      due: null,
      payerAddress: null,
      batchId: options.batchId ?? null,
      paymentLinkId: options.paymentLinkId ?? null,
    };
    // Every answer about this payment, errors included, names the provider that handles it (the first to try, until another charges).
    const provider = route.first.provider;
    const make = async (claim: IdempotencyClaim) => {
      // After the key: a completed create replays whatever today's date says of its due date now.
      return { completed: await this.chargeAlongRoute(claim, route.steps, { ...ask, ...dueChargeOf(dto, amountCents, brasiliaDate(this.clock.now())) }) };
    };
    return namingProvider(provider, () =>
      this.idempotency.run(call, make, {
        provider,
        // Whatever failed, the key stays retryable: its retry asks each PSP for the charge it may hold.
        refusal: 'release',
        onReplay: () => this.count(provider, 'replayed'),
      }),
    );
  }

  /**
   * The merchant's accounts, in order. When not one can be acted through, the answer is 502 before
   * any key is claimed, as with a single account, unless a create of this key completed: what it
   * answered stands, whatever changed since (docs/api.md, Idempotency).
   */
  private async routeOrReplay(merchant: AuthenticatedMerchant, call: IdempotentCall, due: boolean): Promise<Route | PreparedResponse> {
    let steps: RouteStep[];
    try {
      steps = await this.accounts.routeForMerchant(merchant);
    } catch (error) {
      // An account that cannot be charged through still names its provider in the answer and the metrics.
      const unusable = error instanceof AccountUnusableError ? error : undefined;
      const replayed = await this.replayCompleted(call);
      if (replayed) return replayed;
      throw this.unroutable(error, unusable?.provider ?? merchant.provider ?? this.config.defaultProvider, unusable?.accountId ?? null);
    }
    if (due) {
      const offering = steps.filter((step) => !('acting' in step) || supports(step.acting.adapter, 'dueCharges'));
      if (!offering.some((step) => 'acting' in step)) {
        const replayed = await this.replayCompleted(call);
        if (replayed) return replayed;
        throw this.noDueCharges(steps);
      }
      steps = offering;
    }
    const first = steps.find((step): step is { acting: ActingAccount } => 'acting' in step);
    if (first) return { steps, first: first.acting };
    const { unusable } = steps[0] as { unusable: AccountUnusableError };
    const replayed = await this.replayCompleted(call);
    if (replayed) return replayed;
    throw this.unroutable(unusable, unusable.provider, unusable.accountId);
  }

  /**
   * A completed create of this key, replayed although the merchant's accounts cannot be acted
   * through now. Asked only on that failure, so a create pays no extra read.
   */
  private async replayCompleted(call: IdempotentCall): Promise<PreparedResponse | null> {
    const completed = await this.idempotency.completedReplay(call.merchantId, call.key, call.fingerprint, call.path);
    if (completed) this.count((JSON.parse(String(completed.body)) as { provider: string }).provider, 'replayed');
    return completed;
  }

  /** A due-date charge for a merchant none of whose accounts' providers offers them: 422 naming `due` and the providers. */
  private noDueCharges(steps: RouteStep[]): AppError {
    const names = [...new Set(steps.map((step) => ('acting' in step ? step.acting.provider : step.unusable.provider)))];
    const provider = names[0] ?? this.config.defaultProvider;
    return nameProvider(
      new AppError(ErrorCode.VALIDATION_ERROR, {
        status: 422,
        message: 'The merchant has no provider account that takes due-date charges.',
        details: { fields: [{ field: 'due', message: `None of the merchant's providers (${names.join(', ')}) offers due-date charges through this gateway.` }] },
      }),
      provider,
    );
  }

  /** The answer to a create no account can be found or acted through for, naming the provider that could not be used. */
  private unroutable(error: unknown, provider: string, accountId: string | null): unknown {
    this.count(provider, 'failed');
    return nameProvider(isProviderFailure(error) ? providerFailureToAppError(error, this.failure(provider, accountId)) : error, provider);
  }

  /**
   * Routing (docs/providers.md, Routing): the accounts in the merchant's order, every try recorded,
   * until one charges. A retry of the key starts again at the first account with the same txid per
   * account, so a PSP that already holds the charge answers it back instead of making a second one.
   */
  private async chargeAlongRoute(claim: IdempotencyClaim, steps: RouteStep[], ask: ChargeAsk): Promise<PreparedResponse> {
    const failed: FailedTry[] = [];
    for (const [index, step] of steps.entries()) {
      const hasNext = index < steps.length - 1;
      if ('unusable' in step) {
        failed.push(await this.skipUnusable(claim, step, hasNext));
        continue;
      }
      const tried = await this.tryAccount(claim, step.acting, ask, hasNext);
      // From here on, answers name the account that charged.
      if ('charge' in tried) return namingProvider(step.acting.provider, () => this.completeCharged(claim, step.acting, tried, ask));
      failed.push(tried);
      // A payment every PSP would refuse is not tried elsewhere.
      if (tried.kind === 'rejected') break;
    }
    throw this.everyAccountFailed(claim, failed);
  }

  /** An account on the route that cannot be acted through: written down as refused, and the route moves on. */
  private async skipUnusable(claim: IdempotencyClaim, step: Extract<RouteStep, { unusable: unknown }>, hasNext: boolean): Promise<FailedTry> {
    const { unusable } = step;
    await this.attempts.record({
      ...this.attemptBase(claim, unusable.accountId, unusable.provider, step.environment, null),
      outcome: 'refused',
      upstreamStatus: null,
      error: unusable.message,
      durationMs: 0,
      orphanDueAt: null,
    });
    this.countAttempt(unusable.accountId ?? unusable.provider, 'refused', hasNext);
    return { error: unusable, kind: 'refused', provider: unusable.provider, accountId: unusable.accountId, upstreamStatus: null };
  }

  /** Asks one account for the charge, through its circuit breaker, with no transaction open. */
  private async tryAccount(claim: IdempotencyClaim, acting: ActingAccount, ask: ChargeAsk, hasNext: boolean): Promise<Charged | FailedTry> {
    const txid = chargeTxid(acting.adapter.descriptor.capabilities, { claimTxid: claim.txid, merchantId: ask.merchantId, idempotencyKey: ask.key, accountId: acting.accountId });
    const started = performance.now();
    try {
      const charge = await this.metrics.timeProviderCall(acting.metricsLabel, 'create_charge', () =>
        acting.adapter.createCharge(acting.account, this.chargeRequest(claim, acting, txid, ask)),
      );
      if (charge.txid !== txid || charge.amountCents !== ask.amountCents) {
        throw new UpstreamError({ kind: 'malformed', message: `Provider answered for txid ${charge.txid} / ${charge.amountCents} centavos` });
      }
      return { charge, txid, started };
    } catch (error) {
      return this.recordFailedTry(claim, acting, { error, txid, started, hasNext, due: ask.due !== null });
    }
  }

  private chargeRequest(claim: IdempotencyClaim, acting: ActingAccount, txid: string, { dto, amountCents, due, payerAddress }: ChargeAsk): CreateChargeRequest {
    return {
      paymentId: claim.paymentId,
      txid,
      amountCents,
      currency: 'BRL',
      description: dto.description ?? null,
      externalId: dto.externalId,
      payer: { document: normaliseDocument(dto.recipientDocument), name: dto.recipientName, email: dto.recipientEmail ?? null },
      expiresInSeconds: this.config.pixExpirySeconds,
      notificationUrl: acting.notificationUrl,
      due,
      payerAddress,
    };
  }

  /**
   * Writes down a failed try, classified (`classifyCreateFailure`): refused or open-circuited, the
   * route moves on; ambiguous, the charge the PSP may hold is an orphan for the orphan job; rejected,
   * the create stops. Anything that is not a provider failure is a bug, thrown as it is.
   */
  private async recordFailedTry(
    claim: IdempotencyClaim,
    acting: ActingAccount,
    { error, txid, started, hasNext, due }: { error: unknown; txid: string; started: number; hasNext: boolean; due: boolean },
  ): Promise<FailedTry> {
    const kind = error instanceof CircuitOpenError ? 'circuit_open' : classifyCreateFailure(error);
    if (kind === undefined) {
      this.count(acting.provider, 'failed');
      throw error;
    }
    const upstreamStatus = error instanceof UpstreamError ? (error.upstreamStatus ?? null) : null;
    await this.attempts.record({
      ...this.attemptBase(claim, acting.accountId, acting.provider, acting.environment, txid),
      due,
      outcome: kind,
      upstreamStatus,
      error: error instanceof Error ? error.message : String(error),
      durationMs: performance.now() - started,
      // Before this account is left, the charge it may hold is written down for the orphan job,
      // which first looks once a request still in flight at the PSP has surely landed.
      orphanDueAt: kind === 'ambiguous' ? new Date(this.clock.now().getTime() + 2 * this.config.upstreamTimeoutMs) : null,
    });
    const movesOn = hasNext && kind !== 'rejected';
    this.countAttempt(acting.metricsLabel, kind, movesOn);
    // The last account's failure is logged with the answer; one the route moves on from is logged here, or it would go unseen.
    if (movesOn && isProviderFailure(error)) {
      const [fields, message] = providerFailureLog(error, { ...this.failure(acting.provider, acting.accountId), paymentId: claim.paymentId });
      this.logger.warn({ ...fields, moved_on: true }, `${message}; trying the next account`);
    }
    return { error, kind, provider: acting.provider, accountId: acting.accountId, upstreamStatus };
  }

  /** The account charged: the payment is written with its completed record. */
  private async completeCharged(claim: IdempotencyClaim, acting: ActingAccount, { charge, txid, started }: Charged, ask: ChargeAsk): Promise<PreparedResponse> {
    const at = this.clock.now();
    // Only a retry of the key can find an orphan of its own at this account: the charge it left is the payment's now.
    if (claim.attempt > 1) await this.attempts.adoptCharge(claim.paymentId, acting.accountId, txid, at);
    this.countAttempt(acting.metricsLabel, 'charged', false);
    try {
      return await this.complete(claim, acting, charge, ask, { durationMs: performance.now() - started, at });
    } catch (error) {
      this.count(acting.provider, 'failed');
      throw error;
    }
  }

  /**
   * Every account failed (or the payment was rejected): the answer names the provider tried last,
   * and carries the last status a PSP answered.
   */
  private everyAccountFailed(claim: IdempotencyClaim, failed: FailedTry[]): unknown {
    const last = failed.at(-1)!;
    this.count(last.provider, 'failed');
    if (!isProviderFailure(last.error)) return nameProvider(last.error, last.provider);
    const answer = providerFailureToAppError(last.error, { ...this.failure(last.provider, last.accountId), paymentId: claim.paymentId });
    const lastUpstreamStatus = failed.findLast((tried) => tried.upstreamStatus !== null)?.upstreamStatus ?? undefined;
    if (answer.upstreamStatus !== undefined || lastUpstreamStatus === undefined) return nameProvider(answer, last.provider);
    const withStatus = new AppError(answer.code, { message: answer.message, details: answer.details, upstreamStatus: lastUpstreamStatus, cause: last.error });
    return nameProvider(withStatus, last.provider);
  }

  private failure(provider: string, accountId: string | null): FailureContext {
    return { audience: 'merchant', operation: 'create', action: 'create charge', provider, accountId, logger: this.logger };
  }

  private attemptBase(claim: IdempotencyClaim, accountId: string | null, provider: string, environment: AccountEnvironment, txid: string | null) {
    return { paymentId: claim.paymentId, merchantId: claim.merchantId, accountId, provider, environment, txid, providerPaymentId: null, at: this.clock.now() };
  }

  private countAttempt(account: string, outcome: AttemptOutcome, movedOn: boolean): void {
    this.metrics.routingAttempts.inc({ account, outcome });
    if (movedOn) this.metrics.routingFallbacks.inc({ account });
  }

  /** The merchant's own payment, with its provider for the envelope; anyone else's, or an id of the wrong shape, is NOT_FOUND. */
  async get(merchantId: string, id: string): Promise<ProviderAnswer<PaymentView>> {
    if (!hasIdShape(id, 'pay')) throw AppError.notFound('Payment not found.');
    const payment = await this.payments.findForMerchant(merchantId, id);
    if (!payment) throw AppError.notFound('Payment not found.');
    return { provider: payment.provider, data: this.paymentViews.view(payment) };
  }

  /** The merchant's own payments, newest first, one keyset page at a time; nobody else's ever. */
  async list(merchantId: string, query: MerchantListPaymentsQuery): Promise<Page<PaymentView>> {
    const limit = query.limit ?? 20;
    const rows = await this.payments.listPage({
      merchantId,
      status: query.status,
      externalId: query.externalId,
      paymentLinkId: query.paymentLinkId,
      createdFrom: query.created_from ? new Date(query.created_from) : undefined,
      createdTo: query.created_to ? new Date(query.created_to) : undefined,
      after: query.cursor ? decodeCursor(query.cursor) : undefined,
      limit,
    });
    return toPage(rows, limit, ({ payment }) => this.paymentViews.view(payment));
  }

  private count(provider: string, outcome: PaymentCreateOutcome): void {
    this.metrics.paymentsCreated.inc({ provider, outcome });
  }

  private amountInCents(amount: number): number {
    const cents = reaisToCents(amount);
    if (cents === undefined || cents <= 0) throw AppError.validation([{ field: 'amount', message: 'amount must be greater than 0 with at most 2 decimal places' }]);
    if (cents > this.config.maxAmountCents) {
      throw AppError.validation([{ field: 'amount', message: `amount must be at most ${(this.config.maxAmountCents / 100).toFixed(2)}` }]);
    }
    return cents;
  }

  private async complete(
    claim: IdempotencyClaim,
    acting: ActingAccount,
    charge: ProviderCharge,
    { dto, amountCents, requestId, due, payerAddress, batchId, paymentLinkId }: ChargeAsk,
    charged: ChargedAttempt,
  ): Promise<PreparedResponse> {
    const now = new Date();
    const payment = paymentOfCharge({
      id: claim.paymentId,
      merchantId: claim.merchantId,
      amountCents,
      description: dto.description ?? null,
      externalId: dto.externalId,
      recipient: { document: normaliseDocument(dto.recipientDocument), name: dto.recipientName, email: dto.recipientEmail ?? null },
      account: acting,
      charge,
      at: now,
      due,
      recipientAddress: payerAddress,
      batchId,
      returnUrl: dto.returnUrl ?? null,
      paymentLinkId,
    });
    const provider = acting.provider;
    const body = JSON.stringify(successEnvelope(this.paymentViews.view(payment), requestId, provider));

    // The record completes (only for the attempt that still holds it) and the payment is written, or neither happens.
    const inserted = await this.payments.insertCompletingClaim(payment, claim, body, charged);
    if (!inserted) {
      this.count(provider, 'replayed');
      return this.idempotency.replayOrInProgress(claim);
    }
    this.count(provider, 'created');
    return new PreparedResponse(201, body, { 'content-type': 'application/json; charset=utf-8' });
  }
}
