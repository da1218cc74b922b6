import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsDefined, IsIn, IsObject, IsOptional, IsString, Length, Matches, MaxLength, ValidateNested } from 'class-validator';
import { IsAmount } from '../../common/validation/amount';
import { IsCpfOrCnpj } from '../../common/validation/brazilian-document';
import { IsCalendarDate } from '../../common/validation/calendar-date';
import { IsOptionalNotNull } from '../../common/validation/optional';
import { FREQUENCIES, type Frequency, JOURNEYS, type Journey, RETRY_POLICIES, type RetryPolicy } from '../../domain/recurrence';
import { DueDto } from '../../payments/due/due.dto';

const trim = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** The payer's account for the `request` journey: the Pix API's `destinatario`. */
export class PayerAccountDto {
  @ApiProperty({ example: '60701190', description: "The payer's bank, by its ISPB (8 digits)." })
  @IsString()
  @Matches(/^\d{8}$/, { message: 'payer.account.ispbParticipante must be 8 digits' })
  ispbParticipante: string;

  @ApiPropertyOptional({ example: '2569', description: 'Branch, up to 4 digits.' })
  @IsOptional()
  @IsString()
  @Matches(/^\d{1,4}$/, { message: 'payer.account.agencia must be 1 to 4 digits' })
  agencia?: string;

  @ApiProperty({ example: '550689', description: 'Account number, digits only (up to 20).' })
  @IsString()
  @Matches(/^\d{1,20}$/, { message: 'payer.account.conta must be 1 to 20 digits' })
  conta: string;
}

export class RecurrencePayerDto {
  @ApiProperty({ example: '123.456.789-09', description: 'CPF or CNPJ of the payer; punctuation allowed; check digits verified.' })
  @IsString()
  @IsCpfOrCnpj()
  document: string;

  @ApiProperty({ example: 'Ana Souza', minLength: 1, maxLength: 140 })
  @Transform(trim)
  @IsString()
  @Length(1, 140, { message: 'payer.name must be 1 to 140 characters' })
  name: string;

  @ApiPropertyOptional({ type: PayerAccountDto, description: 'Required for `journey: "request"`: the account the payer is asked from.' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => PayerAccountDto)
  account?: PayerAccountDto;
}

export class RecurrenceContractDto {
  @ApiProperty({ example: 'plan-gold-4471', description: "Your contract's id, shown to the payer in their bank (1–35 characters)." })
  @Transform(trim)
  @IsString()
  @Length(1, 35, { message: 'contract.id must be 1 to 35 characters' })
  id: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'Gym membership', description: 'What the payer is paying for, shown in their bank (up to 35 characters).' })
  @IsOptional()
  @IsString()
  @MaxLength(35, { message: 'contract.description must be at most 35 characters' })
  description?: string | null;
}

export class FirstPaymentDto {
  @ApiProperty({ example: 89.9, description: 'Decimal reais: paid now with the authorization, or the original amount of the due-date charge (`qr_with_due_payment`).' })
  @IsAmount('firstPayment.amount')
  amount: number;

  @ApiPropertyOptional({
    type: DueDto,
    description:
      'Required for, and only for, `journey: "qr_with_due_payment"`: the first payment is a due-date charge with these terms (the same rules as a payment\'s `due`; docs/due-charges.md).',
  })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => DueDto)
  due?: DueDto;
}

/** Body of `POST /v1/recurrences` (docs/recurrences.md). Unknown fields are refused. */
export class CreateRecurrenceDto {
  @ApiProperty({ example: 'subscription-881', description: 'Your subscription id: 1–64 characters of [A-Za-z0-9._:-].' })
  @IsString()
  @Matches(/^[A-Za-z0-9._:-]{1,64}$/, { message: 'externalId must be 1 to 64 characters of A-Z a-z 0-9 . _ : -' })
  externalId: string;

  @ApiProperty({ type: RecurrencePayerDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => RecurrencePayerDto)
  payer: RecurrencePayerDto;

  @ApiProperty({ type: RecurrenceContractDto })
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => RecurrenceContractDto)
  contract: RecurrenceContractDto;

  @ApiProperty({ enum: FREQUENCIES, example: 'monthly' })
  @IsIn(FREQUENCIES, { message: `frequency must be one of ${FREQUENCIES.join(', ')}` })
  frequency: Frequency;

  @ApiPropertyOptional({ example: 89.9, description: 'Fixed amount of every charge, decimal reais. Exactly one of `amount` and `minimumAmount`.' })
  @IsOptional()
  @IsAmount()
  amount?: number;

  @ApiPropertyOptional({ example: 50, description: 'Variable recurrence: each charge states its amount, at least this. Exactly one of `amount` and `minimumAmount`.' })
  @IsOptional()
  @IsAmount('minimumAmount')
  minimumAmount?: number;

  @ApiProperty({ example: '2026-12-05', description: 'First day of the first cycle: today (in Brasília) or later.' })
  @IsCalendarDate('startDate')
  startDate: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: null, description: 'Last day a charge may fall on; after startDate, or absent for no end.' })
  @IsOptional()
  @IsCalendarDate('endDate')
  endDate?: string | null;

  @ApiPropertyOptional({ enum: RETRY_POLICIES, example: 'three_in_seven_days', description: 'Default `none`.' })
  @IsOptional()
  @IsIn(RETRY_POLICIES, { message: `retryPolicy must be one of ${RETRY_POLICIES.join(', ')}` })
  retryPolicy?: RetryPolicy;

  @ApiPropertyOptional({ enum: JOURNEYS, example: 'qr', description: 'Default `qr`.' })
  @IsOptional()
  @IsIn(JOURNEYS, { message: `journey must be one of ${JOURNEYS.join(', ')}` })
  journey?: Journey;

  @ApiPropertyOptional({
    type: FirstPaymentDto,
    description: 'Required for, and only for, `journey: "qr_with_first_payment"` (`{amount}`) and `journey: "qr_with_due_payment"` (`{amount, due}`).',
  })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => FirstPaymentDto)
  firstPayment?: FirstPaymentDto;
}
