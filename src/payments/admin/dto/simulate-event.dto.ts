import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, Max } from 'class-validator';
import { IsAmount } from '../../../common/validation/amount';
import { PAYMENT_EVENT_TYPES, type PaymentEventType } from '../../../domain/provider-event';

export class SimulateEventDto {
  @ApiProperty({ enum: PAYMENT_EVENT_TYPES, example: 'payment.confirmed' })
  @IsIn(PAYMENT_EVENT_TYPES)
  event: PaymentEventType;

  @ApiPropertyOptional({ example: 9.99, description: 'Report this amount (reais) instead of the charge amount, to try the amount-mismatch path.' })
  @IsOptional()
  @IsAmount()
  @Max(1_000_000_000)
  amount?: number;
}
