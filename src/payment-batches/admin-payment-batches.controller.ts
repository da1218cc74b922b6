import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AdminAuth } from '../auth/admin-auth.guard';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../common/http/api-docs';
import type { Page } from '../common/http/cursor';
import { answerData } from '../common/http/request-state';
import { AdminPaymentBatchesService } from './admin-payment-batches.service';
import { ListAdminPaymentBatchesQuery } from './dto/list-payment-batches.query';
import { ADMIN_BATCH_EXAMPLE, COMPLETED_BATCH_EXAMPLE } from './payment-batch-examples';
import { AdminPaymentBatchDetailView, AdminPaymentBatchPageView, type AdminPaymentBatchView } from './payment-batch.view';

/** Batches of due-date charges for the operator (the dashboard's batch page). */
@ApiTags('admin-payments')
@AdminAuth()
@Controller('admin/api')
export class AdminPaymentBatchesController {
  constructor(private readonly batches: AdminPaymentBatchesService) {}

  @Get('payment-batches')
  @ApiOperation({
    summary: 'List payment batches across merchants',
    description: 'Newest first, without their items, filtered by `merchant_id` and `status`; `data` is `{items, next_cursor}`: pass `cursor=next_cursor` for the next page.',
  })
  @ApiEnvelopeResponse(200, AdminPaymentBatchPageView, { example: { items: [ADMIN_BATCH_EXAMPLE], next_cursor: null }, provider: 'efi' })
  @ApiErrorResponses(ErrorCode.VALIDATION_ERROR)
  adminListPaymentBatches(@Query() query: ListAdminPaymentBatchesQuery): Promise<Page<AdminPaymentBatchView>> {
    return this.batches.list(query);
  }

  @Get('payment-batches/:id')
  @ApiOperation({
    summary: 'One payment batch with its items and its webhook delivery',
    description:
      'The batch as its merchant reads it, with `merchant_id` and `provider`, each item (with its `paymentId` or `error`), and its `payment_batch.completed` delivery with every HTTP attempt.',
  })
  @ApiParam({ name: 'id', example: 'bat_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @ApiEnvelopeResponse(200, AdminPaymentBatchDetailView, { example: { ...ADMIN_BATCH_EXAMPLE, items: COMPLETED_BATCH_EXAMPLE.items, deliveries: [] }, provider: 'efi' })
  @ApiErrorResponses([ErrorCode.NOT_FOUND, { message: 'Payment batch not found.' }])
  async adminGetPaymentBatch(@Param('id') id: string, @Req() req: FastifyRequest): Promise<AdminPaymentBatchDetailView> {
    return answerData(req, await this.batches.detail(id));
  }
}
