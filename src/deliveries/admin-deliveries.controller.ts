import { Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../auth/admin-auth.guard';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../common/http/api-docs';
import { AdminDeliveriesService } from './admin-deliveries.service';
import { DeliveryDetailView, DeliveryPage, DeliveryView, TestEventResultView } from './dto/delivery.view';
import { ListDeliveriesQuery } from './dto/list-deliveries.query';

@ApiTags('deliveries')
@AdminAuth()
@Controller('admin/api/webhook-deliveries')
export class AdminDeliveriesController {
  constructor(private readonly deliveries: AdminDeliveriesService) {}

  @Get()
  @ApiOperation({
    summary: 'List webhook deliveries',
    description:
      'Forwards to merchants, newest first, filtered by `status` (`retrying`: pending after failed attempts) and `merchant_id`. `data` is `{items, next_cursor}`: pass `cursor=next_cursor` for the next page.',
  })
  @ApiEnvelopeResponse(200, DeliveryPage)
  @ApiErrorResponses(ErrorCode.VALIDATION_ERROR)
  listDeliveries(@Query() query: ListDeliveriesQuery): Promise<DeliveryPage> {
    return this.deliveries.list(query);
  }

  @Get(':id')
  @ApiOperation({
    summary: 'Get a webhook delivery',
    description: "The delivery with the JSON body it sends and every attempt's answer: status code, latency, error and the first KiB of the answer body.",
  })
  @ApiParam({ name: 'id', example: 'dlv_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @ApiEnvelopeResponse(200, DeliveryDetailView)
  @ApiErrorResponses(ErrorCode.NOT_FOUND)
  getDelivery(@Param('id') id: string): Promise<DeliveryDetailView> {
    return this.deliveries.get(id);
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

/** The test event lives with deliveries, whose sender it uses; its path is the merchant's. */
@ApiTags('deliveries')
@AdminAuth()
@Controller('admin/api/merchants')
export class AdminTestEventController {
  constructor(private readonly deliveries: AdminDeliveriesService) {}

  @Post(':id/test-event')
  @HttpCode(200)
  @ApiOperation({
    summary: "Send a test event to a merchant's webhook URL",
    description:
      'Sends one signed `test.ping` event now, the way deliveries are sent, and answers what the endpoint said. ' +
      'It is not stored: never retried, never counted as a delivery or a failure. An endpoint that fails is still a 200 here, with `ok: false`.',
  })
  @ApiParam({ name: 'id', example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @ApiEnvelopeResponse(200, TestEventResultView)
  @ApiErrorResponses(ErrorCode.NOT_FOUND)
  sendTestEvent(@Param('id') id: string): Promise<TestEventResultView> {
    return this.deliveries.sendTestEvent(id);
  }
}
