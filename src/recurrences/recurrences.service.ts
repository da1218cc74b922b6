import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthenticatedMerchant } from '../auth/merchant-key-resolver';
import { AppError, type FieldError } from '../common/errors/app-error';
import { namingProvider } from '../common/errors/answer-provider';
import { decodeCursor, type Page, toPage } from '../common/http/cursor';
import { PreparedResponse, type ProviderAnswer, successEnvelope } from '../common/http/envelope';
import { hasIdShape, newCheckoutToken } from '../common/ids';
import { normaliseDocument } from '../common/validation/brazilian-document';
import { AppConfig } from '../config/app-config';
import { Clock } from '../domain/clock';
import type { DueTerms } from '../domain/due-charge';
import { reaisToCents } from '../domain/money';
import { brasiliaDate, isRecurrenceFinal } from '../domain/recurrence';
import { type IdempotencyClaim, IdempotencyService } from '../idempotency/idempotency.service';
import { idempotentCall, type IdempotentRequest } from '../idempotency/idempotent-request';
import { Payment } from '../payments/payment.entity';
import { paymentOfCharge } from '../payments/payment-of-charge';
import { PaymentRepository } from '../payments/payment.repository';
import type { ActingAccount } from '../providers/provider-accounts/account-resolver';
import { rethrowProviderFailure } from '../providers/provider-errors';
import type { ProviderRecurrence } from '../providers/recurring';
import type { CreateRecurrenceDto } from './dto/create-recurrence.dto';
import type { ListRecurrencesQuery } from './dto/list-recurrences.query';
import { type ReportContext, RecurrenceEventsService } from './recurrence-events.service';
import { Recurrence } from './recurrence.entity';
import { RecurrenceRepository } from './recurrence.repository';
import { RecurrenceView, toRecurrenceView } from './recurrence.view';
import { assertTakesDueCharges, checkFirstPayment } from './first-payment';
import { callFailure, type RecurringAccount, RecurringAccounts, stateConflict } from './recurring-accounts';

/** A recurrence's terms once checked: the payer's document normalised, amounts in centavos. */
interface Terms {
  document: string;
  amountCents: number | null;
  minimumAmountCents: number | null;
  firstPaymentCents: number | null;
  /** `qr_with_due_payment`: the terms of the due-date charge the composite QR also pays. */
  firstPaymentDue: DueTerms | null;
}

/** What the PSP made of a recurrence, with the gateway's first payment of a composite-QR journey. */
interface MadeRecurrence {
  created: ProviderRecurrence;
  firstPayment: Payment | null;
}

/** The recurrence's id, from the one the claim reserved: the same on every retry of the key. */
function recurrenceIdOf(claim: IdempotencyClaim): string {
  return `rec_${claim.paymentId.slice('pay_'.length)}`;
}

/**
 * The merchant API of Pix Automático (docs/recurrences.md): recurrences (their charges are
 * RecurringChargesService's), created at the account that will charge them, exactly once per Idempotency-Key; every rule that can be
 * checked here is checked before any PSP is called, so bad input stores nothing and calls nobody.
 */
@Injectable()
export class RecurrencesService {
  private readonly logger = new Logger('Recurrences');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly recurrences: RecurrenceRepository,
    private readonly payments: PaymentRepository,
    private readonly events: RecurrenceEventsService,
    private readonly recurringAccounts: RecurringAccounts,
    private readonly idempotency: IdempotencyService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async create(merchant: AuthenticatedMerchant, dto: CreateRecurrenceDto, request: IdempotentRequest): Promise<PreparedResponse> {
    const call = idempotentCall(merchant.id, request);
    // Where it would be made names the provider in every answer, the key's included; that there is
    // nowhere to make it is a refusal, which like every other comes after the key.
    const where = await this.recurringAccounts.forMerchant(merchant).then(
      (account) => ({ account }),
      (error: unknown) => ({ error }),
    );
    const provider = 'account' in where ? where.account.acting.provider : undefined;
    // The key first: a completed key replays its answer byte for byte, whatever the terms (a
    // startDate now past) and the merchant's accounts say now; a refusal below abandons the key.
    const make = async (claim: IdempotencyClaim) => {
      const terms = this.checkTerms(dto);
      if ('error' in where) throw where.error;
      if (terms.firstPaymentDue !== null) assertTakesDueCharges(where.account.acting);
      return { complete: await this.makeAt(where.account, claim, dto, terms, request.requestId) };
    };
    return namingProvider(provider, () => this.idempotency.run(call, make, { provider }));
  }

  /** Asks the account's PSP for the recurrence (and its first payment), then stores what the PSP made. */
  private async makeAt(account: RecurringAccount, claim: IdempotencyClaim, dto: CreateRecurrenceDto, terms: Terms, requestId: string): Promise<PreparedResponse> {
    const { acting } = account;
    const failure = {
      audience: 'merchant',
      operation: 'create',
      action: 'create recurrence',
      provider: acting.provider,
      accountId: acting.accountId,
      logger: this.logger,
    } as const;
    const made = await this.askProvider(account, claim, dto, terms).catch((error: unknown) => rethrowProviderFailure(error, failure));
    const recurrence = this.recurrenceOf(claim, acting, dto, terms, made);
    await this.recurrences.insert(recurrence);
    const body = JSON.stringify(successEnvelope(toRecurrenceView(recurrence, this.config.publicBaseUrl), requestId, acting.provider));
    return new PreparedResponse(201, body, { 'content-type': 'application/json; charset=utf-8' });
  }

