import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { IsAmount } from '../../../common/validation/amount';

/** Body of `POST /admin/api/test-payments` (docs/dashboard.md, Test mode). Unknown fields are refused. */
export class CreateTestPaymentDto {
  @ApiProperty({ example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A', description: 'The merchant the payment is for; its route must be test PSPs only.' })
  @IsString()
  @Matches(/^mer_[A-Za-z0-9]{1,64}$/, { message: 'merchantId must be a merchant id (mer_…)' })
  merchantId: string;

  @ApiProperty({ example: 10.5, description: 'Decimal reais: > 0, at most 2 decimal places.' })
  @IsAmount()
  amount: number;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Test order', maxLength: 140 })
  @IsOptional()
  @IsString()
  @MaxLength(140)
  description?: string | null;
}
