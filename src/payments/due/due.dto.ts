import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsObject, IsString, Length, Matches, Max, Min, ValidateNested } from 'class-validator';
import { IsAmount } from '../../common/validation/amount';
import { IsOptionalNotNull } from '../../common/validation/optional';
import { IsCalendarDate } from '../../common/validation/calendar-date';
import {
  ABATEMENT_TYPES,
  type AbatementType,
  DAY_COUNTS,
  type DayCount,
  DEFAULT_DAYS_AFTER_DUE,
  DISCOUNT_TYPES,
  type DiscountType,
  FINE_TYPES,
  type FineType,
  INTEREST_TYPES,
  type InterestType,
  MAX_DAYS_AFTER_DUE,
  MAX_DISCOUNT_DATES,
} from '../../domain/due-charge';

/*
 * The `due` member of a create (docs/due-charges.md; the Pix API's `cobv`). Values are decimal reais
 * or percents with at most 2 decimal places. Which members go with which `type` (a fixed-date
 * discount's `until`, a per-day one's `days` and `value`) and the rules between dates are checked
 * after these, by due-terms.ts, so every problem names its field.
 */

const VALUE_DESCRIPTION = 'Decimal reais for an amount type, a percent for a percent type; > 0, at most 2 decimal places.';

export class DueFineDto {
  @ApiProperty({ enum: FINE_TYPES, example: 'percent', description: '`fixed`: an amount; `percent`: a percent of the original amount (Pix API `multa`, modalidade 1 / 2).' })
  @IsIn(FINE_TYPES, { message: `due.fine.type must be one of ${FINE_TYPES.join(', ')}` })
  type: FineType;

  @ApiProperty({ example: 2, description: VALUE_DESCRIPTION })
  @IsAmount('due.fine.value')
  value: number;
}

export class DueInterestDto {
  @ApiProperty({
    enum: INTEREST_TYPES,
    example: 'percent_per_month',
    description: 'An amount or a percent of the original amount per day late, or a percent per month or per year (Pix API `juros`, modalidade 1–8).',
  })
  @IsIn(INTEREST_TYPES, { message: `due.interest.type must be one of ${INTEREST_TYPES.join(', ')}` })
  type: InterestType;

  @ApiPropertyOptional({ enum: DAY_COUNTS, example: 'calendar', description: 'Which days late count: calendar days (default) or business days.' })
  @IsOptionalNotNull()
  @IsIn(DAY_COUNTS, { message: `due.interest.days must be one of ${DAY_COUNTS.join(', ')}` })
  days?: DayCount;

  @ApiProperty({ example: 1, description: VALUE_DESCRIPTION })
  @IsAmount('due.interest.value')
  value: number;
}

export class DueDiscountDateDto {
  @ApiProperty({ example: '2026-12-05', description: 'Paid on or before this day (Brasília), the discount is `value`; on or before the due date.' })
  @IsCalendarDate('due.discount.until.date')
  date: string;

  @ApiProperty({ example: 5, description: VALUE_DESCRIPTION })
  @IsAmount('due.discount.until.value')
  value: number;
}

export class DueDiscountDto {
  @ApiProperty({
    enum: DISCOUNT_TYPES,
    example: 'fixed_until',
    description:
      "`fixed_until` / `percent_until`: an amount or percent off when paid by each of `until`'s dates (Pix API `desconto` modalidade 1 / 2). " +
      '`amount_per_day_early` / `percent_per_day_early`: an amount or percent off per day paid before the due date (modalidade 3–6), with `days` and `value`.',
  })
  @IsIn(DISCOUNT_TYPES, { message: `due.discount.type must be one of ${DISCOUNT_TYPES.join(', ')}` })
  type: DiscountType;

  @ApiPropertyOptional({
    type: [DueDiscountDateDto],
    minItems: 1,
    maxItems: MAX_DISCOUNT_DATES,
    description: 'For `fixed_until` and `percent_until`: 1–3 dates, each on or before the due date.',
  })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMinSize(1, { message: 'due.discount.until must hold 1 to 3 dates' })
  @ArrayMaxSize(MAX_DISCOUNT_DATES, { message: 'due.discount.until must hold 1 to 3 dates' })
  @ValidateNested({ each: true })
  @Type(() => DueDiscountDateDto)
  until?: DueDiscountDateDto[];

