import { AppError } from '../common/errors/app-error';

/** Printable ASCII, 1–255 characters (docs/api.md, Idempotency). */
export const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

/** The request's Idempotency-Key, or VALIDATION_ERROR naming the header. */
export function requireIdempotencyKey(key: string | undefined): string {
  if (key === undefined || !IDEMPOTENCY_KEY.test(key)) {
    throw AppError.validation([
      { field: 'Idempotency-Key', message: key === undefined ? 'The Idempotency-Key header is required' : 'Idempotency-Key must be 1 to 255 printable ASCII characters' },
    ]);
  }
  return key;
}
