import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../../auth/admin-auth.guard';
import { ErrorCode } from '../../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../../common/http/api-docs';
import type { Page } from '../../common/http/cursor';
import { AdminPaymentItem, AdminPaymentsService } from './admin-payments.service';
import { ListPaymentsQuery } from './dto/list-payments.query';
import { AdminPaymentPageView } from '../payment.view';

@ApiTags('admin-payments')
@AdminAuth()
@Controller('admin/api/payments')
export class AdminPaymentsController {
  constructor(private readonly payments: AdminPaymentsService) {}

  @Get()
  @ApiOperation({ summary: 'List payments across merchants', description: 'Newest first; `data` is `{items, next_cursor}`; pass `cursor=next_cursor` for the next page.' })
  @ApiEnvelopeResponse(200, AdminPaymentPageView)
  @ApiErrorResponses(ErrorCode.VALIDATION_ERROR)
  adminListPayments(@Query() query: ListPaymentsQuery): Promise<Page<AdminPaymentItem>> {
    return this.payments.list(query);
  }
}
