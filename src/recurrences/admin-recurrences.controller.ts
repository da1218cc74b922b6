import { Body, Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AdminAuth } from '../auth/admin-auth.guard';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../common/http/api-docs';
import type { Page } from '../common/http/cursor';
import { answerData, requestState } from '../common/http/request-state';
import {
  ADMIN_RECURRENCE_DETAIL_EXAMPLE,
  ADMIN_RECURRENCE_EXAMPLE,
  AdminRecurrenceDetailView,
  AdminRecurrencePageView,
  type AdminRecurrenceView,
  CHARGE_SIMULATION_EXAMPLE,
  RECURRENCE_SIMULATION_EXAMPLE,
  RecurringSimulationResultView,
} from './admin-recurrence.view';
import { AdminRecurrencesService } from './admin-recurrences.service';
import { ListAdminRecurrencesQuery, SimulateRecurrenceDto, SimulateRecurringChargeDto } from './dto/admin-recurrences.dto';

const SIMULATE_NOTE =
  'The test PSP posts its callback to the gateway, which applies it through the normal intake (read back, deduplicated, the event forwarded to the ' +
  'merchant); the answer is what the PSP said and the recurrence read again. A provider that cannot simulate (`can_simulate: false`): 409 CONFLICT; ' +
  "an action the PSP refuses in the recurrence's or charge's state: its refusal (502 UPSTREAM_ERROR with the PSP's code and text).";

/** Pix Automático for the operator (docs/dashboard.md, Recurrences). */
@ApiTags('admin-recurrences')
@AdminAuth()
@Controller('admin/api')
export class AdminRecurrencesController {
  constructor(private readonly recurrences: AdminRecurrencesService) {}

  @Get('recurrences')
  @ApiOperation({
    summary: 'List recurrences across merchants',
    description: 'Newest first, filtered by `merchant_id`, `status` and `external_id`; `data` is `{items, next_cursor}`: pass `cursor=next_cursor` for the next page.',
  })
  @ApiEnvelopeResponse(200, AdminRecurrencePageView, { example: { items: [ADMIN_RECURRENCE_EXAMPLE], next_cursor: null }, provider: 'efi' })
  @ApiErrorResponses(ErrorCode.VALIDATION_ERROR)
  adminListRecurrences(@Query() query: ListAdminRecurrencesQuery): Promise<Page<AdminRecurrenceView>> {
    return this.recurrences.list(query);
  }

  @Get('recurrences/:id')
  @ApiOperation({
    summary: 'One recurrence with its charges, history and webhook deliveries',
    description:
      'The recurrence as its merchant reads it, with `merchant_id`; its charges (oldest due date first) with their attempts; its history and its ' +
      "charges' (oldest first), each with whether the merchant was told; its deliveries with every HTTP attempt; `can_simulate` and `can_cancel`.",
  })
  @ApiParam({ name: 'id', example: 'rec_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @ApiEnvelopeResponse(200, AdminRecurrenceDetailView, { example: ADMIN_RECURRENCE_DETAIL_EXAMPLE, provider: 'efi' })
  @ApiErrorResponses(ErrorCode.NOT_FOUND)
  adminGetRecurrence(@Param('id') id: string): Promise<AdminRecurrenceDetailView> {
    return this.recurrences.detail(id);
  }

  @Post('recurrences/:id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: "Cancel a recurrence on its merchant's behalf",
    description:
      'As `POST /v1/recurrences/:id/cancel` by its merchant: cancelled at the PSP, then `cancelled` with `cancelledBy: "merchant"`; ' +
      '`recurrence.cancelled` is sent, and its charges not yet attempted are cancelled. Already cancelled: answered as it is; ended, rejected or ' +
      'expired: 409 PAYMENT_STATE_CONFLICT. Answers the recurrence read again, as `GET` does.',
  })
  @ApiParam({ name: 'id', example: 'rec_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @ApiEnvelopeResponse(200, AdminRecurrenceDetailView, {
    example: { ...ADMIN_RECURRENCE_DETAIL_EXAMPLE, status: 'cancelled', cancelledBy: 'merchant', can_cancel: false },
    provider: 'efi',
  })
  @ApiErrorResponses(ErrorCode.NOT_FOUND, ErrorCode.PAYMENT_STATE_CONFLICT, ErrorCode.OPERATION_NOT_SUPPORTED, ErrorCode.UPSTREAM_ERROR)
  async adminCancelRecurrence(@Param('id') id: string, @Req() req: FastifyRequest): Promise<AdminRecurrenceDetailView> {
    return answerData(req, await this.recurrences.cancel(id, requestState(req).requestId));
  }

  @Post('recurrences/:id/simulate')
  @HttpCode(200)
  @ApiOperation({
    summary: "Simulate the payer's answer on a test recurrence",
    description: `Makes a test PSP authorize, reject or let expire a recurrence waiting for the payer, or cancel an active one as the payer would at their bank. ${SIMULATE_NOTE}`,
  })
  @ApiParam({ name: 'id', example: 'rec_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @ApiBody({ type: SimulateRecurrenceDto })
  @ApiEnvelopeResponse(200, RecurringSimulationResultView, { example: RECURRENCE_SIMULATION_EXAMPLE })
  @ApiErrorResponses(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT, ErrorCode.UPSTREAM_ERROR)
  simulateRecurrenceEvent(@Param('id') id: string, @Body() body: SimulateRecurrenceDto): Promise<RecurringSimulationResultView> {
    return this.recurrences.simulateRecurrence(id, body);
  }

  @Post('recurring-charges/:id/simulate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Simulate the settlement or failure of a test recurring charge',
    description: `Makes a test PSP settle or fail the charge's current attempt (the first, or the retry last asked for), as the payer's bank would. ${SIMULATE_NOTE}`,
  })
  @ApiParam({ name: 'id', example: 'rch_8fLq2Wm5Tz9Xc3Vb7Nk1Rd4H' })
  @ApiBody({ type: SimulateRecurringChargeDto })
  @ApiEnvelopeResponse(200, RecurringSimulationResultView, { example: CHARGE_SIMULATION_EXAMPLE })
  @ApiErrorResponses(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT, ErrorCode.UPSTREAM_ERROR)
  simulateRecurringChargeEvent(@Param('id') id: string, @Body() body: SimulateRecurringChargeDto): Promise<RecurringSimulationResultView> {
    return this.recurrences.simulateCharge(id, body);
  }
}
