import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '../common/errors/error-codes';
import { ApiErrorResponses } from '../common/http/api-docs';
import { answerData, requestState } from '../common/http/request-state';
import type { InboundCallback } from '../providers/provider-adapter';
import { CountsCallbackAuthFailures } from '../common/throttle/callback-auth-failures';
import { type RecurringCallbackResult, RecurringIntakeService } from './recurring-intake.service';

const DESCRIPTION =
  'A PSP posts `{"recs":[…]}` to `<webhook_url>/rec` and `{"cobsr":[…]}` to `<webhook_url>/cobr`. The body proves nothing: each entry is read ' +
  "back from the PSP (`GET /rec/{idRec}`, `GET /cobr/{txid}`) with the account's credentials before anything changes, and deduplicated per account. " +
  'Nothing confirmed: 401 INVALID_SIGNATURE; a PSP that cannot be asked: 502, and it posts again.';

/** Recurring callbacks: the static `rec`/`cobr` segments win over the Pix callbacks' `:account` (src/webhooks/webhooks.controller.ts). */
@ApiTags('webhooks')
@Controller('webhooks')
@CountsCallbackAuthFailures()
export class RecurringCallbacksController {
  constructor(private readonly intake: RecurringIntakeService) {}

  @Post([':provider/:account/rec', ':provider/:account/cobr'])
  @HttpCode(200)
  @ApiOperation({ summary: "Receive a provider account's recurrence or recurring-charge callback", description: DESCRIPTION })
  @ApiParam({ name: 'provider', example: 'efi' })
  @ApiParam({ name: 'account', example: 'pa_5hQm2Zt8KcV1xLr9BnW3dF7Y' })
  @ApiErrorResponses(ErrorCode.INVALID_SIGNATURE, ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.RATE_LIMITED, ErrorCode.UPSTREAM_ERROR, ErrorCode.INTERNAL_ERROR)
  async receiveForAccount(@Param('provider') provider: string, @Param('account') account: string, @Req() req: FastifyRequest): Promise<RecurringCallbackResult> {
    return answerData(req, await this.intake.receive(provider, account, inbound(req), req.body, requestState(req).requestId));
  }

  @Post([':provider/rec', ':provider/cobr'])
  @HttpCode(200)
  @ApiOperation({ summary: "Receive a recurring callback for a provider's built-in account (the simulated PSP)", description: DESCRIPTION })
  @ApiParam({ name: 'provider', example: 'sandbox' })
  @ApiErrorResponses(ErrorCode.INVALID_SIGNATURE, ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.RATE_LIMITED, ErrorCode.INTERNAL_ERROR)
  async receive(@Param('provider') provider: string, @Req() req: FastifyRequest): Promise<RecurringCallbackResult> {
    return answerData(req, await this.intake.receive(provider, undefined, inbound(req), req.body, requestState(req).requestId));
  }
}

function inbound(req: FastifyRequest): InboundCallback {
  const path = new URL(req.url, 'http://gateway').pathname.endsWith('/cobr') ? '/cobr' : '/rec';
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries((req.query ?? {}) as Record<string, unknown>)) if (typeof value === 'string') query[name] = value;
  return { method: req.method, path, query, headers: req.headers, rawBody: req.rawBody ?? Buffer.alloc(0) };
}
