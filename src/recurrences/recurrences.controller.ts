import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CurrentMerchant } from '../auth/current-merchant.decorator';
import type { AuthenticatedMerchant } from '../auth/merchant-key-resolver';
import { MerchantAuth } from '../auth/merchant-key.guard';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses, validationExample } from '../common/http/api-docs';
import type { Page } from '../common/http/cursor';
import type { PreparedResponse } from '../common/http/envelope';
import { answerData, requestState } from '../common/http/request-state';
import { ApiIdempotencyKey, IdempotentRequest } from '../idempotency/idempotent-request';
import { CreateRecurrenceDto } from './dto/create-recurrence.dto';
import { CreateRecurringChargeDto } from './dto/create-recurring-charge.dto';
import { ListRecurrencesQuery } from './dto/list-recurrences.query';
import { ACTIVE_RECURRENCE_EXAMPLE, CREATE_RECURRENCE_EXAMPLES, PAID_CHARGE_EXAMPLE, PENDING_RECURRENCE_EXAMPLE, SCHEDULED_CHARGE_EXAMPLE } from './recurrence-examples';
import { RecurrencePageView, RecurrenceView, RecurringChargeListView, RecurringChargeView } from './recurrence.view';
import { RecurrencesService } from './recurrences.service';
import { RecurringChargesService } from './recurring-charges.service';

const RECURRENCE_NOT_FOUND = [ErrorCode.NOT_FOUND, { message: 'Recurrence not found.' }] as const;
const CHARGE_NOT_FOUND = [ErrorCode.NOT_FOUND, { message: 'Recurring charge not found.' }] as const;

const IDEMPOTENCY_HEADER = ApiIdempotencyKey('logical request');

/** Pix Automático for merchants (docs/recurrences.md). */
@ApiTags('recurrences')
@MerchantAuth()
@Controller('v1')
export class RecurrencesController {
  constructor(
    private readonly recurrences: RecurrencesService,
    private readonly charges: RecurringChargesService,
  ) {}

