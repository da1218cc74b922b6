import { errorCodeOf, isQuietRequest } from './access-log';

describe('access log level', () => {
  const session = { method: 'GET', path: '/admin/api/stats', bearer: false, principal: 'admin' };

  it("is debug for a dashboard session's successful reads of the admin API, and for probes and scrapers that succeed", () => {
    expect(isQuietRequest(session, 200)).toBe(true);
    expect(isQuietRequest({ ...session, path: '/admin/api/deliveries' }, 304)).toBe(true);
    expect(isQuietRequest({ method: 'GET', path: '/health', bearer: false }, 200)).toBe(true);
    expect(isQuietRequest({ method: 'GET', path: '/metrics', bearer: true, principal: 'admin' }, 200)).toBe(true);
  });

  it('is info for every error, for writes, for reads made with the admin token and for the merchant API', () => {
    expect(isQuietRequest(session, 401)).toBe(false);
    expect(isQuietRequest(session, 500)).toBe(false);
    expect(isQuietRequest({ method: 'GET', path: '/health', bearer: false }, 503)).toBe(false);
    expect(isQuietRequest({ ...session, method: 'POST' }, 201)).toBe(false);
    expect(isQuietRequest({ ...session, bearer: true }, 200)).toBe(false);
    expect(isQuietRequest({ ...session, principal: undefined }, 200)).toBe(false);
    expect(isQuietRequest({ method: 'GET', path: '/v1/payments/pay_1', bearer: false, principal: 'mer_1' }, 200)).toBe(false);
  });
});

describe('errorCodeOf', () => {
  it("reads the envelope's error code from the body sent, as a string or a buffer", () => {
    const body = JSON.stringify({ success: false, error: { code: 'NOT_FOUND', message: 'No such payment.' }, request_id: 'r', provider: 'sandbox' });
    expect(errorCodeOf(body)).toBe('NOT_FOUND');
    expect(errorCodeOf(Buffer.from(body))).toBe('NOT_FOUND');
  });

  it('reads nothing from a body that is not an error envelope', () => {
    expect(errorCodeOf('<html>Not found</html>')).toBeUndefined();
    expect(errorCodeOf(JSON.stringify({ code: 'NOT_FOUND' }))).toBeUndefined();
    expect(errorCodeOf(undefined)).toBeUndefined();
    expect(errorCodeOf({ error: { code: 'X' } })).toBeUndefined();
  });
});
