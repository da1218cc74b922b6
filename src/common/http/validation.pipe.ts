import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError, FieldError } from '../errors/app-error';

/**
 * Flattens class-validator's tree into entries named by their path (`recipient.name`). A field that
 * is absent fails every rule it has, and their messages ("must be a string", "must be
 * \"BRL\"") would not say what is wrong: it gets the one message "<field> is required" instead.
 * Optional fields are never reported absent (@IsOptional skips them).
 */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    const messages = Object.values(error.constraints ?? {});
    const absent = error.value === undefined && !error.constraints?.whitelistValidation;
    if (absent && messages.length > 0) out.push({ field, message: `${field} is required` });
    else for (const message of messages) out.push({ field, message });
    if (error.children?.length) out.push(...flattenValidationErrors(error.children, field));
  }
  return out;
}

/**
 * The global pipe: unknown fields are refused, values are not coerced (a string is not an amount),
 * and a body that is not a JSON object is a validation error rather than a crash further in.
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      // The value is read only to tell an absent field (flattenValidationErrors); it never reaches a response or a log.
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => AppError.validation(flattenValidationErrors(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object) {
      if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value)) {
        throw AppError.validation([{ field: 'body', message: 'The request body must be a JSON object.' }]);
      }
    }
    return super.transform(value, metadata);
  }
}
