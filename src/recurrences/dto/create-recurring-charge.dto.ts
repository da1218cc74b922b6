import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { IsAmount } from '../../common/validation/amount';
import { IsCalendarDate } from '../../common/validation/calendar-date';

/** Body of `POST /v1/recurrences/:id/charges`. */
export class CreateRecurringChargeDto {
  @ApiProperty({ example: '2026-12-05', description: "The day the payer's bank debits (Brasília), within the lead time the account's bank documents." })
  @IsCalendarDate('dueDate')
  dueDate: string;

  @ApiPropertyOptional({ example: 89.9, description: 'Decimal reais: required for a variable recurrence (at least its minimumAmount), refused for a fixed one.' })
  @IsOptional()
  @IsAmount()
  amount?: number;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'December', maxLength: 140 })
  @IsOptional()
  @IsString()
  @MaxLength(140)
  description?: string | null;
}
