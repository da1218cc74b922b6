import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthenticatedMerchant } from '../auth/merchant-key-resolver';
import { AppError } from '../common/errors/app-error';
import { namingProvider } from '../common/errors/answer-provider';
import { PreparedResponse, type ProviderAnswer, successEnvelope } from '../common/http/envelope';
import { hasIdShape } from '../common/ids';
import { AppConfig } from '../config/app-config';
import { Clock } from '../domain/clock';
import { reaisToCents } from '../domain/money';
import { brasiliaDate, cycleOf, cycleStart, dueDateProblem, type DueDateProblem } from '../domain/recurrence';
import { type IdempotencyClaim, IdempotencyService } from '../idempotency/idempotency.service';
import { idempotentCall, type IdempotentRequest } from '../idempotency/idempotent-request';
import type { ActingAccount } from '../providers/provider-accounts/account-resolver';
import { UpstreamError } from '../providers/provider-adapter';
import { classifyCreateFailure, rethrowProviderFailure } from '../providers/provider-errors';
import type { ProviderRecurringCharge } from '../providers/recurring';
import type { CreateRecurringChargeDto } from './dto/create-recurring-charge.dto';
import { type ReportContext, RecurrenceEventsService } from './recurrence-events.service';
import type { Recurrence } from './recurrence.entity';
import { RecurrenceRepository } from './recurrence.repository';
import { type RecurringChargeListView, type RecurringChargeView, toRecurringChargeView } from './recurrence.view';
import { RecurrencesService } from './recurrences.service';
import { callFailure, type RecurringAccount, RecurringAccounts, stateConflict } from './recurring-accounts';
import { RecurringCharge } from './recurring-charge.entity';
import { RecurringChargeRepository } from './recurring-charge.repository';

/**
 * A recurrence's charges, one per cycle (docs/recurrences.md): the Idempotency-Key is looked up
 * first (a charge already made is replayed); then every rule of the recurrence, the calendar and
 * the bank's lead time is checked before the PSP is called, so a refused charge stores nothing and
 * calls nobody; and the charge is written `pending` before the call, so the database keeps its
 * cycle for it and a second request for that cycle never reaches the PSP.
 */
@Injectable()
export class RecurringChargesService {
  private readonly logger = new Logger('Recurrences');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly recurrences: RecurrencesService,
    private readonly recurrenceRows: RecurrenceRepository,
    private readonly charges: RecurringChargeRepository,
    private readonly events: RecurrenceEventsService,
    private readonly recurringAccounts: RecurringAccounts,
    private readonly idempotency: IdempotencyService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async createCharge(merchant: AuthenticatedMerchant, recurrenceId: string, dto: CreateRecurringChargeDto, request: IdempotentRequest): Promise<PreparedResponse> {
    const call = idempotentCall(merchant.id, request);
    const recurrence = await this.recurrences.mine(merchant.id, recurrenceId);
    // The key first: a completed key replays its answer whatever the recurrence, its account and the
    // calendar say now; a refusal below abandons the key (nothing is stored).
    const charge = async (claim: IdempotencyClaim) => ({ complete: await this.chargeUnder(claim, recurrence, dto, request.requestId) });
    // From here on, every answer names the recurrence's provider.
    return namingProvider(recurrence.provider, () => this.idempotency.run(call, charge, { provider: recurrence.provider }));
  }

  /**
   * The claim's charge, at the recurrence's account. A retry of the key finds the charge its first
   * attempt wrote: still pending (the PSP's answer was lost) it is asked for again with the same
   * txid; taken meanwhile (a callback, a read-back) it is answered as it stands.
   */
  private async chargeUnder(claim: IdempotencyClaim, recurrence: Recurrence, dto: CreateRecurringChargeDto, requestId: string): Promise<PreparedResponse> {
    const account = await this.recurringAccounts.of(recurrence);
    const { acting } = account;
    const chargeId = `rch_${claim.paymentId.slice('pay_'.length)}`;
    try {
      const own = await this.charges.findById(chargeId);
      const charge = own && own.status !== 'pending' ? own : await this.ask(account, own ?? (await this.reserve(recurrence, dto, claim, chargeId, acting)), requestId);
      const body = JSON.stringify(successEnvelope(toRecurringChargeView(charge), requestId, acting.provider));
      return new PreparedResponse(201, body, { 'content-type': 'application/json; charset=utf-8' });
    } catch (error) {
      return rethrowProviderFailure(error, { ...callFailure(acting, this.logger, 'create recurring charge'), operation: 'create' });
    }
  }

