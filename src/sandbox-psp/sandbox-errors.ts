import type { SandboxErrorBody, SandboxFailureMode } from '../common/sandbox-wire/sandbox-api';

/** An answer the sandbox refuses with: its status and `{error:{code, message, field?}}` body. */
export class SandboxHttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }

  toBody(): SandboxErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.field ? { field: this.field } : {}) } };
  }
}

export const unauthorized = () =>
  new SandboxHttpError(401, 'UNAUTHORIZED', 'The sandbox needs credentials: Authorization: Bearer <sandbox API token or admin token>, or a dashboard session.');
export const invalid = (message: string, field?: string) => new SandboxHttpError(400, 'INVALID_REQUEST', message, field);
export const notFound = (id: string) => new SandboxHttpError(404, 'NOT_FOUND', `No charge with id or txid "${id}".`);

export const SANDBOX_CODE_BY_STATUS: Record<number, string> = {
  400: 'INVALID_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  429: 'RATE_LIMITED',
  404: 'NOT_FOUND',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

export function injected(code: string, mode: SandboxFailureMode): SandboxErrorBody {
  return { error: { code, message: `Injected failure (${mode}).` } };
}
