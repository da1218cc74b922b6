import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsAmount } from '../../../common/validation/amount';
import { DueDto } from '../../due/due.dto';

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

  @ApiPropertyOptional({
    type: DueDto,
    description: 'Makes it a due-date charge, as `due` on `POST /v1/payments/create` (docs/due-charges.md); the test payer then carries a test address.',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DueDto)
  due?: DueDto;
}
