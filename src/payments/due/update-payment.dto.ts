import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, ValidateNested } from 'class-validator';
import { IsAmount } from '../../common/validation/amount';
import { IsOptionalNotNull } from '../../common/validation/optional';
import { DueDto } from './due.dto';

/** Body of `PATCH /v1/payments/:id`: a pending due-date charge's new amount or terms (docs/due-charges.md). */
export class UpdatePaymentDto {
  @ApiPropertyOptional({ example: 150, description: 'The new original amount, decimal reais: > 0, at most 2 decimal places.' })
  @IsOptionalNotNull()
  @IsAmount()
  amount?: number;

  @ApiPropertyOptional({ type: DueDto, description: "The new terms, as a whole: they replace the charge's (members left out are removed)." })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => DueDto)
  due?: DueDto;
}