  /**
   * Checks the charge against the recurrence, the calendar and the bank's lead time, then writes it
   * `pending` under the recurrence's lock, before the PSP is called: the cycle is now held (the
   * partial unique index on recurrence and cycle), so a second request for it is refused here and
   * never reaches the PSP.
   */
  private async reserve(recurrence: Recurrence, dto: CreateRecurringChargeDto, claim: IdempotencyClaim, chargeId: string, acting: ActingAccount): Promise<RecurringCharge> {
    if (recurrence.status !== 'active') throw this.notActive(recurrence.status);
    const amountCents = this.chargeAmount(recurrence, dto);
    const today = brasiliaDate(this.clock.now());
    const lead = acting.adapter.descriptor.capabilities.recurring!.leadTime;
    const problem = dueDateProblem(dto.dueDate, today, recurrence, lead);
    if (problem) throw AppError.validation([{ field: 'dueDate', message: dueDateMessage(problem, today, recurrence, lead) }]);
    this.recurringAccounts.receiverOf(acting);
    const cycle = cycleOf(recurrence.startDate, recurrence.frequency, dto.dueDate);
    const now = this.clock.now();
    const charge = Object.assign(new RecurringCharge(), {
      id: chargeId,
      recurrenceId: recurrence.id,
      merchantId: recurrence.merchantId,
      txid: claim.txid,
      cycle,
      amountCents,
      dueDate: dto.dueDate,
      description: dto.description ?? null,
      status: 'pending',
      attempts: [],
      retries: 0,
      endToEndId: null,
      paidAt: null,
      failureReason: null,
      // Read back if the PSP's answer never comes and the key is not retried: once the request that
      // wrote it is surely over (its key's lock has lapsed), so a read-back never races it.
      nextReconcileAt: new Date(now.getTime() + Math.max(this.config.reconcileAfterSeconds, this.config.idempotencyLockSeconds) * 1000),
      createdAt: now,
      updatedAt: now,
    } satisfies RecurringCharge);
    await this.dataSource.transaction(async (tx) => {
      const locked = await this.recurrenceRows.lockById(tx, recurrence.id);
      if (locked?.recurrence.status !== 'active') throw this.notActive(locked?.recurrence.status ?? recurrence.status);
      if ((await this.charges.findLiveInCycle(recurrence.id, cycle, tx)) || !(await this.charges.insert(tx, charge))) throw this.cycleTaken(recurrence, cycle);
    });
    return charge;
  }

  /**
   * Asks the PSP for a pending charge (its txid is the PSP's key for it, so asking again gets the
   * same charge) and records its answer. A refusal means the PSP does not hold it: the pending row
   * goes and its cycle is free. An answer that may have been acted on (a timeout, a 5xx) leaves it
   * pending, for a retry of the key or reconciliation to ask again.
   */
  private async ask({ acting, recurring }: RecurringAccount, pending: RecurringCharge, requestId: string): Promise<RecurringCharge> {
    const recurrence = (await this.recurrenceRows.findById(pending.recurrenceId))!;
    let made: ProviderRecurringCharge;
    try {
      made = await recurring.createCharge(acting.account, {
        chargeId: pending.id,
        txid: pending.txid,
        providerRecurrenceId: recurrence.providerRecurrenceId!,
        dueDate: pending.dueDate,
        amountCents: pending.amountCents,
        description: pending.description,
        receiverAccount: this.recurringAccounts.receiverOf(acting),
        notificationUrl: acting.notificationUrl,
      });
    } catch (error) {
      const failure = classifyCreateFailure(error);
      if (failure === 'rejected' || failure === 'refused') await this.charges.deleteIfPending(pending.id);
      // A PSP that still refuses the date (its own calendar, a holiday) is the merchant's 400, not a 502.
      if (failure === 'rejected' && error instanceof UpstreamError) {
        this.logger.warn({ provider: acting.provider, account_id: acting.accountId, provider_code: error.providerCode }, `Recurring charge refused: ${error.message}`);
        throw AppError.validation([{ field: 'dueDate', message: 'The provider refused this due date for the recurrence.' }]);
      }
      throw error;
    }
    if (made.status !== 'scheduled') {
      // The PSP already holds it further on (a retry after a lost answer): recorded as its report is.
      const context: ReportContext = { provider: acting.provider, accountId: acting.accountId, source: 'gateway', requestId, payload: { create: pending.id } };
      await this.events.applyCharge(`${made.txid}:${made.status}:${made.attempts.length}:${made.attempts.at(-1)?.status ?? ''}`, made, context);
      return (await this.charges.findById(pending.id)) ?? pending;
    }
    return this.dataSource.transaction(async (tx) => {
      // The recurrence's lock, then the charge's: the order every writer of charges takes them in.
      await this.recurrenceRows.lockById(tx, recurrence.id);
      const current = await this.charges.lockByTxid(tx, pending.txid);
      if (current && current.status !== 'pending') return current;
      const charge = Object.assign(current ?? pending, {
        status: 'scheduled',
        attempts: made.attempts.map((a) => ({ date: a.date, status: a.status, endToEndId: a.endToEndId, reason: a.reason })),
        nextReconcileAt: new Date(new Date(`${pending.dueDate}T12:00:00-03:00`).getTime() + 86_400_000),
        updatedAt: this.clock.now(),
      } satisfies Partial<RecurringCharge>);
      if (current) await this.charges.update(tx, charge);
      // Read back as never made while the PSP was making it: written again, as the PSP holds it.
      else if (!(await this.charges.insert(tx, charge))) throw this.cycleTaken(recurrence, charge.cycle);
      return charge;
    });
  }