  @ApiPropertyOptional({ enum: DAY_COUNTS, example: 'calendar', description: 'For the per-day types: which days early count (default calendar).' })
  @IsOptionalNotNull()
  @IsIn(DAY_COUNTS, { message: `due.discount.days must be one of ${DAY_COUNTS.join(', ')}` })
  days?: DayCount;

  @ApiPropertyOptional({ example: 0.5, description: `For the per-day types. ${VALUE_DESCRIPTION}` })
  @IsOptionalNotNull()
  @IsAmount('due.discount.value')
  value?: number;
}

export class DueAbatementDto {
  @ApiProperty({ enum: ABATEMENT_TYPES, example: 'fixed', description: 'An amount or a percent of the original amount taken off whenever it is paid (Pix API `abatimento`).' })
  @IsIn(ABATEMENT_TYPES, { message: `due.abatement.type must be one of ${ABATEMENT_TYPES.join(', ')}` })
  type: AbatementType;

  @ApiProperty({ example: 10, description: VALUE_DESCRIPTION })
  @IsAmount('due.abatement.value')
  value: number;
}

/** A due-date charge's terms: when it is due, how long after it can still be paid, and its fees and discounts. */
export class DueDto {
  @ApiProperty({ example: '2026-12-10', description: 'The due date, today or later in Brasília (Pix API `calendario.dataDeVencimento`).' })
  @IsCalendarDate('due.date')
  date: string;

  @ApiPropertyOptional({
    example: DEFAULT_DAYS_AFTER_DUE,
    minimum: 0,
    maximum: MAX_DAYS_AFTER_DUE,
    description: `Days after the due date it can still be paid (default ${DEFAULT_DAYS_AFTER_DUE}); after them it expires (Pix API \`calendario.validadeAposVencimento\`).`,
  })
  @IsOptionalNotNull()
  @IsInt({ message: `due.daysAfterDue must be an integer from 0 to ${MAX_DAYS_AFTER_DUE}` })
  @Min(0, { message: `due.daysAfterDue must be an integer from 0 to ${MAX_DAYS_AFTER_DUE}` })
  @Max(MAX_DAYS_AFTER_DUE, { message: `due.daysAfterDue must be an integer from 0 to ${MAX_DAYS_AFTER_DUE}` })
  daysAfterDue?: number;

  @ApiPropertyOptional({ type: DueFineDto, description: 'Charged once when paid after the due date.' })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => DueFineDto)
  fine?: DueFineDto;

  @ApiPropertyOptional({ type: DueInterestDto, description: 'Charged for each day paid after the due date.' })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => DueInterestDto)
  interest?: DueInterestDto;

  @ApiPropertyOptional({ type: DueDiscountDto, description: 'Taken off when paid early.' })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => DueDiscountDto)
  discount?: DueDiscountDto;

  @ApiPropertyOptional({ type: DueAbatementDto, description: 'Taken off whenever it is paid.' })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => DueAbatementDto)
  abatement?: DueAbatementDto;
}

/** Brazil's 27 federative units, as `devedor.uf` takes them. */
export const UFS = [
  'AC',
  'AL',
  'AM',
  'AP',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MG',
  'MS',
  'MT',
  'PA',
  'PB',
  'PE',
  'PI',
  'PR',
  'RJ',
  'RN',
  'RO',
  'RR',
  'RS',
  'SC',
  'SE',
  'SP',
  'TO',
] as const;

/** The payer's address, which a due-date charge may carry (Pix API `devedor.logradouro`, `cidade`, `uf`, `cep`). */
export class RecipientAddressDto {
  @ApiProperty({ example: 'Rua das Flores, 80, Boa Vista', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200, { message: 'recipientAddress.street must be 1 to 200 characters' })
  street: string;

  @ApiProperty({ example: 'Recife', minLength: 1, maxLength: 200 })
  @IsString()
  @Length(1, 200, { message: 'recipientAddress.city must be 1 to 200 characters' })
  city: string;

  @ApiProperty({ enum: UFS, example: 'PE', description: 'The state, as its two-letter code.' })
  @IsIn(UFS, { message: 'recipientAddress.state must be a Brazilian state code such as SP' })
  state: string;

  @ApiProperty({ example: '50050-000', pattern: '^\\d{5}-?\\d{3}$', description: 'The CEP: 8 digits, with or without the dash.' })
  @IsString()
  @Matches(/^\d{5}-?\d{3}$/, { message: 'recipientAddress.zip must be a CEP of 8 digits' })
  zip: string;
}