  @Post('recurrences')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Create a recurrence (ask the payer for a Pix Automático authorization)',
    description:
      "At the first of the merchant's provider accounts that offers Pix Automático; the recurrence stays there. `journey` `qr` (default) answers the PSP's " +
      'authorization BR Code in `authorization`; `qr_with_first_payment` a composite QR that also pays `firstPayment.amount` now (`firstPaymentId`); ' +
      '`qr_with_due_payment` a composite QR that also pays a due-date charge of `firstPayment.amount` with the terms of `firstPayment.due` ' +
      "(`firstPaymentId`, a payment with `due`); `request` asks the payer's bank directly (`payer.account`). Exactly one of `amount` (fixed) and " +
      '`minimumAmount` (variable). Idempotent per Idempotency-Key as payments are. A merchant none of whose providers offers it: 422 VALIDATION_ERROR ' +
      'naming `provider`; `qr_with_due_payment` at an account without due-date charges: 422 naming `journey`; an account without its ' +
      '`receiver_account`: 400 naming it.',
  })
  @IDEMPOTENCY_HEADER
  @ApiBody({ type: CreateRecurrenceDto, examples: CREATE_RECURRENCE_EXAMPLES })
  @ApiEnvelopeResponse(201, RecurrenceView, { example: PENDING_RECURRENCE_EXAMPLE })
  @ApiErrorResponses(
    validationExample('amount', 'give exactly one of amount (a fixed recurrence) and minimumAmount (a variable one)'),
    [
      ErrorCode.VALIDATION_ERROR,
      {
        status: 422,
        message: 'The merchant has no provider account that takes recurrences.',
        details: { fields: [{ field: 'provider', message: "None of the merchant's providers (mercadopago) offers Pix Automático through this gateway." }] },
      },
    ],
    ErrorCode.PAYMENT_CREATE_FAILED,
    ErrorCode.IDEMPOTENCY_KEY_REUSED,
    ErrorCode.IDEMPOTENCY_IN_PROGRESS,
    ErrorCode.PAYLOAD_TOO_LARGE,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    ErrorCode.INTERNAL_ERROR,
  )
  createRecurrence(
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @Body() body: CreateRecurrenceDto,
    @IdempotentRequest() request: IdempotentRequest,
  ): Promise<PreparedResponse> {
    return this.recurrences.create(merchant, body, request);
  }

  @Get('recurrences')
  @ApiOperation({ summary: "List the merchant's recurrences", description: 'Newest first, `{items, next_cursor}`; filter by `externalId` and `status`.' })
  @ApiEnvelopeResponse(200, RecurrencePageView, { example: { items: [ACTIVE_RECURRENCE_EXAMPLE], next_cursor: null } })
  @ApiErrorResponses(
    validationExample('status', 'status must be one of the following values: pending_authorization, active, rejected, expired, cancelled, ended'),
    ErrorCode.INTERNAL_ERROR,
  )
  listRecurrences(@CurrentMerchant() merchant: AuthenticatedMerchant, @Query() query: ListRecurrencesQuery): Promise<Page<RecurrenceView>> {
    return this.recurrences.list(merchant.id, query);
  }

  @Get('recurrences/:id')
  @ApiOperation({ summary: 'Read a recurrence', description: "Another merchant's recurrence, or an unknown id, is 404." })
  @ApiParam({ name: 'id', example: 'rec_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @ApiEnvelopeResponse(200, RecurrenceView, { example: ACTIVE_RECURRENCE_EXAMPLE })
  @ApiErrorResponses(RECURRENCE_NOT_FOUND, ErrorCode.INTERNAL_ERROR)
  async getRecurrence(@CurrentMerchant() merchant: AuthenticatedMerchant, @Param('id') id: string, @Req() req: FastifyRequest): Promise<RecurrenceView> {
    return answerData(req, await this.recurrences.get(merchant.id, id));
  }

  @Post('recurrences/:id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel a recurrence',
    description:
      'Cancelled at the PSP, then `cancelled` with `cancelledBy: "merchant"`; `recurrence.cancelled` is sent, and its charges not yet attempted are ' +
      'cancelled (each `recurring_charge.cancelled`). Already ended, rejected or expired: 409 PAYMENT_STATE_CONFLICT.',
  })
  @ApiParam({ name: 'id', example: 'rec_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @ApiEnvelopeResponse(200, RecurrenceView, { example: { ...ACTIVE_RECURRENCE_EXAMPLE, status: 'cancelled', cancelledBy: 'merchant' } })
  @ApiErrorResponses(
    RECURRENCE_NOT_FOUND,
    [ErrorCode.PAYMENT_STATE_CONFLICT, { message: 'A recurrence that is expired cannot be cancelled.' }],
    ErrorCode.UPSTREAM_ERROR,
    ErrorCode.INTERNAL_ERROR,
  )
  async cancelRecurrence(@CurrentMerchant() merchant: AuthenticatedMerchant, @Param('id') id: string, @Req() req: FastifyRequest): Promise<RecurrenceView> {
    return answerData(req, await this.recurrences.cancel(merchant.id, id, requestState(req).requestId));
  }

  @Post('recurrences/:id/charges')
  @HttpCode(201)
  @ApiOperation({
    summary: 'Charge one cycle of an active recurrence',
    description:
      'One charge per cycle (a second in the same cycle is 409 PAYMENT_STATE_CONFLICT unless the first was cancelled or failed). `amount` is required ' +
      "for a variable recurrence (at least `minimumAmount`) and refused for a fixed one. `dueDate` before today, outside the recurrence's dates or " +
      "outside the lead time of the account's bank is 400 VALIDATION_ERROR naming `dueDate`, with no call to the PSP. A recurrence that is not " +
      'active is 409. Idempotent per Idempotency-Key.',
  })
  @IDEMPOTENCY_HEADER
  @ApiParam({ name: 'id', example: 'rec_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @ApiBody({ type: CreateRecurringChargeDto })
  @ApiEnvelopeResponse(201, RecurringChargeView, { example: SCHEDULED_CHARGE_EXAMPLE })
  @ApiErrorResponses(
    validationExample('dueDate', 'dueDate must be at most 10 days after today (2026-11-26): the bank takes recurring charges 2 to 10 days ahead'),
    RECURRENCE_NOT_FOUND,
    [ErrorCode.PAYMENT_STATE_CONFLICT, { message: 'This cycle of the recurrence already has a charge (cancel it first, or choose a date in another cycle).' }],
    ErrorCode.PAYMENT_CREATE_FAILED,
    ErrorCode.IDEMPOTENCY_KEY_REUSED,
    ErrorCode.IDEMPOTENCY_IN_PROGRESS,
    ErrorCode.INTERNAL_ERROR,
  )
  createRecurringCharge(
    @CurrentMerchant() merchant: AuthenticatedMerchant,
    @Param('id') id: string,
    @Body() body: CreateRecurringChargeDto,
    // The key is not scoped by the recurrence's id, as it was not when the route was made.
    @IdempotentRequest() request: IdempotentRequest,
  ): Promise<PreparedResponse> {
    return this.charges.createCharge(merchant, id, body, request);
  }

  @Get('recurrences/:id/charges')
  @ApiOperation({ summary: "A recurrence's charges", description: 'Oldest due date first.' })
  @ApiParam({ name: 'id', example: 'rec_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @ApiEnvelopeResponse(200, RecurringChargeListView, { example: { items: [PAID_CHARGE_EXAMPLE] } })
  @ApiErrorResponses(RECURRENCE_NOT_FOUND, ErrorCode.INTERNAL_ERROR)
  async listRecurringCharges(@CurrentMerchant() merchant: AuthenticatedMerchant, @Param('id') id: string, @Req() req: FastifyRequest): Promise<RecurringChargeListView> {
    return answerData(req, await this.charges.listCharges(merchant.id, id));
  }

  @Get('recurring-charges/:id')
  @ApiOperation({ summary: 'Read a recurring charge', description: "The charge and its status; another merchant's charge is 404 NOT_FOUND." })
  @ApiParam({ name: 'id', example: 'rch_8fLq2Wm5Tz9Xc3Vb7Nk1Rd4H' })
  @ApiEnvelopeResponse(200, RecurringChargeView, { example: PAID_CHARGE_EXAMPLE })
  @ApiErrorResponses(CHARGE_NOT_FOUND, ErrorCode.INTERNAL_ERROR)
  async getRecurringCharge(@CurrentMerchant() merchant: AuthenticatedMerchant, @Param('id') id: string, @Req() req: FastifyRequest): Promise<RecurringChargeView> {
    return answerData(req, await this.charges.getCharge(merchant.id, id));
  }

  @Post('recurring-charges/:id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a recurring charge', description: 'Only before the day of its first settlement attempt (its due date); after, 409 PAYMENT_STATE_CONFLICT.' })
  @ApiParam({ name: 'id', example: 'rch_8fLq2Wm5Tz9Xc3Vb7Nk1Rd4H' })
  @ApiEnvelopeResponse(200, RecurringChargeView, { example: { ...SCHEDULED_CHARGE_EXAMPLE, status: 'cancelled' } })
  @ApiErrorResponses(
    CHARGE_NOT_FOUND,
    [ErrorCode.PAYMENT_STATE_CONFLICT, { message: 'A recurring charge can be cancelled only before its due date.' }],
    ErrorCode.UPSTREAM_ERROR,
    ErrorCode.INTERNAL_ERROR,
  )
  async cancelRecurringCharge(@CurrentMerchant() merchant: AuthenticatedMerchant, @Param('id') id: string, @Req() req: FastifyRequest): Promise<RecurringChargeView> {
    return answerData(req, await this.charges.cancelCharge(merchant.id, id, requestState(req).requestId));
  }
}
