import { ValidateIf } from 'class-validator';

/**
 * An optional member that, when present, is checked: unlike `@IsOptional()`, which also skips
 * `null`, a `null` here fails the member's own rules. For members the API document does not make
 * nullable: a `null` the document refuses must not be taken as "left out".
 */
export function IsOptionalNotNull(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}
