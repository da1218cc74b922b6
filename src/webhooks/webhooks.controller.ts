import { applyDecorators, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOperation, ApiParam, ApiQuery, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../common/http/api-docs';
import { answerData, requestState } from '../common/http/request-state';
import type { InboundCallback } from '../providers/provider-adapter';
import { CountsCallbackAuthFailures } from '../common/throttle/callback-auth-failures';
import { MercadoPagoNotificationBody, PixCallbackBody, SandboxEventBody } from './dto/provider-callback.body';
import { AccountCallbackResult, WebhookIntakeResult } from './dto/webhook-intake-result';
import { WebhookIntakeService } from './webhook-intake.service';

/** A provider account's callback, at `<webhook_url>` and at `<webhook_url>/pix`. */
const AccountCallbackDocs = (body: string) =>
  applyDecorators(
    HttpCode(200),
    ApiOperation({
      summary: "Receive a provider account's callback",
      description:
        "The provider account's `webhook_url` (Pix API PSPs post to `<webhook_url>/pix`). The body proves nothing by itself: for the Pix API family " +
        'each entry of `{"pix":[…]}` is read back from the PSP with the account\'s credentials, and only what the PSP confirms is applied (each ' +
        'as one event, deduplicated per account by its endToEndId). A callback none of whose entries the PSP confirms is 401 `INVALID_SIGNATURE`, ' +
        'changes nothing and counts as a failed authentication of its address (10 a minute, then 429); an unknown or inactive account is 404 ' +
        'with no call to the PSP; a PSP that cannot be asked is 502 (no PSP error text is passed on), and the PSP posts again.',
    }),
    ApiParam({ name: 'provider', example: 'efi' }),
    ApiParam({ name: 'account', example: 'pa_5hQm2Zt8KcV1xLr9BnW3dF7Y' }),
    ApiExtraModels(PixCallbackBody, MercadoPagoNotificationBody, SandboxEventBody),
    // Mercado Pago names the topic and the payment in the query as well as the body.
    ApiQuery({ name: 'type', required: false, example: 'payment', description: "Mercado Pago's topic (wins over the body's)." }),
    ApiQuery({ name: 'topic', required: false, example: 'payment', description: "Mercado Pago's older name for `type`." }),
    ApiQuery({ name: 'data.id', required: false, example: '1234567890', description: "Mercado Pago's payment id." }),
    ApiQuery({ name: 'id', required: false, example: '1234567890', description: "Mercado Pago's older name for `data.id`." }),
    ApiBody({
      description: body,
      schema: {
        // Any of the formats, which are open (providers add fields): a body may fit more than one.
        anyOf: [{ $ref: getSchemaPath(PixCallbackBody) }, { $ref: getSchemaPath(MercadoPagoNotificationBody) }, { $ref: getSchemaPath(SandboxEventBody) }],
        example: { pix: [{ endToEndId: 'E00038166202601151200abcdefghijk', txid: 'k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2E', valor: '10.50', horario: '2026-01-15T12:00:00.000Z' }] },
      },
    }),
    ApiEnvelopeResponse(200, AccountCallbackResult),
    ApiErrorResponses(
      ErrorCode.INVALID_SIGNATURE,
      ErrorCode.VALIDATION_ERROR,
      ErrorCode.NOT_FOUND,
      ErrorCode.RATE_LIMITED,
      ErrorCode.UPSTREAM_ERROR,
      ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      ErrorCode.INTERNAL_ERROR,
    ),
  );

@ApiTags('provider-callbacks')
@Controller('webhooks')
@CountsCallbackAuthFailures()
export class WebhooksController {
  constructor(private readonly intake: WebhookIntakeService) {}

  @Post(':provider')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Receive a provider event',
    description:
      "For a provider's built-in account (merchants with no provider accounts). Verifies the provider's own scheme (docs/api.md, " +
      'Webhook intake: for the simulated PSP, `X-Sandbox-Signature` over the raw body), then stores the event, applies it to the payment and queues ' +
      "its forward to the merchant in one transaction. `data.id` may be the gateway's payment id or the provider's. " +
      'The same event id again is `duplicate: true` and changes nothing. An event for an unknown payment is kept ' +
      '(`matched: false`) and not forwarded; one whose amount differs from the payment is not applied (`reason: "amount_mismatch"`).',
  })
  @ApiParam({ name: 'provider', description: 'A provider with a built-in account (DEFAULT_PROVIDER is one).' })
  @ApiExtraModels(SandboxEventBody)
  @ApiBody({
    description: "The provider's event. The simulated PSP's (`sandbox`) is shown; other providers' built-in accounts post their own format.",
    schema: {
      $ref: getSchemaPath(SandboxEventBody),
      example: {
        event: 'payment.confirmed',
        id: 'evt_sbx_9f2c',
        created_at: '2026-01-15T12:00:00.000Z',
        data: { id: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A', amount: 10.5, status: 'CONCLUIDA' },
      },
    },
  })
  @ApiEnvelopeResponse(200, WebhookIntakeResult)
  @ApiErrorResponses(
    ErrorCode.INVALID_SIGNATURE,
    ErrorCode.VALIDATION_ERROR,
    ErrorCode.NOT_FOUND,
    ErrorCode.RATE_LIMITED,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE,
    ErrorCode.INTERNAL_ERROR,
  )
  async receiveProviderCallback(@Param('provider') provider: string, @Req() req: FastifyRequest): Promise<WebhookIntakeResult | AccountCallbackResult> {
    return answerData(req, await this.intake.receive(provider, inbound(req), req.body, requestState(req).requestId));
  }

  @Post(':provider/:account')
  @AccountCallbackDocs('A Pix API PSP posts `{"pix":[…]}` to `<webhook_url>/pix`; Mercado Pago posts its notification here, to `<webhook_url>`.')
  async receiveAccountCallback(@Param('provider') provider: string, @Param('account') account: string, @Req() req: FastifyRequest): Promise<AccountCallbackResult> {
    return answerData(req, await this.intake.receiveForAccount(provider, account, inbound(req), req.body, requestState(req).requestId));
  }

  @Post(':provider/:account/pix')
  @AccountCallbackDocs('A Pix API PSP posts `{"pix":[…]}` here, to `<webhook_url>/pix`.')
  async receiveAccountPixCallback(@Param('provider') provider: string, @Param('account') account: string, @Req() req: FastifyRequest): Promise<AccountCallbackResult> {
    return answerData(req, await this.intake.receiveForAccount(provider, account, inbound(req), req.body, requestState(req).requestId));
  }
}

/** The callback as an adapter sees it: method, the path after the account (`/pix` or ''), query, headers and the raw bytes. */
function inbound(req: FastifyRequest): InboundCallback {
  const path = new URL(req.url, 'http://gateway').pathname.endsWith('/pix') ? '/pix' : '';
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries((req.query ?? {}) as Record<string, unknown>)) if (typeof value === 'string') query[name] = value;
  return { method: req.method, path, query, headers: req.headers, rawBody: req.rawBody ?? Buffer.alloc(0) };
}
