import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import { reaisToCents } from '../../domain/money';

/**
 * An amount in reais: a finite JSON number, greater than 0, with at most two decimal places, judged
 * by its shortest decimal text as the gateway converts it (reaisToCents). class-validator's own
 * `maxDecimalPlaces` counts the digits after a '.', so `1e-7` (no '.') passed it and crashed later.
 */
export function IsAmount(field = 'amount'): PropertyDecorator {
  const problem = (value: unknown): string | null => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return `${field} must be a JSON number with at most 2 decimal places`;
    if (value <= 0) return `${field} must be greater than 0`;
    if (value >= 1e13) return `${field} is too large`;
    if (reaisToCents(value) === undefined) return `${field} must have at most 2 decimal places`;
    return null;
  };
  return applyDecorators(
    ValidateBy({
      name: 'isAmount',
      validator: {
        validate: (value) => problem(value) === null,
        defaultMessage: (args) => problem(args?.value) ?? `${field} is invalid`,
      },
    }),
    // The same rule in the API document, merged under the property's own ApiProperty.
    ApiProperty({ type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1e13, multipleOf: 0.01 } as unknown as ApiPropertyOptions),
  );
}
