import { CredentialsError, UpstreamError } from '../provider-adapter';
import { AccountUnusableError, classifyCreateFailure, countsAgainstAccount } from '../provider-errors';
import { exchangeFailure, ExchangeTimeout } from '../transport/failures';

const http = (status: number) => new UpstreamError({ kind: 'http', upstreamStatus: status, message: `PUT /cob: HTTP ${status}` });
const socket = (code: string) => exchangeFailure('PUT /cob', 1000, Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code }));

describe('classifyCreateFailure', () => {
  it.each([
    ['a refused connection', socket('ECONNREFUSED'), 'refused'],
    ['a failed DNS lookup', socket('ENOTFOUND'), 'refused'],
    ['a failed TLS handshake', socket('ERR_TLS_CERT_ALTNAME_INVALID'), 'refused'],
    ['an untrusted certificate', socket('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), 'refused'],
    ['a connection reset after sending', socket('ECONNRESET'), 'ambiguous'],
    ['a timeout', exchangeFailure('PUT /cob', 1000, new ExchangeTimeout('late')), 'ambiguous'],
    ['an unreadable answer', new UpstreamError({ kind: 'malformed', message: 'not JSON' }), 'ambiguous'],
    ['503', http(503), 'ambiguous'],
    ['500', http(500), 'ambiguous'],
    ['401', http(401), 'refused'],
    ['403', http(403), 'refused'],
    ['404 (a wrong base path)', http(404), 'refused'],
    ['429', http(429), 'refused'],
    ['400 about the payment', http(400), 'rejected'],
    ['422 about the payment', http(422), 'rejected'],
    ['credentials that no longer parse', new CredentialsError('credentials.certificate_pem', 'expired'), 'refused'],
    ['an account unusable here', new AccountUnusableError('homologation_in_production', 'pa_x', 'efi', 'no'), 'refused'],
  ])('%s is %s', (_what, error, expected) => {
    expect(classifyCreateFailure(error)).toBe(expected);
  });

  it('leaves anything that is not a provider failure to be rethrown', () => {
    expect(classifyCreateFailure(new TypeError('bug'))).toBeUndefined();
  });
});

describe('countsAgainstAccount', () => {
  it.each([
    [socket('ECONNREFUSED'), true],
    [exchangeFailure('GET /cob', 1000, new ExchangeTimeout('late')), true],
    [http(503), true],
    [http(401), true],
    [http(429), true],
    [http(400), false],
    [http(404), false],
    [new TypeError('bug'), false],
  ])('%s: %s', (error, expected) => {
    expect(countsAgainstAccount(error)).toBe(expected);
  });
});
