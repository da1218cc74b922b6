import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthenticatedMerchant } from '../auth/merchant-key-resolver';
import { AppError, type FieldError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { decodeCursor, type Page, toPage } from '../common/http/cursor';
import { PreparedResponse, successEnvelope } from '../common/http/envelope';
import type { GatewayRequestState } from '../common/http/request-state';
import { hasIdShape } from '../common/ids';
import { normaliseDocument } from '../common/validation/brazilian-document';
import { AppConfig } from '../config/app-config';
import { Clock } from '../domain/clock';
import { reaisToCents } from '../domain/money';
import { brasiliaDate, cycleOf, dueDateProblem, type DueDateProblem, isRecurrenceFinal } from '../domain/recurrence';
import { type IdempotencyClaim, IdempotencyService } from '../idempotency/idempotency.service';
import { requireIdempotencyKey } from '../idempotency/idempotency-key';
import { requestFingerprint } from '../idempotency/request-fingerprint';
import { Payment } from '../payments/payment.entity';
import { paymentOfCharge } from '../payments/payment-of-charge';
import { PaymentRepository } from '../payments/payment.repository';
import { renderQrPngDataUrl } from '../payments/qr-png';
import { AccountResolver, type ActingAccount } from '../providers/provider-accounts/account-resolver';
import { UpstreamError } from '../providers/provider-adapter';
import { isProviderFailure, providerFailureToAppError, rethrowProviderFailure } from '../providers/provider-errors';
import type { ProviderRecurringCharge, ReceiverAccount, RecurringProvider } from '../providers/recurring';
import type { CreateRequestContext } from '../payments/create-request.decorator';
import type { CreateRecurrenceDto } from './dto/create-recurrence.dto';
import type { CreateRecurringChargeDto } from './dto/create-recurring-charge.dto';
import type { ListRecurrencesQuery } from './dto/list-recurrences.query';
import { type NewsContext, RecurrenceEventsService } from './recurrence-events.service';
import { Recurrence } from './recurrence.entity';
import { RecurrenceRepository } from './recurrence.repository';
import { RecurrenceView, RecurringChargeListView, RecurringChargeView, toRecurrenceView, toRecurringChargeView } from './recurrence.view';
import { RecurringCharge } from './recurring-charge.entity';
import { RecurringChargeRepository } from './recurring-charge.repository';

/** The built-in test account's `recebedor`: the simulated PSP needs one, and no merchant has to configure it. */
const TEST_RECEIVER: ReceiverAccount = { agencia: '0001', conta: '1234567', tipoConta: 'CORRENTE' };

/** An account able to take recurrences, with its Pix Automático side. */
interface RecurringAccount {
  acting: ActingAccount;
  recurring: RecurringProvider;
}

/**
 * The merchant API of Pix Automático (docs/recurrences.md): recurrences and their charges, created
 * at the account that will charge them, exactly once per Idempotency-Key; every rule that can be
 * checked here is checked before any PSP is called, so bad input stores nothing and calls nobody.
 */
@Injectable()
export class RecurrencesService {
  private readonly logger = new Logger('Recurrences');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly recurrences: RecurrenceRepository,
    private readonly charges: RecurringChargeRepository,
    private readonly payments: PaymentRepository,
    private readonly events: RecurrenceEventsService,
    private readonly accounts: AccountResolver,
    private readonly idempotency: IdempotencyService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async create(merchant: AuthenticatedMerchant, dto: CreateRecurrenceDto, request: CreateRequestContext): Promise<PreparedResponse> {
    const key = requireIdempotencyKey(request.idempotencyKey);
    const terms = this.checkTerms(dto);
    const { acting, recurring } = await this.recurringAccountFor(merchant);
    request.state.provider = acting.provider;

    const outcome = await this.idempotency.begin(merchant.id, key, requestFingerprint('POST', request.path, request.body), request.path);
    if (outcome.kind === 'replay') return outcome.response;
    const claim = outcome.claim;
    const suffix = claim.paymentId.slice('pay_'.length);
    const recurrenceId = `rec_${suffix}`;
    const failure = {
      audience: 'merchant' as const,
      operation: 'create' as const,
      action: 'create recurrence',
      provider: acting.provider,
      accountId: acting.accountId,
      logger: this.logger,
    };
    try {
      let firstPayment: Payment | null = null;
      if (terms.firstPaymentCents !== null) firstPayment = await this.createFirstPayment(claim, acting, dto, terms.firstPaymentCents);
      const created = await recurring.createRecurrence(acting.account, {
        recurrenceId,
        contract: { id: dto.contract.id, description: dto.contract.description ?? null },
        debtor: { document: terms.document, name: dto.payer.name },
        frequency: dto.frequency,
        amountCents: terms.amountCents,
        minimumAmountCents: terms.minimumAmountCents,
        startDate: dto.startDate,
        endDate: dto.endDate ?? null,
        retryPolicy: dto.retryPolicy ?? 'none',
        journey: dto.journey ?? 'qr',
        firstPayment: firstPayment ? { txid: firstPayment.txid } : null,
        payerAccount: dto.payer.account ? { ispbParticipante: dto.payer.account.ispbParticipante, agencia: dto.payer.account.agencia, conta: dto.payer.account.conta } : null,
        expiresInSeconds: this.config.pixExpirySeconds,
        notificationUrl: acting.notificationUrl,
      });
      const now = this.clock.now();
      const recurrence = Object.assign(new Recurrence(), {
        id: recurrenceId,
        merchantId: merchant.id,
        provider: acting.provider,
        providerAccountId: acting.accountId,
        environment: acting.environment,
        providerRecurrenceId: created.providerRecurrenceId,
        externalId: dto.externalId,
        status: created.status,
        payerDocument: terms.document,
        payerName: dto.payer.name,
        contractId: dto.contract.id,
        contractDescription: dto.contract.description ?? null,
        frequency: dto.frequency,
        amountCents: terms.amountCents,
        minimumAmountCents: terms.minimumAmountCents,
        startDate: dto.startDate,
        endDate: dto.endDate ?? null,
        retryPolicy: dto.retryPolicy ?? 'none',
        journey: dto.journey ?? 'qr',
        firstPaymentId: firstPayment?.id ?? null,
        authorizationCopyPaste: created.copyPaste,
        authorizationExpiresAt: created.authorizationExpiresAt,
        cancelledBy: created.cancelledBy,
        // Read back while the payer has not answered, in case their bank's answer never reaches us.
        nextReconcileAt: new Date(now.getTime() + this.config.reconcileAfterSeconds * 1000),
        createdAt: now,
        updatedAt: now,
      } satisfies Recurrence);
      await this.recurrences.insert(recurrence);
      const body = JSON.stringify(successEnvelope(toRecurrenceView(recurrence, renderQrPngDataUrl), request.requestId, acting.provider));
      return await this.idempotency.complete(claim, new PreparedResponse(201, body, { 'content-type': 'application/json; charset=utf-8' }));
    } catch (error) {
      if (error instanceof AppError && error.status < 500) await this.idempotency.abandon(claim);
      else await this.idempotency.release(claim, acting.provider);
      if (isProviderFailure(error)) throw providerFailureToAppError(error, failure);
      throw error;
    }
  }

  async get(merchantId: string, id: string, state?: GatewayRequestState): Promise<RecurrenceView> {
    const recurrence = await this.mine(merchantId, id);
    if (state) state.provider = recurrence.provider;
    return toRecurrenceView(recurrence, renderQrPngDataUrl);
  }

  async list(merchantId: string, query: ListRecurrencesQuery): Promise<Page<RecurrenceView>> {
    const limit = query.limit ?? 20;
    const rows = await this.recurrences.listPage({
      merchantId,
      status: query.status,
      externalId: query.externalId,
      after: query.cursor ? decodeCursor(query.cursor) : undefined,
      limit,
    });
    return toPage(rows, limit, ({ recurrence }) => toRecurrenceView(recurrence, renderQrPngDataUrl));
  }

  /**
   * Cancels at the PSP, then records it: `cancelled` by the merchant, with `recurrence.cancelled`
   * and its charges not yet attempted cancelled too. One already cancelled answers as it is.
   */
  async cancel(merchantId: string, id: string, state: GatewayRequestState): Promise<RecurrenceView> {
    const recurrence = await this.mine(merchantId, id);
    state.provider = recurrence.provider;
    if (recurrence.status === 'cancelled') return toRecurrenceView(recurrence, renderQrPngDataUrl);
    if (isRecurrenceFinal(recurrence.status)) throw this.stateConflict(`A recurrence that is ${recurrence.status} cannot be cancelled.`);
    const { acting, recurring } = await this.accountOf(recurrence);
    const answer = await recurring
      .cancelRecurrence(acting.account, { providerRecurrenceId: recurrence.providerRecurrenceId! })
      .catch((error: unknown) => rethrowProviderFailure(error, this.callFailure(acting, 'cancel recurrence')));
    const context: NewsContext = { provider: acting.provider, accountId: acting.accountId, source: 'merchant', requestId: state.requestId, payload: { cancel: id } };
    const cancelled = await this.dataSource.transaction(async (tx) => {
      const locked = await this.recurrences.lockForMerchant(tx, merchantId, id);
      if (!locked) throw AppError.notFound('Recurrence not found.');
      if (answer.status === 'cancelled' && !isRecurrenceFinal(locked.recurrence.status)) {
        await this.events.recordMerchantCancel(tx, locked, context);
        return locked.recurrence;
      }
      // The PSP holds it otherwise (the payer answered meanwhile): that is what is recorded.
      await this.events.applyRecurrenceIn(tx, locked, `${answer.providerRecurrenceId}:${answer.status}`, answer, { ...context, source: 'gateway' });
      return locked.recurrence;
    });
    this.events.nudge();
    if (cancelled.status !== 'cancelled') throw this.stateConflict(`The recurrence is ${cancelled.status} at the provider and cannot be cancelled.`);
    return toRecurrenceView(cancelled, renderQrPngDataUrl);
  }

  async createCharge(merchant: AuthenticatedMerchant, recurrenceId: string, dto: CreateRecurringChargeDto, request: CreateRequestContext): Promise<PreparedResponse> {
    const key = requireIdempotencyKey(request.idempotencyKey);
    const recurrence = await this.mine(merchant.id, recurrenceId);
    request.state.provider = recurrence.provider;
    const { acting, recurring } = await this.accountOf(recurrence);

    // The key first: a retry of a charge already made replays its answer, whatever the recurrence
    // and the calendar say now; a refusal below releases the key (nothing is stored).
    const outcome = await this.idempotency.begin(merchant.id, key, requestFingerprint('POST', request.path, request.body), request.path);
    if (outcome.kind === 'replay') return outcome.response;
    const claim = outcome.claim;
    const chargeId = `rch_${claim.paymentId.slice('pay_'.length)}`;
    try {
      if (recurrence.status !== 'active') throw this.stateConflict(`Charges are made only for an active recurrence; this one is ${recurrence.status}.`);
      const amountCents = this.chargeAmount(recurrence, dto);
      const today = brasiliaDate(this.clock.now());
      const lead = acting.adapter.capabilities.recurring!.leadTime;
      const problem = dueDateProblem(dto.dueDate, today, recurrence, lead);
      if (problem) throw AppError.validation([{ field: 'dueDate', message: dueDateMessage(problem, today, recurrence, lead) }]);
      const cycle = cycleOf(recurrence.startDate, recurrence.frequency, dto.dueDate);
      if (await this.charges.findLiveInCycle(recurrence.id, cycle)) throw this.cycleTaken();
      const receiver = this.receiverOf(acting);
      let made: ProviderRecurringCharge;
      try {
        made = await recurring.createCharge(acting.account, {
          chargeId,
          txid: claim.txid,
          providerRecurrenceId: recurrence.providerRecurrenceId!,
          dueDate: dto.dueDate,
          amountCents,
          description: dto.description ?? null,
          receiverAccount: receiver,
          notificationUrl: acting.notificationUrl,
        });
      } catch (error) {
        // A PSP that still refuses the date (its own calendar, a holiday) is the merchant's 400, not a 502.
        if (error instanceof UpstreamError && (error.upstreamStatus === 400 || error.upstreamStatus === 422)) {
          this.logger.warn({ provider: acting.provider, account_id: acting.accountId, provider_code: error.providerCode }, `Recurring charge refused: ${error.message}`);
          throw AppError.validation([{ field: 'dueDate', message: 'The provider refused this due date for the recurrence.' }]);
        }
        throw error;
      }
      const now = this.clock.now();
      const charge = Object.assign(new RecurringCharge(), {
        id: chargeId,
        recurrenceId: recurrence.id,
        merchantId: merchant.id,
        txid: claim.txid,
        cycle,
        amountCents,
        dueDate: dto.dueDate,
        description: dto.description ?? null,
        status: 'scheduled',
        attempts: made.attempts.map((a) => ({ date: a.date, status: a.status, endToEndId: a.endToEndId, reason: a.reason })),
        retries: 0,
        endToEndId: null,
        paidAt: null,
        failureReason: null,
        nextReconcileAt: new Date(new Date(`${dto.dueDate}T12:00:00-03:00`).getTime() + 86_400_000),
        createdAt: now,
        updatedAt: now,
      } satisfies RecurringCharge);
      if (!(await this.charges.insert(charge))) throw this.cycleTaken();
      const body = JSON.stringify(successEnvelope(toRecurringChargeView(charge), request.requestId, acting.provider));
      return await this.idempotency.complete(claim, new PreparedResponse(201, body, { 'content-type': 'application/json; charset=utf-8' }));
    } catch (error) {
      if (error instanceof AppError && error.status < 500) await this.idempotency.abandon(claim);
      else await this.idempotency.release(claim, acting.provider);
      if (isProviderFailure(error)) throw providerFailureToAppError(error, { ...this.callFailure(acting, 'create recurring charge'), operation: 'create' });
      throw error;
    }
  }

  async listCharges(merchantId: string, recurrenceId: string, state?: GatewayRequestState): Promise<RecurringChargeListView> {
    const recurrence = await this.mine(merchantId, recurrenceId);
    if (state) state.provider = recurrence.provider;
    return { items: (await this.charges.listForRecurrence(recurrence.id)).map(toRecurringChargeView) };
  }

  async getCharge(merchantId: string, id: string, state?: GatewayRequestState): Promise<RecurringChargeView> {
    const charge = await this.myCharge(merchantId, id);
    if (state) state.provider = (await this.recurrences.findById(charge.recurrenceId))?.provider ?? state.provider;
    return toRecurringChargeView(charge);
  }

  /** Cancels a charge before the day of its first settlement attempt (its due date); on or after it, 409. */
  async cancelCharge(merchantId: string, id: string, state: GatewayRequestState): Promise<RecurringChargeView> {
    const charge = await this.myCharge(merchantId, id);
    const recurrence = (await this.recurrences.findById(charge.recurrenceId))!;
    state.provider = recurrence.provider;
    if (charge.status === 'cancelled') return toRecurringChargeView(charge);
    const today = brasiliaDate(this.clock.now());
    if (charge.status !== 'scheduled' || today >= charge.dueDate) {
      throw this.stateConflict(
        charge.status !== 'scheduled' ? `A recurring charge that is ${charge.status} cannot be cancelled.` : 'A recurring charge can be cancelled only before its due date.',
      );
    }
    const { acting, recurring } = await this.accountOf(recurrence);
    const answer = await recurring.cancelCharge(acting.account, { txid: charge.txid }).catch((error: unknown) => {
      if (error instanceof UpstreamError && error.upstreamStatus === 400) throw this.stateConflict('The provider no longer lets this charge be cancelled.');
      return rethrowProviderFailure(error, this.callFailure(acting, 'cancel recurring charge'));
    });
    const context: NewsContext = { provider: acting.provider, accountId: acting.accountId, source: 'merchant', requestId: state.requestId, payload: { cancel: id } };
    const result = await this.dataSource.transaction(async (tx) => {
      const locked = (await this.recurrences.lockForMerchant(tx, merchantId, recurrence.id))!;
      const current = (await this.charges.lockForMerchant(tx, merchantId, id))!;
      if (answer.status === 'cancelled' && current.status === 'scheduled') await this.events.recordChargeCancel(tx, locked, current, context);
      return current;
    });
    this.events.nudge();
    if (result.status !== 'cancelled') throw this.stateConflict(`The recurring charge is ${answer.status} at the provider.`);
    return toRecurringChargeView(result);
  }

  // ---- helpers ------------------------------------------------------------------------------

  private async mine(merchantId: string, id: string): Promise<Recurrence> {
    const recurrence = hasIdShape(id, 'rec') ? await this.recurrences.findForMerchant(merchantId, id) : null;
    if (!recurrence) throw AppError.notFound('Recurrence not found.');
    return recurrence;
  }

  private async myCharge(merchantId: string, id: string): Promise<RecurringCharge> {
    const charge = hasIdShape(id, 'rch') ? await this.charges.findForMerchant(merchantId, id) : null;
    if (!charge) throw AppError.notFound('Recurring charge not found.');
    return charge;
  }

  /** The body's rules class-validator cannot express alone; every problem at once. */
  private checkTerms(dto: CreateRecurrenceDto): { document: string; amountCents: number | null; minimumAmountCents: number | null; firstPaymentCents: number | null } {
    const problems: FieldError[] = [];
    const hasAmount = dto.amount !== undefined && dto.amount !== null;
    const hasMinimum = dto.minimumAmount !== undefined && dto.minimumAmount !== null;
    if (hasAmount === hasMinimum) {
      problems.push({ field: 'amount', message: 'give exactly one of amount (a fixed recurrence) and minimumAmount (a variable one)' });
    }
    const cents = (value: number | undefined | null, field: string): number | null => {
      if (value === undefined || value === null) return null;
      const result = reaisToCents(value)!;
      if (result > this.config.maxAmountCents) problems.push({ field, message: `${field} must be at most ${(this.config.maxAmountCents / 100).toFixed(2)}` });
      return result;
    };
    const amountCents = cents(dto.amount, 'amount');
    const minimumAmountCents = cents(dto.minimumAmount, 'minimumAmount');
    const today = brasiliaDate(this.clock.now());
    if (dto.startDate < today) problems.push({ field: 'startDate', message: `startDate must be today (${today}, Brasília) or later` });
    if (dto.endDate && dto.endDate <= dto.startDate) problems.push({ field: 'endDate', message: 'endDate must be after startDate' });
    const journey = dto.journey ?? 'qr';
    if (journey === 'request' && !dto.payer.account) problems.push({ field: 'payer.account', message: 'payer.account is required for journey "request"' });
    if (journey !== 'request' && dto.payer.account) problems.push({ field: 'payer.account', message: 'payer.account is only for journey "request"' });
    if (journey === 'qr_with_first_payment' && !dto.firstPayment) problems.push({ field: 'firstPayment', message: 'firstPayment is required for journey "qr_with_first_payment"' });
    if (journey !== 'qr_with_first_payment' && dto.firstPayment) problems.push({ field: 'firstPayment', message: 'firstPayment is only for journey "qr_with_first_payment"' });
    const firstPaymentCents = cents(dto.firstPayment?.amount, 'firstPayment.amount');
    if (problems.length > 0) throw AppError.validation(problems);
    return { document: normaliseDocument(dto.payer.document), amountCents, minimumAmountCents, firstPaymentCents };
  }

  private chargeAmount(recurrence: Recurrence, dto: CreateRecurringChargeDto): number {
    const given = dto.amount === undefined || dto.amount === null ? null : reaisToCents(dto.amount)!;
    if (recurrence.amountCents !== null) {
      if (given !== null) throw AppError.validation([{ field: 'amount', message: 'amount is refused for a fixed recurrence: each charge is its amount' }]);
      return recurrence.amountCents;
    }
    if (given === null) throw AppError.validation([{ field: 'amount', message: 'amount is required for a variable recurrence' }]);
    if (given < recurrence.minimumAmountCents!) {
      throw AppError.validation([{ field: 'amount', message: `amount must be at least the recurrence's minimumAmount (${(recurrence.minimumAmountCents! / 100).toFixed(2)})` }]);
    }
    if (given > this.config.maxAmountCents) throw AppError.validation([{ field: 'amount', message: `amount must be at most ${(this.config.maxAmountCents / 100).toFixed(2)}` }]);
    return given;
  }

  /**
   * The first of the merchant's accounts whose provider offers Pix Automático. A recurrence lives
   * there for good: no routing, no failover. None: 422 naming the provider.
   */
  private async recurringAccountFor(merchant: AuthenticatedMerchant): Promise<RecurringAccount> {
    const route = await this.accounts
      .routeForMerchant(merchant)
      .catch((error: unknown) =>
        rethrowProviderFailure(error, { audience: 'merchant', operation: 'create', provider: merchant.provider ?? this.config.defaultProvider, logger: this.logger }),
      );
    for (const step of route) {
      if (!('acting' in step)) continue;
      const { adapter } = step.acting;
      if (adapter.recurring && adapter.capabilities.recurring) {
        this.receiverOf(step.acting);
        return { acting: step.acting, recurring: adapter.recurring };
      }
    }
    const names = [...new Set(route.map((step) => ('acting' in step ? step.acting.provider : step.unusable.provider)))];
    throw new AppError(ErrorCode.VALIDATION_ERROR, {
      status: 422,
      details: { fields: [{ field: 'provider', message: `None of the merchant's providers (${names.join(', ') || 'none'}) offers Pix Automático through this gateway.` }] },
      message: 'The merchant has no provider account that takes recurrences.',
    });
  }

  private async accountOf(recurrence: Recurrence): Promise<RecurringAccount> {
    const acting = await this.accounts
      .forPayment({ provider: recurrence.provider, providerAccountId: recurrence.providerAccountId })
      .catch((error: unknown) =>
        rethrowProviderFailure(error, { audience: 'merchant', operation: 'call', provider: recurrence.provider, accountId: recurrence.providerAccountId, logger: this.logger }),
      );
    const recurring = acting.adapter.recurring;
    if (!recurring || !acting.adapter.capabilities.recurring) {
      throw new AppError(ErrorCode.OPERATION_NOT_SUPPORTED, { message: `The provider ${recurrence.provider} no longer offers Pix Automático.` });
    }
    return { acting, recurring };
  }

  /** The account's `recebedor`: a stored account must have one before its first recurrence. */
  private receiverOf(acting: ActingAccount): ReceiverAccount {
    if (acting.accountId === null) return acting.receiverAccount ?? TEST_RECEIVER;
    if (!acting.receiverAccount) {
      throw AppError.validation([
        { field: 'receiver_account', message: `Provider account ${acting.accountId} needs its receiver_account (agencia, conta, tipoConta) before it takes recurrences.` },
      ]);
    }
    return acting.receiverAccount;
  }

  /** `qr_with_first_payment`: the immediate charge the composite QR also pays, an ordinary payment of the same account. */
  private async createFirstPayment(claim: IdempotencyClaim, acting: ActingAccount, dto: CreateRecurrenceDto, amountCents: number): Promise<Payment> {
    const charge = await acting.adapter.createCharge(acting.account, {
      paymentId: claim.paymentId,
      txid: claim.txid,
      amountCents,
      currency: 'BRL',
      description: dto.contract.description ?? null,
      externalId: dto.externalId,
      debtor: { document: normaliseDocument(dto.payer.document), name: dto.payer.name },
      expiresInSeconds: this.config.pixExpirySeconds,
      notificationUrl: acting.notificationUrl,
    });
    const payment = paymentOfCharge({
      id: claim.paymentId,
      merchantId: claim.merchantId,
      amountCents,
      description: dto.contract.description ?? null,
      externalId: dto.externalId,
      recipient: { document: normaliseDocument(dto.payer.document), name: dto.payer.name, email: null },
      account: acting,
      charge,
      at: this.clock.now(),
    });
    await this.payments.insert(payment);
    return payment;
  }

  private callFailure(acting: ActingAccount, action: string) {
    return { audience: 'merchant' as const, operation: 'call' as const, action, provider: acting.provider, accountId: acting.accountId, logger: this.logger };
  }

  private stateConflict(message: string): AppError {
    return new AppError(ErrorCode.PAYMENT_STATE_CONFLICT, { message });
  }

  private cycleTaken(): AppError {
    return new AppError(ErrorCode.PAYMENT_STATE_CONFLICT, { message: 'This cycle of the recurrence already has a charge (cancel it first, or choose a date in another cycle).' });
  }
}

function dueDateMessage(problem: DueDateProblem, today: string, recurrence: Recurrence, lead: { minDays: number; maxDays: number }): string {
  switch (problem) {
    case 'before_today':
      return `dueDate must not be before today (${today}, Brasília)`;
    case 'before_start':
      return `dueDate must not be before the recurrence's startDate (${recurrence.startDate})`;
    case 'after_end':
      return `dueDate must not be after the recurrence's endDate (${recurrence.endDate})`;
    case 'too_soon':
      return `dueDate must be at least ${lead.minDays} days after today (${today}): the bank takes recurring charges ${lead.minDays} to ${lead.maxDays} days ahead`;
    case 'too_far':
      return `dueDate must be at most ${lead.maxDays} days after today (${today}): the bank takes recurring charges ${lead.minDays} to ${lead.maxDays} days ahead`;
  }
}
