import { Injectable, Logger } from '@nestjs/common';
import { AppError, type FieldError } from '../common/errors/app-error';
import { nameProvider, namingProvider } from '../common/errors/answer-provider';
import { ErrorCode } from '../common/errors/error-codes';
import { decodeCursor, type Page, toPage } from '../common/http/cursor';
import { PreparedResponse, type ProviderAnswer, successEnvelope } from '../common/http/envelope';
import { hasIdShape } from '../common/ids';
import { AppConfig } from '../config/app-config';
import type { AuthenticatedMerchant } from '../auth/merchant-key-resolver';
import { Clock } from '../domain/clock';
import type { DueTerms } from '../domain/due-charge';
import { reaisToCents } from '../domain/money';
import { brasiliaDate } from '../domain/recurrence';
import { type IdempotencyClaim, type IdempotentCall, IdempotencyService } from '../idempotency/idempotency.service';
import { idempotentCall, type IdempotentRequest } from '../idempotency/idempotent-request';
import { dueTermsOf } from '../payments/due/due-terms';
import { supports } from '../providers/capabilities';
import { AccountResolver, type RouteStep } from '../providers/provider-accounts/account-resolver';
import { AccountUnusableError, isProviderFailure, providerFailureToAppError } from '../providers/provider-errors';
import { batchIdOfClaim, chunkOf, chunkSizeFor, repeatedExternalIds } from './batch-plan';
import type { CreatePaymentBatchDto } from './dto/create-payment-batch.dto';
import type { ListPaymentBatchesQuery } from './dto/list-payment-batches.query';
import { PaymentBatch, PaymentBatchItem } from './payment-batch.entity';
import { PaymentBatchItemRepository } from './payment-batch-item.repository';
import { PaymentBatchRepository } from './payment-batch.repository';
import { type PaymentBatchSummaryView, type PaymentBatchView, toBatchView, toSummaryView } from './payment-batch.view';
import { PaymentBatchWorker } from './payment-batch.worker';

/** Where a batch's payments are made, as the merchant's route stands when it is accepted. */
interface BatchRoute {
  /** The provider of the first account that takes due-date charges: the envelope's `provider`. */
  provider: string;
  /** That account's `chargeBatches.maxCharges`, or null when it takes no batches. */
  maxCharges: number | null;
}

/**
 * A merchant's batches of due-date charges (docs/api.md, Payment batches): accepted whole or not
 * at all, then made in the background by PaymentBatchWorker.
 */
@Injectable()
export class PaymentBatchesService {
  private readonly logger = new Logger('PaymentBatches');

