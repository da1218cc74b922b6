import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiHeader, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../common/http/api-docs';
import { requestState } from '../common/http/request-state';
import { WebhookIntakeResult } from './dto/webhook-intake-result';
import { WebhookIntakeService } from './webhook-intake.service';

@ApiTags('webhooks')
@Controller('webhooks')
export class WebhooksController {
  constructor(private readonly intake: WebhookIntakeService) {}

  @Post(':provider')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Receive a provider event',
    description:
      "Verifies the provider's signature over the raw body, then stores the event, applies it to the payment and queues " +
      "its forward to the merchant in one transaction. `data.id` may be the gateway's payment id or the provider's. " +
      'The same event id again is `duplicate: true` and changes nothing. An event for an unknown payment is kept ' +
      '(`matched: false`) and not forwarded; one whose amount differs from the payment is not applied (`reason: "amount_mismatch"`).',
  })
  @ApiParam({ name: 'provider', example: 'sandbox' })
  @ApiHeader({
    name: 'X-Sandbox-Signature',
    required: false,
    description: 'Sandbox only: `t=<unix seconds>,v1=<hex HMAC-SHA256(SANDBOX_WEBHOOK_SECRET, "<t>.<raw body>")>`; required when SANDBOX_WEBHOOK_SECRET is set.',
  })
  @ApiBody({
    schema: {
      type: 'object',
      required: ['event', 'id', 'data'],
      example: { event: 'payment.confirmed', id: 'evt_sbx_9f2c', created_at: '2025-01-01T12:00:00.000Z', data: { id: 'sbx_8f2k', amount: 10.5, status: 'CONCLUIDA' } },
    },
  })
  @ApiEnvelopeResponse(200, WebhookIntakeResult)
  @ApiErrorResponses(ErrorCode.INVALID_SIGNATURE, ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.UNSUPPORTED_MEDIA_TYPE, ErrorCode.INTERNAL_ERROR)
  receive(@Param('provider') provider: string, @Req() req: FastifyRequest): Promise<WebhookIntakeResult> {
    return this.intake.receive(provider, { headers: req.headers, rawBody: req.rawBody ?? Buffer.alloc(0), body: req.body }, requestState(req));
  }
}
