import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { AuthenticatedMerchant } from '../auth/merchant-key-resolver';
import { AppError } from '../common/errors/app-error';
import { PreparedResponse, successEnvelope } from '../common/http/envelope';
import type { GatewayRequestState } from '../common/http/request-state';
import { hasIdShape } from '../common/ids';
import { AppConfig } from '../config/app-config';
import { Clock } from '../domain/clock';
import { reaisToCents } from '../domain/money';
import { brasiliaDate, cycleOf, dueDateProblem, type DueDateProblem } from '../domain/recurrence';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { requireIdempotencyKey } from '../idempotency/idempotency-key';
import { requestFingerprint } from '../idempotency/request-fingerprint';
import type { CreateRequestContext } from '../payments/create-request.decorator';
import { UpstreamError } from '../providers/provider-adapter';
import { isProviderFailure, providerFailureToAppError, rethrowProviderFailure } from '../providers/provider-errors';
import type { ProviderRecurringCharge } from '../providers/recurring';
import type { CreateRecurringChargeDto } from './dto/create-recurring-charge.dto';
import { type NewsContext, RecurrenceEventsService } from './recurrence-events.service';
import type { Recurrence } from './recurrence.entity';
import { RecurrenceRepository } from './recurrence.repository';
import { type RecurringChargeListView, type RecurringChargeView, toRecurringChargeView } from './recurrence.view';
import { RecurrencesService } from './recurrences.service';
import { callFailure, RecurringAccounts, stateConflict } from './recurring-accounts';
import { RecurringCharge } from './recurring-charge.entity';
import { RecurringChargeRepository } from './recurring-charge.repository';

/**
 * A recurrence's charges, one per cycle (docs/recurrences.md): every rule of the recurrence, the
 * calendar and the bank's lead time is checked before the PSP is called, so a refused charge stores
 * nothing and calls nobody; the Idempotency-Key replays a charge already made.
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

  async createCharge(merchant: AuthenticatedMerchant, recurrenceId: string, dto: CreateRecurringChargeDto, request: CreateRequestContext): Promise<PreparedResponse> {
    const key = requireIdempotencyKey(request.idempotencyKey);
    const recurrence = await this.recurrences.mine(merchant.id, recurrenceId);
    request.state.provider = recurrence.provider;
    const { acting, recurring } = await this.recurringAccounts.of(recurrence);

    // The key first: a retry of a charge already made replays its answer, whatever the recurrence
    // and the calendar say now; a refusal below releases the key (nothing is stored).
    const outcome = await this.idempotency.begin(merchant.id, key, requestFingerprint('POST', request.path, request.body), request.path);
    if (outcome.kind === 'replay') return outcome.response;
    const claim = outcome.claim;
    const chargeId = `rch_${claim.paymentId.slice('pay_'.length)}`;
    try {
      if (recurrence.status !== 'active') throw stateConflict(`Charges are made only for an active recurrence; this one is ${recurrence.status}.`);
      const amountCents = this.chargeAmount(recurrence, dto);
      const today = brasiliaDate(this.clock.now());
      const lead = acting.adapter.capabilities.recurring!.leadTime;
      const problem = dueDateProblem(dto.dueDate, today, recurrence, lead);
      if (problem) throw AppError.validation([{ field: 'dueDate', message: dueDateMessage(problem, today, recurrence, lead) }]);
      const cycle = cycleOf(recurrence.startDate, recurrence.frequency, dto.dueDate);
      if (await this.charges.findLiveInCycle(recurrence.id, cycle)) throw this.cycleTaken();
      const receiver = this.recurringAccounts.receiverOf(acting);
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
      if (isProviderFailure(error)) throw providerFailureToAppError(error, { ...callFailure(acting, this.logger, 'create recurring charge'), operation: 'create' });
      throw error;
    }
  }

  async listCharges(merchantId: string, recurrenceId: string, state?: GatewayRequestState): Promise<RecurringChargeListView> {
    const recurrence = await this.recurrences.mine(merchantId, recurrenceId);
    if (state) state.provider = recurrence.provider;
    return { items: (await this.charges.listForRecurrence(recurrence.id)).map(toRecurringChargeView) };
  }

  async getCharge(merchantId: string, id: string, state?: GatewayRequestState): Promise<RecurringChargeView> {
    const charge = await this.myCharge(merchantId, id);
    if (state) state.provider = (await this.recurrenceRows.findById(charge.recurrenceId))?.provider ?? state.provider;
    return toRecurringChargeView(charge);
  }

  /** Cancels a charge before the day of its first settlement attempt (its due date); on or after it, 409. */
  async cancelCharge(merchantId: string, id: string, state: GatewayRequestState): Promise<RecurringChargeView> {
    const charge = await this.myCharge(merchantId, id);
    const recurrence = (await this.recurrenceRows.findById(charge.recurrenceId))!;
    state.provider = recurrence.provider;
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
    const context: NewsContext = { provider: acting.provider, accountId: acting.accountId, source: 'merchant', requestId: state.requestId, payload: { cancel: id } };
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

  private cycleTaken(): AppError {
    return stateConflict('This cycle of the recurrence already has a charge (cancel it first, or choose a date in another cycle).');
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
