import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { isCalendarDate } from '../../domain/recurrence';

/** A calendar day written YYYY-MM-DD that exists. */
export function IsCalendarDate(field: string): PropertyDecorator {
  return applyDecorators(
    ValidateBy({
      name: 'isCalendarDate',
      validator: { validate: (value) => isCalendarDate(value), defaultMessage: () => `${field} must be a calendar date written YYYY-MM-DD` },
    }),
    // The same rule in the document, merged under the property's own ApiProperty.
    ApiProperty({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  );
}
