import { ApiProperty, OmitType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsObject, IsString, Length, ValidateNested } from 'class-validator';
import { CreatePaymentDto } from '../../payments/dto/create-payment.dto';
import { DueDto } from '../../payments/due/due.dto';
import { MAX_BATCH_ITEMS } from '../batch-plan';

/** One payment of a batch: the create body of `POST /v1/payments/create`, with `due` required (a batch holds due-date charges only). */
export class BatchPaymentDto extends OmitType(CreatePaymentDto, ['due'] as const) {
  @ApiProperty({
    type: DueDto,
    description: 'The due-date terms, as on `POST /v1/payments/create` (docs/due-charges.md). Required: a batch holds due-date charges only.',
  })
  @IsObject()
  @ValidateNested()
  @Type(() => DueDto)
  due: DueDto;
}

/** Body of `POST /v1/payment-batches` (docs/api.md, Payment batches). Unknown fields are refused. */
export class CreatePaymentBatchDto {
  @ApiProperty({ example: 'Mensalidades de dezembro', minLength: 1, maxLength: 140, description: 'What the batch is, for the merchant and (where the PSP takes batches) the PSP.' })
  @IsString()
  @Length(1, 140, { message: 'description must be 1 to 140 characters' })
  description: string;

  @ApiProperty({
    type: [BatchPaymentDto],
    minItems: 1,
    maxItems: MAX_BATCH_ITEMS,
    description:
      'The payments, 1 to 1,000, each a create body with `due` and its own `externalId` (unique within the batch). Every one is validated before any is created: ' +
      'a bad one is 400 VALIDATION_ERROR naming it by index (`payments.3.due.date`), and nothing is created.',
  })
  @IsArray()
  @ArrayMinSize(1, { message: `payments must hold 1 to ${MAX_BATCH_ITEMS} payments` })
  @ArrayMaxSize(MAX_BATCH_ITEMS, { message: `payments must hold 1 to ${MAX_BATCH_ITEMS} payments` })
  @ValidateNested({ each: true })
  @Type(() => BatchPaymentDto)
  payments: BatchPaymentDto[];
}
