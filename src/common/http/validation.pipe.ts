import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { AppError, FieldError } from '../errors/app-error';

/** Flattens class-validator's tree into one entry per bad field, named by its path (`recipient.name`). */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): FieldError[] {
  const out: FieldError[] = [];
  for (const error of errors) {
    const field = parent ? `${parent}.${error.property}` : error.property;
    for (const message of Object.values(error.constraints ?? {})) out.push({ field, message });
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
      validationError: { target: false, value: false },
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
