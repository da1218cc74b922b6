import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { PROVIDER_EVENT_TYPES, type ProviderEventType } from '../../providers/payment-provider';

export class SimulateEventDto {
  @ApiProperty({ enum: PROVIDER_EVENT_TYPES, example: 'payment.confirmed' })
  @IsIn(PROVIDER_EVENT_TYPES)
  event: ProviderEventType;

  @ApiPropertyOptional({ example: 9.99, description: 'Report this amount (reais) instead of the charge amount, to try the amount-mismatch path.' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 })
  @Min(0.01)
  @Max(1_000_000_000)
  amount?: number;
}
