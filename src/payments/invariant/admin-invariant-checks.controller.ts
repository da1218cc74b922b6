import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../../auth/admin-auth.guard';
import { ErrorCode } from '../../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../../common/http/api-docs';
import { InvariantCheckView } from './dto/invariant-check.view';
import { MoneyInvariantService } from './money-invariant.service';

@ApiTags('invariant-checks')
@AdminAuth()
@Controller('admin/api/invariant-checks')
export class AdminInvariantChecksController {
  constructor(private readonly invariant: MoneyInvariantService) {}

  @Post()
  @HttpCode(202)
  @ApiOperation({
    summary: 'Run the money invariant check now',
    description:
      "Starts a run in the background and answers it, `running`: each payment of the last INVARIANT_CHECK_DAYS days is read back from its PSP, and what the PSP says was received and returned is compared with the gateway's books. " +
      'Follow it with `GET /admin/api/invariant-checks/latest`. One run at a time across every gateway process: 409 while one is running (the daily one included).',
  })
  @ApiEnvelopeResponse(202, InvariantCheckView)
  @ApiErrorResponses([
    ErrorCode.CONFLICT,
    { message: 'An invariant check is already running: ick_7Yb2Qw9ZtR4mK8sLx3Vn6PcD, started at 2026-05-02T06:00:04.120Z. Wait for it to finish.' },
  ])
  runInvariantCheck(): Promise<InvariantCheckView> {
    return this.invariant.start();
  }

  @Get('latest')
  @ApiOperation({
    summary: 'The last money invariant check',
    description:
      'The last run started (running, completed or failed) with the mismatch lines it found: each a payment whose PSP and gateway disagree on money. 404 before the first run.',
  })
  @ApiEnvelopeResponse(200, InvariantCheckView)
  @ApiErrorResponses([ErrorCode.NOT_FOUND, { message: 'No invariant check has run yet.' }])
  getLatestInvariantCheck(): Promise<InvariantCheckView> {
    return this.invariant.latest();
  }
}
