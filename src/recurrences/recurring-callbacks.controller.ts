import { applyDecorators, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../common/http/api-docs';
import { answerData, requestState } from '../common/http/request-state';
import type { InboundCallback } from '../providers/provider-adapter';
import { CountsCallbackAuthFailures } from '../common/throttle/callback-auth-failures';
import { RecurringCallbackResult } from './dto/recurring-callback-result';
import { RecurringIntakeService } from './recurring-intake.service';

const DESCRIPTION =
  'A PSP posts `{"recs":[…]}` to `<webhook_url>/rec` and `{"cobsr":[…]}` to `<webhook_url>/cobr`. The body proves nothing: each entry is read ' +
  "back from the PSP (`GET /rec/{idRec}`, `GET /cobr/{txid}`) with the account's credentials before anything changes, and deduplicated per account. " +
  'Nothing confirmed: 401 INVALID_SIGNATURE; a PSP that cannot be asked: 502, and it posts again.';

const AccountDocs = (kind: string, body: string) =>
  applyDecorators(
    HttpCode(200),
    ApiOperation({ summary: `Receive a provider account's ${kind} callback`, description: `${DESCRIPTION} This path takes \`${body}\`.` }),
    ApiParam({ name: 'provider', example: 'efi' }),
    ApiParam({ name: 'account', example: 'pa_5hQm2Zt8KcV1xLr9BnW3dF7Y' }),
    ApiBody({
      description: "The PSP's callback; its content is read back from the PSP, never trusted.",
      schema: { type: 'object', example: JSON.parse(body.replace('…', '')) as object },
    }),
    ApiEnvelopeResponse(200, RecurringCallbackResult),
    ApiErrorResponses(ErrorCode.INVALID_SIGNATURE, ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.RATE_LIMITED, ErrorCode.UPSTREAM_ERROR, ErrorCode.INTERNAL_ERROR),
  );

const BuiltInDocs = (kind: string) =>
  applyDecorators(
    HttpCode(200),
    ApiOperation({ summary: `Receive a ${kind} callback for a provider's built-in account (the simulated PSP)`, description: DESCRIPTION }),
    ApiParam({ name: 'provider', example: 'sandbox' }),
    ApiBody({ description: "The provider's callback.", schema: { type: 'object', example: {} } }),
    ApiEnvelopeResponse(200, RecurringCallbackResult),
    ApiErrorResponses(ErrorCode.INVALID_SIGNATURE, ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.RATE_LIMITED, ErrorCode.INTERNAL_ERROR),
  );

/** Recurring callbacks: the static `rec`/`cobr` segments win over the Pix callbacks' `:account` (src/webhooks/webhooks.controller.ts). */
@ApiTags('provider-callbacks')
@Controller('webhooks')
@CountsCallbackAuthFailures()
export class RecurringCallbacksController {
  constructor(private readonly intake: RecurringIntakeService) {}

  @Post(':provider/:account/rec')
  @AccountDocs('recurrence', '{"recs":[…]}')
  async receiveAccountRecurrenceCallback(@Param('provider') provider: string, @Param('account') account: string, @Req() req: FastifyRequest): Promise<RecurringCallbackResult> {
    return answerData(req, await this.intake.receive(provider, account, inbound(req), req.body, requestState(req).requestId));
  }

  @Post(':provider/:account/cobr')
  @AccountDocs('recurring-charge', '{"cobsr":[…]}')
  async receiveAccountRecurringChargeCallback(
    @Param('provider') provider: string,
    @Param('account') account: string,
    @Req() req: FastifyRequest,
  ): Promise<RecurringCallbackResult> {
    return answerData(req, await this.intake.receive(provider, account, inbound(req), req.body, requestState(req).requestId));
  }

  @Post(':provider/rec')
  @BuiltInDocs('recurrence')
  async receiveRecurrenceCallback(@Param('provider') provider: string, @Req() req: FastifyRequest): Promise<RecurringCallbackResult> {
    return answerData(req, await this.intake.receive(provider, undefined, inbound(req), req.body, requestState(req).requestId));
  }

  @Post(':provider/cobr')
  @BuiltInDocs('recurring-charge')
  async receiveRecurringChargeCallback(@Param('provider') provider: string, @Req() req: FastifyRequest): Promise<RecurringCallbackResult> {
    return answerData(req, await this.intake.receive(provider, undefined, inbound(req), req.body, requestState(req).requestId));
  }
}

function inbound(req: FastifyRequest): InboundCallback {
  const path = new URL(req.url, 'http://gateway').pathname.endsWith('/cobr') ? '/cobr' : '/rec';
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries((req.query ?? {}) as Record<string, unknown>)) if (typeof value === 'string') query[name] = value;
  return { method: req.method, path, query, headers: req.headers, rawBody: req.rawBody ?? Buffer.alloc(0) };
}
