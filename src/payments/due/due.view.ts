import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { DAY_COUNTS, DISCOUNT_TYPES, FINE_TYPES, INTEREST_TYPES, ABATEMENT_TYPES } from '../../domain/due-charge';
import { UFS } from './due.dto';

/* `due` as a payment shows it: the terms as created (or last changed), defaults filled in. */

export class DueFineView {
  @ApiProperty({ enum: FINE_TYPES, example: 'percent' }) type: string;
  @ApiProperty({ example: 2 }) value: number;
}

export class DueInterestView {
  @ApiProperty({ enum: INTEREST_TYPES, example: 'percent_per_month' }) type: string;
  @ApiProperty({ enum: DAY_COUNTS, example: 'calendar' }) days: string;
  @ApiProperty({ example: 1 }) value: number;
}

export class DueDiscountDateView {
  @ApiProperty({ format: 'date', example: '2026-12-05' }) date: string;
  @ApiProperty({ example: 5 }) value: number;
}

export class DueDiscountView {
  @ApiProperty({ enum: DISCOUNT_TYPES, example: 'fixed_until' }) type: string;
  @ApiPropertyOptional({ type: [DueDiscountDateView], description: 'For `fixed_until` and `percent_until`.' }) until?: DueDiscountDateView[];
  @ApiPropertyOptional({ enum: DAY_COUNTS, description: 'For the per-day types.' }) days?: string;
  @ApiPropertyOptional({ type: Number, description: 'For the per-day types.' }) value?: number;
}

export class DueAbatementView {
  @ApiProperty({ enum: ABATEMENT_TYPES, example: 'fixed' }) type: string;
  @ApiProperty({ example: 10 }) value: number;
}

export class DueView {
  @ApiProperty({ format: 'date', example: '2026-12-10', description: 'The due date (Brasília).' }) date: string;
  @ApiProperty({ example: 30, description: 'Days after the due date it can still be paid; then it expires.' }) daysAfterDue: number;
  @ApiPropertyOptional({ type: DueFineView, nullable: true }) fine: DueFineView | null;
  @ApiPropertyOptional({ type: DueInterestView, nullable: true }) interest: DueInterestView | null;
  @ApiPropertyOptional({ type: DueDiscountView, nullable: true }) discount: DueDiscountView | null;
  @ApiPropertyOptional({ type: DueAbatementView, nullable: true }) abatement: DueAbatementView | null;
}

export class AddressView {
  @ApiProperty({ example: 'Rua das Flores, 80, Boa Vista' }) street: string;
  @ApiProperty({ example: 'Recife' }) city: string;
  @ApiProperty({ enum: UFS, example: 'PE' }) state: string;
  @ApiProperty({ example: '50050000', description: 'The CEP, 8 digits.' }) zip: string;
}
