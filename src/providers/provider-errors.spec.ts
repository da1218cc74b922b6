import { ErrorCode } from '../common/errors/error-codes';
import { CredentialsError, UpstreamError, WebhookAuthError, WebhookParseError } from './provider-adapter';
import { AccountUnusableError, type FailureContext, providerFailureLog, providerFailureToAppError, rethrowProviderFailure } from './provider-errors';

describe('providerFailureToAppError', () => {
  const problem = () => new UpstreamError({ kind: 'http', message: 'refused', upstreamStatus: 400, providerCode: 'CobOperacaoInvalida', providerMessage: 'Operação inválida.' });
  const warn = jest.fn();
  const merchant: FailureContext = { audience: 'merchant', operation: 'create', provider: 'efi', accountId: 'pa_1', paymentId: 'pay_1', logger: { warn } };
  beforeEach(() => warn.mockClear());

  it("gives the operator the PSP's code and text, with upstream_status", () => {
    const error = providerFailureToAppError(problem(), { audience: 'admin', operation: 'call', provider: 'efi' });
    expect(error).toMatchObject({ code: ErrorCode.UPSTREAM_ERROR, upstreamStatus: 400, details: { provider_code: 'CobOperacaoInvalida', provider_message: 'Operação inválida.' } });
    expect(error.message).toBe('The payment provider "efi" refused the request (HTTP 400).');
  });

  it('tells merchants and callers only the status, and logs the rest at warn naming payment, account and reason', () => {
    const error = providerFailureToAppError(problem(), merchant);
    expect(error).toMatchObject({ code: ErrorCode.PAYMENT_CREATE_FAILED, upstreamStatus: 400, details: undefined });
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ payment_id: 'pay_1', provider_account_id: 'pa_1', reason: 'UPSTREAM' }), expect.any(String));
  });

  it('logs a failure as one warning naming the payment, provider, account, operation, status and provider code, whoever reads the answer', () => {
    providerFailureToAppError(problem(), { ...merchant, audience: 'admin', action: 'refund' });
    expect(warn).toHaveBeenCalledTimes(1);
    const [fields, message] = warn.mock.calls[0] as [Record<string, unknown>, string];
    expect(fields).toEqual({
      payment_id: 'pay_1',
      provider: 'efi',
      provider_account_id: 'pa_1',
      operation: 'refund',
      reason: 'UPSTREAM',
      kind: 'http',
      upstream_status: 400,
      provider_code: 'CobOperacaoInvalida',
    });
    expect(message).toBe('Provider efi refund failed for payment pay_1 (account pa_1): HTTP 400 CobOperacaoInvalida: refused');
    const [, unusable] = providerFailureLog(new AccountUnusableError('credentials', null, 'efi', 'no credentials'), { audience: 'merchant', operation: 'create', provider: 'efi' });
    expect(unusable).toBe('Provider efi create charge failed (built-in account): ACCOUNT_UNUSABLE: no credentials');
  });

  it.each([
    ['timeout', 'did not answer in time'],
    ['network', 'could not be reached'],
    ['malformed', 'could not understand'],
  ] as const)('describes a %s', (kind, text) => {
    expect(providerFailureToAppError(new UpstreamError({ kind, message: 'x' }), merchant).message).toContain(text);
  });

  it("never tells a merchant why an account's credentials cannot be used; the operator is told", () => {
    const unusable = new AccountUnusableError(
      'credentials',
      'pa_1',
      'efi',
      'The provider account pa_1 cannot be used: its stored credentials cannot be opened with this SECRETS_KEY.',
    );
    const forMerchant = providerFailureToAppError(unusable, merchant);
    expect(forMerchant.message).toBe('The payment provider "efi" is not available.');
    expect(providerFailureToAppError(unusable, { audience: 'admin', operation: 'call', provider: 'efi' }).message).toContain('SECRETS_KEY');
    const credentials = providerFailureToAppError(new CredentialsError('credentials.certificate_pem', 'expired on 2026-01-01'), {
      ...merchant,
      audience: 'caller',
      operation: 'call',
    });
    expect(credentials).toMatchObject({ code: ErrorCode.UPSTREAM_ERROR });
    expect(credentials.message).not.toContain('certificate');
  });

  it('maps an unconfirmed callback to 401 INVALID_SIGNATURE and a malformed one to 400 naming the field', () => {
    expect(providerFailureToAppError(new WebhookAuthError('PSP said 404 for E123'), { ...merchant, audience: 'caller' })).toMatchObject({
      code: ErrorCode.INVALID_SIGNATURE,
      message: 'The webhook signature is missing or invalid.',
    });
    expect(providerFailureToAppError(new WebhookParseError('must be an array', 'pix'), { ...merchant, audience: 'caller' })).toMatchObject({
      code: ErrorCode.VALIDATION_ERROR,
      details: { fields: [{ field: 'pix', message: 'must be an array' }] },
    });
  });

  it('rethrows anything that is not a provider failure as it is', () => {
    const bug = new TypeError('bug');
    expect(() => rethrowProviderFailure(bug, merchant)).toThrow(bug);
  });
});
