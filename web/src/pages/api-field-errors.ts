import { ApiError } from '../api';
import { messageOf } from '../ui';

/**
 * A form's errors by the API's own field names (`name`, `base_url`, `credentials.certificate_pem`,
 * `receiver_account.conta`, …), so the browser's checks and the API's refusals land beside the same
 * fields.
 */
export type FormErrors = Partial<Record<string, string>>;

/** One of the API's field problems as a sentence that names its field (credentials errors say only "is required"). */
function fieldText({ field, message }: { field: string; message: string }): string {
  const name = field.split('.').pop() ?? field;
  return message.startsWith(name) ? message : `${name} ${message}`;
}

/** The API's field errors, to place beside the fields they are about. */
export function apiErrors(error: unknown): FormErrors {
  if (!(error instanceof ApiError)) return {};
  const errors: FormErrors = {};
  for (const problem of error.fields) errors[problem.field] ??= fieldText(problem);
  return errors;
}

/** What went wrong, in words: a refusal lists every field problem, naming each field. */
export function failureText(error: unknown): string {
  if (error instanceof ApiError && error.code === 'VALIDATION_ERROR' && error.fields.length > 0) return `Please check: ${error.fields.map(fieldText).join('; ')}.`;
  return messageOf(error);
}
