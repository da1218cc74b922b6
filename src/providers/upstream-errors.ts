import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { UpstreamError } from './provider-adapter';

function describe(error: UpstreamError, provider: string): string {
  switch (error.kind) {
    case 'timeout':
      return `The payment provider "${provider}" did not answer in time.`;
    case 'network':
      return `The payment provider "${provider}" could not be reached.`;
    case 'http':
      return (error.upstreamStatus ?? 0) >= 500
        ? `The payment provider "${provider}" failed (HTTP ${error.upstreamStatus}).`
        : `The payment provider "${provider}" refused the request (HTTP ${error.upstreamStatus}).`;
    case 'malformed':
      return `The payment provider "${provider}" answered with a response the gateway could not understand.`;
  }
}

/**
 * An UpstreamError as the API reports it (docs/api.md, The envelope): 502 with `upstream_status` whenever
 * the provider answered, and the provider's own code and message in `details` when it gave them.
 */
export function upstreamToAppError(code: ErrorCode.PAYMENT_CREATE_FAILED | ErrorCode.UPSTREAM_ERROR, error: UpstreamError, provider: string): AppError {
  const details: Record<string, unknown> = {};
  if (error.providerCode !== undefined) details.provider_code = error.providerCode;
  if (error.providerMessage !== undefined) details.provider_message = error.providerMessage;
  return new AppError(code, {
    message: describe(error, provider),
    upstreamStatus: error.upstreamStatus,
    details: Object.keys(details).length ? details : undefined,
    cause: error,
  });
}
