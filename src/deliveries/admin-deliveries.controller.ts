import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../auth/admin-auth.guard';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../common/http/api-docs';
import { AdminDeliveriesService } from './admin-deliveries.service';
import { DeliveryPage, DeliveryView } from './dto/delivery.view';
import { ListDeliveriesQuery } from './dto/list-deliveries.query';

@ApiTags('admin')
@AdminAuth()
@Controller('admin/api/webhook-deliveries')
export class AdminDeliveriesController {
  constructor(private readonly deliveries: AdminDeliveriesService) {}

  @Get()
  @ApiOperation({
    summary: 'List webhook deliveries',
    description: 'Forwards to merchants, newest first, filtered by `status` and `merchant_id`. `data` is `{items, next_cursor}`: pass `cursor=next_cursor` for the next page.',
  })
  @ApiEnvelopeResponse(200, DeliveryPage)
  @ApiErrorResponses(ErrorCode.VALIDATION_ERROR)
  list(@Query() query: ListDeliveriesQuery): Promise<DeliveryPage> {
    return this.deliveries.list(query);
  }

  @Post(':id/redeliver')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Send a delivery again',
    description:
      'Queues one more attempt now, for a failed, delivered or pending delivery, with the same body, `webhook-id` and ' +
      "`X-Request-Id` (a fresh timestamp and signature), to the merchant's current webhook URL. Earlier attempts stay in its history.",
  })
  @ApiParam({ name: 'id', example: 'dlv_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @ApiEnvelopeResponse(200, DeliveryView)
  @ApiErrorResponses(ErrorCode.NOT_FOUND)
  redeliver(@Param('id') id: string): Promise<DeliveryView> {
    return this.deliveries.redeliver(id);
  }
}