  /** The PSP's recurrence, with the first payment a composite-QR journey's QR also pays (made first: the recurrence names it). */
  private async askProvider({ acting, recurring }: RecurringAccount, claim: IdempotencyClaim, dto: CreateRecurrenceDto, terms: Terms): Promise<MadeRecurrence> {
    const firstPayment = terms.firstPaymentCents === null ? null : await this.createFirstPayment(claim, acting, dto, terms.firstPaymentCents, terms.firstPaymentDue);
    const created = await recurring.createRecurrence(acting.account, {
      recurrenceId: recurrenceIdOf(claim),
      contract: { id: dto.contract.id, description: dto.contract.description ?? null },
      payer: { document: terms.document, name: dto.payer.name },
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
    return { created, firstPayment };
  }

  private recurrenceOf(claim: IdempotencyClaim, acting: ActingAccount, dto: CreateRecurrenceDto, terms: Terms, { created, firstPayment }: MadeRecurrence): Recurrence {
    const now = this.clock.now();
    return Object.assign(new Recurrence(), {
      id: recurrenceIdOf(claim),
      merchantId: claim.merchantId,
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
      checkoutToken: newCheckoutToken(),
      authorizationExpiresAt: created.authorizationExpiresAt,
      cancelledBy: created.cancelledBy,
      // Read back while the payer has not answered, in case their bank's answer never reaches us.
      nextReconcileAt: new Date(now.getTime() + this.config.reconcileAfterSeconds * 1000),
      createdAt: now,
      updatedAt: now,
    } satisfies Recurrence);
  }

  async get(merchantId: string, id: string): Promise<ProviderAnswer<RecurrenceView>> {
    const recurrence = await this.mine(merchantId, id);
    return { provider: recurrence.provider, data: toRecurrenceView(recurrence, this.config.publicBaseUrl) };
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
    return toPage(rows, limit, ({ recurrence }) => toRecurrenceView(recurrence, this.config.publicBaseUrl));
  }

  /**
   * Cancels at the PSP, then records it: `cancelled` by the merchant, with `recurrence.cancelled`
   * and its charges not yet attempted cancelled too. One already cancelled answers as it is.
   */
  async cancel(merchantId: string, id: string, requestId: string): Promise<ProviderAnswer<RecurrenceView>> {
    const recurrence = await this.mine(merchantId, id);
    return { provider: recurrence.provider, data: await namingProvider(recurrence.provider, () => this.cancelAtProvider(merchantId, recurrence, requestId)) };
  }

  private async cancelAtProvider(merchantId: string, recurrence: Recurrence, requestId: string): Promise<RecurrenceView> {
    const { id } = recurrence;
    if (recurrence.status === 'cancelled') return toRecurrenceView(recurrence, this.config.publicBaseUrl);
    if (isRecurrenceFinal(recurrence.status)) throw stateConflict(`A recurrence that is ${recurrence.status} cannot be cancelled.`);
    const { acting, recurring } = await this.recurringAccounts.of(recurrence);
    const answer = await recurring
      .cancelRecurrence(acting.account, { providerRecurrenceId: recurrence.providerRecurrenceId! })
      .catch((error: unknown) => rethrowProviderFailure(error, callFailure(acting, this.logger, 'cancel recurrence')));
    const context: ReportContext = { provider: acting.provider, accountId: acting.accountId, source: 'merchant', requestId, payload: { cancel: id } };
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
    if (cancelled.status !== 'cancelled') throw stateConflict(`The recurrence is ${cancelled.status} at the provider and cannot be cancelled.`);
    return toRecurrenceView(cancelled, this.config.publicBaseUrl);
  }

  // ---- helpers ------------------------------------------------------------------------------

  /** The merchant's own recurrence; anyone else's, or an id of the wrong shape, is NOT_FOUND. */
  async mine(merchantId: string, id: string): Promise<Recurrence> {
    const recurrence = hasIdShape(id, 'rec') ? await this.recurrences.findForMerchant(merchantId, id) : null;
    if (!recurrence) throw AppError.notFound('Recurrence not found.');
    return recurrence;
  }

  /** The body's rules class-validator cannot express alone; every problem at once. */
  private checkTerms(dto: CreateRecurrenceDto): Terms {
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
    const firstPaymentCents = cents(dto.firstPayment?.amount, 'firstPayment.amount');
    const firstPaymentDue = checkFirstPayment(journey, dto.firstPayment, firstPaymentCents, today, problems);
    if (problems.length > 0) throw AppError.validation(problems);
    return { document: normaliseDocument(dto.payer.document), amountCents, minimumAmountCents, firstPaymentCents, firstPaymentDue };
  }

  /**
   * The charge the composite QR also pays, an ordinary payment of the same account: immediate for
   * `qr_with_first_payment`, a due-date charge with `due` for `qr_with_due_payment`.
   */
  private async createFirstPayment(claim: IdempotencyClaim, acting: ActingAccount, dto: CreateRecurrenceDto, amountCents: number, due: DueTerms | null): Promise<Payment> {
    const charge = await acting.adapter.createCharge(acting.account, {
      paymentId: claim.paymentId,
      txid: claim.txid,
      amountCents,
      currency: 'BRL',
      description: dto.contract.description ?? null,
      externalId: dto.externalId,
      payer: { document: normaliseDocument(dto.payer.document), name: dto.payer.name },
      expiresInSeconds: this.config.pixExpirySeconds,
      notificationUrl: acting.notificationUrl,
      due,
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
      due,
    });
    await this.payments.insert(payment);
    return payment;
  }
}