  constructor(
    private readonly batches: PaymentBatchRepository,
    private readonly items: PaymentBatchItemRepository,
    private readonly accounts: AccountResolver,
    private readonly idempotency: IdempotencyService,
    private readonly worker: PaymentBatchWorker,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * Accepts a batch, exactly once per Idempotency-Key: every item checked first (a bad one is 400
   * naming it by index, and nothing is stored), then the batch and its items stored in one
   * statement under an id the key's claim reserves, so a retry after a crash finds the same batch.
   * Answers 202 with every item pending; the worker makes them.
   */
  async create(merchant: AuthenticatedMerchant, dto: CreatePaymentBatchDto, request: IdempotentRequest): Promise<PreparedResponse> {
    const call = idempotentCall(merchant.id, request);
    const route = await this.routeOrReplay(merchant, call);
    if (route instanceof PreparedResponse) return route;
    const answer = await namingProvider(route.provider, () =>
      this.idempotency.run(call, async (claim) => ({ complete: await this.accept(merchant, dto, claim, route, request.requestId) }), { provider: route.provider }),
    );
    this.worker.nudge();
    return answer;
  }

  private async accept(merchant: AuthenticatedMerchant, dto: CreatePaymentBatchDto, claim: IdempotencyClaim, route: BatchRoute, requestId: string): Promise<PreparedResponse> {
    const terms = this.checkItems(dto);
    const id = batchIdOfClaim(claim.paymentId);
    const now = this.clock.now();
    const chunkSize = chunkSizeFor(route.maxCharges);
    const batch = Object.assign(new PaymentBatch(), {
      id,
      merchantId: merchant.id,
      description: dto.description,
      status: 'processing',
      provider: route.provider,
      itemCount: dto.payments.length,
      chunkSize,
      requestId,
      eventId: null,
      createdAt: now,
      updatedAt: now,
      completedAt: null,
    } satisfies PaymentBatch);
    const items = dto.payments.map((payment, index) =>
      Object.assign(new PaymentBatchItem(), {
        batchId: id,
        index,
        merchantId: merchant.id,
        externalId: payment.externalId,
        chunk: chunkOf(index, chunkSize),
        // The body as validated (names trimmed), plain JSON: what a one-by-one create sends.
        request: JSON.parse(JSON.stringify(payment)) as Record<string, unknown>,
        amountCents: terms[index]!.amountCents,
        due: terms[index]!.due,
        status: 'pending' as const,
      }),
    );
    const inserted = await this.batches.insertWithItems(batch, items);
    // A retry of a request whose batch was stored before its answer was: that batch, as it stands.
    const stored = inserted ? batch : await this.batches.findForMerchant(merchant.id, id);
    if (!stored) throw new AppError(ErrorCode.IDEMPOTENCY_IN_PROGRESS);
    const view = inserted ? toBatchView(batch, items) : toBatchView(stored, await this.items.listForBatch(id));
    const body = JSON.stringify(successEnvelope(view, requestId, route.provider));
    return new PreparedResponse(202, body, { 'content-type': 'application/json; charset=utf-8' });
  }

  /**
   * The rules no DTO decorator can state, for every item (the pipe has checked each one's shape):
   * amounts within the gateway's maximum, the due-date terms against today in Brasília, externalIds
   * unique in the batch. Every problem is named by its item's index; one problem refuses the whole batch.
   */
  private checkItems(dto: CreatePaymentBatchDto): { amountCents: number; due: DueTerms }[] {
    const today = brasiliaDate(this.clock.now());
    const problems: FieldError[] = [];
    const terms = dto.payments.map((payment, index) => {
      const prefix = `payments.${index}.`;
      const cents = reaisToCents(payment.amount);
      if (cents === undefined || cents <= 0) {
        problems.push({ field: `${prefix}amount`, message: 'amount must be greater than 0 with at most 2 decimal places' });
        return { amountCents: 0, due: null as unknown as DueTerms };
      }
      if (cents > this.config.maxAmountCents) problems.push({ field: `${prefix}amount`, message: `amount must be at most ${(this.config.maxAmountCents / 100).toFixed(2)}` });
      try {
        return { amountCents: cents, due: dueTermsOf(payment.due, cents, today, prefix) };
      } catch (error) {
        if (!(error instanceof AppError) || error.code !== ErrorCode.VALIDATION_ERROR) throw error;
        problems.push(...((error.details?.fields as FieldError[] | undefined) ?? []));
        return { amountCents: cents, due: null as unknown as DueTerms };
      }
    });
    for (const { index, externalId } of repeatedExternalIds(dto.payments.map((payment) => payment.externalId))) {
      problems.push({ field: `payments.${index}.externalId`, message: `externalId "${externalId}" is already used by another payment of this batch` });
    }
    if (problems.length > 0) throw AppError.validation(problems);
    return terms;
  }

  /**
   * The first account on the merchant's route that takes due-date charges. None that can be acted
   * through is 502 before any key is claimed; none that takes due-date charges is 422 naming `due`;
   * either way a completed request with the key replays what it answered.
   */
  private async routeOrReplay(merchant: AuthenticatedMerchant, call: IdempotentCall): Promise<BatchRoute | PreparedResponse> {
    let steps: RouteStep[];
    try {
      steps = await this.accounts.routeForMerchant(merchant);
    } catch (error) {
      const replayed = await this.idempotency.completedReplay(call.merchantId, call.key, call.fingerprint, call.path);
      if (replayed) return replayed;
      const unusable = error instanceof AccountUnusableError ? error : undefined;
      throw this.unroutable(error, unusable?.provider ?? merchant.provider ?? this.config.defaultProvider, unusable?.accountId ?? null);
    }
    const acting = steps.flatMap((step) => ('acting' in step ? [step.acting] : []));
    const offering = acting.find((account) => supports(account.adapter, 'dueCharges'));
    if (offering) {
      const { adapter } = offering;
      return { provider: offering.provider, maxCharges: supports(adapter, 'chargeBatches') ? adapter.descriptor.capabilities.chargeBatches!.maxCharges : null };
    }
    const replayed = await this.idempotency.completedReplay(call.merchantId, call.key, call.fingerprint, call.path);
    if (replayed) return replayed;
    if (acting.length === 0) {
      const { unusable } = steps[0] as { unusable: AccountUnusableError };
      throw this.unroutable(unusable, unusable.provider, unusable.accountId);
    }
    const names = [...new Set(acting.map((account) => account.provider))];
    throw nameProvider(
      new AppError(ErrorCode.VALIDATION_ERROR, {
        status: 422,
        message: 'The merchant has no provider account that takes due-date charges.',
        details: { fields: [{ field: 'due', message: `None of the merchant's providers (${names.join(', ')}) offers due-date charges through this gateway.` }] },
      }),
      names[0],
    );
  }

  private unroutable(error: unknown, provider: string, accountId: string | null): unknown {
    const context = { audience: 'merchant' as const, operation: 'create' as const, action: 'create charge batch', provider, accountId, logger: this.logger };
    return nameProvider(isProviderFailure(error) ? providerFailureToAppError(error, context) : error, provider);
  }

  /** The merchant's own batch with its items; anyone else's, or an id of the wrong shape, is NOT_FOUND. */
  async get(merchantId: string, id: string): Promise<ProviderAnswer<PaymentBatchView>> {
    if (!hasIdShape(id, 'bat')) throw AppError.notFound('Payment batch not found.');
    const batch = await this.batches.findForMerchant(merchantId, id);
    if (!batch) throw AppError.notFound('Payment batch not found.');
    return { provider: batch.provider, data: toBatchView(batch, await this.items.listForBatch(batch.id)) };
  }

  /** The merchant's own batches, newest first, without their items, one keyset page at a time. */
  async list(merchantId: string, query: ListPaymentBatchesQuery): Promise<Page<PaymentBatchSummaryView>> {
    const limit = query.limit ?? 20;
    const rows = await this.batches.listPage({ merchantId, status: query.status, after: query.cursor ? decodeCursor(query.cursor) : undefined, limit });
    return toPage(rows, limit, ({ batch, counts }) => toSummaryView(batch, counts));
  }
}
