import { ErrorCode } from '../common/errors/error-codes';
import { UpstreamError } from './provider-adapter';
import { upstreamToAppError } from './upstream-errors';

describe('upstreamToAppError', () => {
  it('keeps the provider status, code and message', () => {
    const error = upstreamToAppError(
      ErrorCode.PAYMENT_CREATE_FAILED,
      new UpstreamError({ kind: 'http', message: 'x', upstreamStatus: 422, providerCode: 'INVALID_REQUEST', providerMessage: 'bad debtor' }),
      'sandbox',
    );
    expect(error.status).toBe(502);
    expect(error.code).toBe(ErrorCode.PAYMENT_CREATE_FAILED);
    expect(error.upstreamStatus).toBe(422);
    expect(error.details).toEqual({ provider_code: 'INVALID_REQUEST', provider_message: 'bad debtor' });
    expect(error.message).toContain('refused');
  });

  it('reports a timeout without an upstream status or details', () => {
    const error = upstreamToAppError(ErrorCode.UPSTREAM_ERROR, new UpstreamError({ kind: 'timeout', message: 'x' }), 'sandbox');
    expect(error.status).toBe(502);
    expect(error.upstreamStatus).toBeUndefined();
    expect(error.details).toBeUndefined();
    expect(error.message).toContain('did not answer in time');
  });

  it('distinguishes provider faults from refusals and garbage', () => {
    expect(upstreamToAppError(ErrorCode.UPSTREAM_ERROR, new UpstreamError({ kind: 'http', message: 'x', upstreamStatus: 503 }), 'p').message).toContain('failed (HTTP 503)');
    expect(upstreamToAppError(ErrorCode.UPSTREAM_ERROR, new UpstreamError({ kind: 'malformed', message: 'x', upstreamStatus: 200 }), 'p').message).toContain(
      'could not understand',
    );
    expect(upstreamToAppError(ErrorCode.UPSTREAM_ERROR, new UpstreamError({ kind: 'network', message: 'x' }), 'p').message).toContain('could not be reached');
  });
});
