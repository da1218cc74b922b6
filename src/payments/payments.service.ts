import { Injectable, Logger } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { PreparedResponse, successEnvelope } from '../common/http/envelope';
import { hasIdShape } from '../common/ids';
import type { GatewayRequestState } from '../common/http/request-state';
import { reaisToCents } from '../domain/money';
import { normaliseDocument } from '../common/validation/brazilian-document';
import { AppConfig } from '../config/app-config';
import { IdempotencyClaim, IdempotencyService } from '../idempotency/idempotency.service';
import { GatewayMetrics, PaymentCreateOutcome } from '../metrics/gateway-metrics';
import { requestFingerprint } from '../idempotency/request-fingerprint';
import { requireIdempotencyKey } from '../idempotency/idempotency-key';
import type { AuthenticatedMerchant } from '../auth/merchant-key-resolver';
import { chargeTxid } from '../providers/charge-txid';
import { type AccountEnvironment, type CreateChargeRequest, type ProviderCharge, UpstreamError } from '../providers/provider-adapter';
import { AccountResolver, type ActingAccount, type RouteStep } from '../providers/provider-accounts/account-resolver';
import {
  AccountUnusableError,
  classifyCreateFailure,
  type FailureContext,
  isProviderFailure,
  providerFailureLog,
  providerFailureToAppError,
  rethrowProviderFailure,
} from '../providers/provider-errors';
import { CircuitOpenError } from '../providers/routing/account-breakers';
import { Clock } from '../domain/clock';
import type { AttemptOutcome } from './routing/payment-attempt.entity';
import { PaymentAttemptRepository } from './routing/payment-attempt.repository';
import type { CreatePaymentDto } from './dto/create-payment.dto';
import type { CreateRequestContext } from './create-request.decorator';
import { type ChargedAttempt, PaymentRepository } from './payment.repository';
import { toPaymentView, PaymentView } from './payment.view';
import { paymentOfCharge } from './payment-of-charge';
import type { MerchantListPaymentsQuery } from './dto/merchant-list-payments.query';
import { decodeCursor, type Page, toPage } from '../common/http/cursor';

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
  ) {}

  /**
   * Creates a Pix payment at the merchant's provider, exactly once per Idempotency-Key. The
   * response is stored with the completed idempotency record and the payment row in one
   * statement, so a replay returns byte for byte what the first request returned.
   */
  async create(merchant: AuthenticatedMerchant, dto: CreatePaymentDto, request: CreateRequestContext): Promise<PreparedResponse> {
    const key = requireIdempotencyKey(request.idempotencyKey);
    const amountCents = this.amountInCents(dto.amount);
    const merchantProvider = merchant.provider ?? this.config.defaultProvider;
    const fingerprint = requestFingerprint('POST', request.path, request.body);
    const failure = (provider: string, accountId: string | null): FailureContext => ({
      audience: 'merchant',
      operation: 'create',
      action: 'create charge',
      provider,
      accountId,
      logger: this.logger,
    });
    let route: RouteStep[];
    try {
      route = await this.accounts.routeForMerchant(merchant);
    } catch (error) {
      const replayed = await this.replayCompleted(merchant.id, key, fingerprint, request.path);
      if (replayed) return replayed;
      // An account that cannot be charged through still names its provider in the answer and the metrics.
      const provider = error instanceof AccountUnusableError ? error.provider : merchantProvider;
      request.state.provider = provider;
      this.count(provider, 'failed');
      rethrowProviderFailure(error, failure(provider, error instanceof AccountUnusableError ? error.accountId : null));
    }
    const first = route.find((step): step is { acting: ActingAccount } => 'acting' in step);
    if (!first) {
      const replayed = await this.replayCompleted(merchant.id, key, fingerprint, request.path);
      if (replayed) return replayed;
      // No listed account can be acted through: answered before any key is claimed, as with one account.
      const unusable = (route[0] as { unusable: AccountUnusableError }).unusable;
      request.state.provider = unusable.provider;
      this.count(unusable.provider, 'failed');
      rethrowProviderFailure(unusable, failure(unusable.provider, unusable.accountId));
    }
    // Every answer about this payment, errors included, names the provider that handles it (the first to try, until another charges).
    request.state.provider = first.acting.provider;

    const outcome = await this.idempotency.begin(merchant.id, key, fingerprint, request.path);
    if (outcome.kind === 'replay') {
      this.count(first.acting.provider, 'replayed');
      return outcome.response;
    }
    const claim = outcome.claim;
    // Every way out below releases the key when it fails; this also covers a database that failed us
    // between the steps (an outage), so the retry need not wait for the lock (a second release is a no-op).
    try {
      const chargeRequest = (acting: ActingAccount, txid: string): CreateChargeRequest => ({
        paymentId: claim.paymentId,
        txid,
        amountCents,
        currency: 'BRL',
        description: dto.description ?? null,
        externalId: dto.externalId,
        debtor: { document: normaliseDocument(dto.recipientDocument), name: dto.recipientName, email: dto.recipientEmail ?? null },
        expiresInSeconds: this.config.pixExpirySeconds,
        notificationUrl: acting.notificationUrl,
      });

      // Routing (docs/providers.md, Routing): the accounts in the merchant's order, every try recorded.
      // A retry of the key starts again at the first account with the same txid per account, so a PSP
      // that already holds the charge answers it back instead of making a second one.
      let last: { error: unknown; provider: string; accountId: string | null } | undefined;
      let lastUpstreamStatus: number | undefined;
      for (const [index, step] of route.entries()) {
        const hasNext = index < route.length - 1;
        if ('unusable' in step) {
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
          last = { error: unusable, provider: unusable.provider, accountId: unusable.accountId };
          continue;
        }
        const { acting } = step;
        const txid = chargeTxid(acting.adapter.descriptor.capabilities, { claimTxid: claim.txid, merchantId: merchant.id, idempotencyKey: key, accountId: acting.accountId });
        const started = performance.now();
        let charge: ProviderCharge;
        try {
          charge = await this.metrics.timeProviderCall(acting.metricsLabel, 'create_charge', () => acting.adapter.createCharge(acting.account, chargeRequest(acting, txid)));
          if (charge.txid !== txid || charge.amountCents !== amountCents) {
            throw new UpstreamError({ kind: 'malformed', message: `Provider answered for txid ${charge.txid} / ${charge.amountCents} centavos` });
          }
        } catch (error) {
          const kind = error instanceof CircuitOpenError ? 'circuit_open' : classifyCreateFailure(error);
          if (kind === undefined) {
            // Not a provider failure: a bug, answered as such, and the key may be retried.
            this.count(acting.provider, 'failed');
            await this.idempotency.release(claim, acting.provider);
            throw error;
          }
          const upstreamStatus = error instanceof UpstreamError ? (error.upstreamStatus ?? null) : null;
          if (upstreamStatus !== null) lastUpstreamStatus = upstreamStatus;
          await this.attempts.record({
            ...this.attemptBase(claim, acting.accountId, acting.provider, acting.environment, txid),
            outcome: kind,
            upstreamStatus,
            error: error instanceof Error ? error.message : String(error),
            durationMs: performance.now() - started,
            // Before this account is left, the charge it may hold is written down for the orphan job,
            // which first looks once a request still in flight at the PSP has surely landed.
            orphanDueAt: kind === 'ambiguous' ? new Date(this.clock.now().getTime() + 2 * this.config.upstreamTimeoutMs) : null,
          });
          last = { error, provider: acting.provider, accountId: acting.accountId };
          this.countAttempt(acting.metricsLabel, kind, hasNext && kind !== 'rejected');
          // The last account's failure is logged with the answer; one the route moves on from is logged here, or it would go unseen.
          if (hasNext && kind !== 'rejected' && isProviderFailure(error)) {
            const [fields, message] = providerFailureLog(error, { ...failure(acting.provider, acting.accountId), paymentId: claim.paymentId });
            this.logger.warn({ ...fields, moved_on: true }, `${message}; trying the next account`);
          }
          // A payment every PSP would refuse is not tried elsewhere.
          if (kind === 'rejected') break;
          continue;
        }

        request.state.provider = acting.provider;
        const at = this.clock.now();
        // Only a retry of the key can find an orphan of its own at this account: the charge it left is the payment's now.
        if (claim.attempt > 1) await this.attempts.adoptCharge(claim.paymentId, acting.accountId, txid, at);
        this.countAttempt(acting.metricsLabel, 'charged', false);
        try {
          return await this.complete(claim, acting, charge, dto, amountCents, request.requestId, { durationMs: performance.now() - started, at });
        } catch (error) {
          this.count(acting.provider, 'failed');
          await this.idempotency.release(claim, acting.provider);
          throw error;
        }
      }

      // Every account failed (or the payment was rejected): the key stays retryable, and the answer
      // carries the last status a PSP answered.
      const failed = last!;
      request.state.provider = failed.provider;
      this.count(failed.provider, 'failed');
      await this.idempotency.release(claim, failed.provider);
      const context = { ...failure(failed.provider, failed.accountId), paymentId: claim.paymentId };
      if (!isProviderFailure(failed.error)) throw failed.error;
      const answer = providerFailureToAppError(failed.error, context);
      if (answer.upstreamStatus !== undefined || lastUpstreamStatus === undefined) throw answer;
      throw new AppError(answer.code, { message: answer.message, details: answer.details, upstreamStatus: lastUpstreamStatus, cause: failed.error });
    } catch (error) {
      await this.idempotency.release(claim, request.state.provider);
      throw error;
    }
  }

  /**
   * A completed create of this key, replayed although the merchant's accounts cannot be acted
   * through now: what it answered stands, whatever changed since (docs/api.md, Idempotency). Asked
   * only on that failure, so a create pays no extra read.
   */
  private async replayCompleted(merchantId: string, key: string, fingerprint: string, path: string): Promise<PreparedResponse | null> {
    const completed = await this.idempotency.completedReplay(merchantId, key, fingerprint, path);
    if (completed) this.count((JSON.parse(String(completed.body)) as { provider: string }).provider, 'replayed');
    return completed;
  }

  private attemptBase(claim: IdempotencyClaim, accountId: string | null, provider: string, environment: AccountEnvironment, txid: string | null) {
    return { paymentId: claim.paymentId, merchantId: claim.merchantId, accountId, provider, environment, txid, providerPaymentId: null, at: this.clock.now() };
  }

  private countAttempt(account: string, outcome: AttemptOutcome, movedOn: boolean): void {
    this.metrics.routingAttempts.inc({ account, outcome });
    if (movedOn) this.metrics.routingFallbacks.inc({ account });
  }

  /** The merchant's own payment; anyone else's, or an id of the wrong shape, is NOT_FOUND. The envelope names the payment's provider. */
  async get(merchantId: string, id: string, state?: GatewayRequestState): Promise<PaymentView> {
    if (!hasIdShape(id, 'pay')) throw AppError.notFound('Payment not found.');
    const payment = await this.payments.findForMerchant(merchantId, id);
    if (!payment) throw AppError.notFound('Payment not found.');
    if (state) state.provider = payment.provider;
    return toPaymentView(payment);
  }

  /** The merchant's own payments, newest first, one keyset page at a time; nobody else's ever. */
  async list(merchantId: string, query: MerchantListPaymentsQuery): Promise<Page<PaymentView>> {
    const limit = query.limit ?? 20;
    const rows = await this.payments.listPage({
      merchantId,
      status: query.status,
      externalId: query.externalId,
      createdFrom: query.created_from ? new Date(query.created_from) : undefined,
      createdTo: query.created_to ? new Date(query.created_to) : undefined,
      after: query.cursor ? decodeCursor(query.cursor) : undefined,
      limit,
    });
    return toPage(rows, limit, ({ payment }) => toPaymentView(payment));
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
    dto: CreatePaymentDto,
    amountCents: number,
    requestId: string,
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
    });
    const provider = acting.provider;
    const body = JSON.stringify(successEnvelope(toPaymentView(payment), requestId, provider));

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
