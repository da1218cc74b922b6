import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../../auth/admin-auth.guard';
import { ErrorCode } from '../../common/errors/error-codes';
import { ApiEnvelopeResponse, ApiErrorResponses } from '../../common/http/api-docs';
import { AdminPaymentEventsService } from './admin-payment-events.service';
import { PaymentDetailView, SimulationResultView } from './dto/payment-detail.view';
import { SimulateEventDto } from './dto/simulate-event.dto';

@ApiTags('admin-payments')
@AdminAuth()
@Controller('admin/api/payments')
export class AdminPaymentEventsController {
  constructor(private readonly payments: AdminPaymentEventsService) {}

  @Get(':id')
  @ApiOperation({
    summary: 'One payment with its event history and webhook deliveries',
    description: 'Events oldest first, each with what the gateway did with it (applied, ignored, amount_mismatch); deliveries with every HTTP attempt.',
  })
  @ApiParam({ name: 'id', example: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @ApiEnvelopeResponse(200, PaymentDetailView)
  @ApiErrorResponses(ErrorCode.NOT_FOUND)
  adminGetPayment(@Param('id') id: string): Promise<PaymentDetailView> {
    return this.payments.detail(id);
  }

  @Post(':id/simulate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Simulate a provider event on a test payment',
    description:
      "Makes a test PSP (the built-in simulated one) change the charge and send a real, signed event to the payment's webhook URL, so the " +
      'full intake path runs. Answers with what the PSP said and the payment read again. Payments whose provider cannot simulate (`can_simulate: false`) are 409 CONFLICT.',
  })
  @ApiParam({ name: 'id', example: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A' })
  @ApiEnvelopeResponse(200, SimulationResultView)
  @ApiErrorResponses(ErrorCode.VALIDATION_ERROR, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT, ErrorCode.UPSTREAM_ERROR)
  simulatePaymentEvent(@Param('id') id: string, @Body() body: SimulateEventDto): Promise<SimulationResultView> {
    return this.payments.simulate(id, body);
  }
}