  async listCharges(merchantId: string, recurrenceId: string): Promise<ProviderAnswer<RecurringChargeListView>> {
    const recurrence = await this.recurrences.mine(merchantId, recurrenceId);
    const charges = await namingProvider(recurrence.provider, () => this.charges.listForRecurrence(recurrence.id));
    return { provider: recurrence.provider, data: { items: charges.map(toRecurringChargeView) } };
  }

  async getCharge(merchantId: string, id: string): Promise<ProviderAnswer<RecurringChargeView>> {
    const charge = await this.myCharge(merchantId, id);
    const recurrence = await this.recurrenceRows.findById(charge.recurrenceId);
    return { provider: recurrence?.provider, data: toRecurringChargeView(charge) };
  }

  /** Cancels a charge before the day of its first settlement attempt (its due date); on or after it, 409. */
  async cancelCharge(merchantId: string, id: string, requestId: string): Promise<ProviderAnswer<RecurringChargeView>> {
    const charge = await this.myCharge(merchantId, id);
    const recurrence = (await this.recurrenceRows.findById(charge.recurrenceId))!;
    return { provider: recurrence.provider, data: await namingProvider(recurrence.provider, () => this.cancelChargeAt(recurrence, charge, requestId)) };
  }

  private async cancelChargeAt(recurrence: Recurrence, charge: RecurringCharge, requestId: string): Promise<RecurringChargeView> {
    const { id, merchantId } = charge;
    if (charge.status === 'cancelled') return toRecurringChargeView(charge);
    const today = brasiliaDate(this.clock.now());
    if (charge.status !== 'scheduled' || today >= charge.dueDate) {
      throw stateConflict(
        charge.status !== 'scheduled' ? `A recurring charge that is ${charge.status} cannot be cancelled.` : 'A recurring charge can be cancelled only before its due date.',
      );
    }
    const { acting, recurring } = await this.recurringAccounts.of(recurrence);
    const answer = await recurring.cancelCharge(acting.account, { txid: charge.txid }).catch((error: unknown) => {
      if (error instanceof UpstreamError && error.upstreamStatus === 400) throw stateConflict('The provider no longer lets this charge be cancelled.');
      return rethrowProviderFailure(error, callFailure(acting, this.logger, 'cancel recurring charge'));
    });
    const context: ReportContext = { provider: acting.provider, accountId: acting.accountId, source: 'merchant', requestId, payload: { cancel: id } };
    const result = await this.dataSource.transaction(async (tx) => {
      const locked = (await this.recurrenceRows.lockForMerchant(tx, merchantId, recurrence.id))!;
      const current = (await this.charges.lockForMerchant(tx, merchantId, id))!;
      if (answer.status === 'cancelled' && current.status === 'scheduled') await this.events.recordChargeCancel(tx, locked, current, context);
      return current;
    });
    this.events.nudge();
    if (result.status !== 'cancelled') throw stateConflict(`The recurring charge is ${answer.status} at the provider.`);
    return toRecurringChargeView(result);
  }

  private async myCharge(merchantId: string, id: string): Promise<RecurringCharge> {
    const charge = hasIdShape(id, 'rch') ? await this.charges.findForMerchant(merchantId, id) : null;
    if (!charge) throw AppError.notFound('Recurring charge not found.');
    return charge;
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

  private notActive(status: string): AppError {
    return stateConflict(`Charges are made only for an active recurrence; this one is ${status}.`);
  }

  private cycleTaken(recurrence: Recurrence, cycle: number): AppError {
    const starts = cycleStart(recurrence.startDate, recurrence.frequency, cycle);
    return stateConflict(`Cycle ${cycle + 1} of the recurrence (from ${starts}) already has a charge, or one being created (cancel it first, or choose a date in another cycle).`);
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
