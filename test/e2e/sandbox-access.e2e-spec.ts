import { paymentBody, type MerchantFixture, sandboxChargeBody } from '../helpers/factories';
import { http, type HttpResult } from '../helpers/http';
import { sandboxAuth, startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app';

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const SECRET = 'sandbox-webhook-secret-for-access-tests';

/** The sandbox's 401: its own error shape, JSON, saying what is missing. */
const UNAUTHORIZED_BODY = { error: { code: 'UNAUTHORIZED', message: expect.stringMatching(/credentials.*sandbox API token.*admin token.*dashboard session/) } };

/**
 * Who may use the simulated PSP under /sandbox: the sandbox adapter (its API token), the admin
 * token, or a dashboard session (with its CSRF token for changes). Nobody else, on any route but
 * /health. In production it is not there at all unless enabled (production.e2e-spec.ts,
 * sandbox-production.e2e-spec.ts).
 */
describe('sandbox PSP access', () => {
  let t: TestApp;
  let shop: MerchantFixture;
  let session: { cookie: string; csrf: string };
  /** A charge made by the adapter, for the routes that need one. */
  let chargeId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX_WEBHOOK_SECRET: SECRET } });
    shop = await t.newMerchant();
    const login = await http(t.url, 'POST', '/admin/api/session', { body: { email: 'admin@example.com', password: 'correct horse battery staple' } });
    expect(login.status).toBe(201);
    const cookie = login.headers
      .getSetCookie()
      .find((c) => c.startsWith('gw_admin_session='))!
      .split(';')[0]!;
    session = { cookie, csrf: login.body.data.csrf_token };
    const created = await t.merchant(shop.apiKey).POST('/v1/payments/create', { body: paymentBody() });
    expect(created.status).toBe(201);
    const [row] = await t.dataSource.query(`SELECT provider_payment_id FROM payments WHERE id = $1`, [created.data!.id]);
    chargeId = row.provider_payment_id;
  });
  afterAll(() => t?.close());

  interface Route {
    label: string;
    method: string;
    path: string;
    body?: unknown;
    headers?: Record<string, string>;
    status: number;
  }
  /** One request of every route class; `status` is what a caller with credentials gets. */
  const routes = (): Route[] => {
    const body = sandboxChargeBody({ notificationUrl: `${t.url}/webhooks/sandbox`, recipient: { document: '98765432100', name: 'Beatriz Payer' } });
    return [
      { label: 'create a charge (PSP API)', method: 'POST', path: '/sandbox/charges', body, headers: { 'idempotency-key': body.txid }, status: 201 },
      { label: 'read a charge (PSP API)', method: 'GET', path: `/sandbox/charges/${chargeId}`, status: 200 },
      { label: 'list every charge (control)', method: 'GET', path: '/sandbox/_control/charges', status: 200 },
      { label: 'simulate an event (control)', method: 'POST', path: `/sandbox/charges/${chargeId}/simulate`, body: { event: 'payment.failed', amount: '0.01' }, status: 202 },
      { label: 'inject failures (control)', method: 'POST', path: '/sandbox/_control/failures', body: { mode: 'http_500', operation: 'get' }, status: 204 },
      { label: 'clear failures (control)', method: 'DELETE', path: '/sandbox/_control/failures', status: 204 },
    ];
  };
  const call = (route: Route, headers: Record<string, string>): Promise<HttpResult> =>
    http(t.url, route.method, route.path, { body: route.body, headers: { ...route.headers, ...headers } });
  const clearFailures = () => http(t.url, 'DELETE', '/sandbox/_control/failures', { headers: ADMIN });

  it('answers 401 JSON to every route but /health without credentials, or with wrong ones, and changes nothing', async () => {
    const before = await http(t.url, 'GET', '/sandbox/_control/charges', { headers: ADMIN });
    for (const headers of [{}, { authorization: 'Bearer not-the-token-0123456789' }, { authorization: 'Basic YWRtaW46YWRtaW4=' }, { cookie: 'gw_admin_session=forged' }] as Record<
      string,
      string
    >[]) {
      for (const route of [...routes(), { label: 'an unknown route', method: 'GET', path: '/sandbox/nope', status: 404 }]) {
        const res = await call(route, headers);
        expect({ route: route.label, headers, status: res.status, type: res.headers.get('content-type'), body: res.body }).toEqual({
          route: route.label,
          headers,
          status: 401,
          type: expect.stringMatching(/^application\/json/),
          body: UNAUTHORIZED_BODY,
        });
        expect(res.text).not.toContain('98765432100');
        expect(res.text).not.toContain('12345678909');
      }
    }
    const after = await http(t.url, 'GET', '/sandbox/_control/charges', { headers: ADMIN });
    expect(after.body).toEqual(before.body);
    expect((await http(t.url, 'GET', `/sandbox/charges/${chargeId}`, { headers: ADMIN })).body.status).toBe('ATIVA');
    await expect(http(t.url, 'GET', '/sandbox/health')).resolves.toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  it.each([
    ['the admin token', () => ADMIN],
    ['the sandbox adapter token', () => sandboxAuth(t.config)],
    ['a dashboard session (cookie, and its CSRF token for changes)', () => ({ cookie: session.cookie, 'x-csrf-token': session.csrf })],
  ])('serves every route to %s', async (_label, headers) => {
    try {
      for (const route of routes()) {
        const res = await call(route, headers());
        expect({ route: route.label, status: res.status }).toEqual({ route: route.label, status: route.status });
      }
    } finally {
      await clearFailures();
    }
  });

  it('serves a dashboard session reads without CSRF, but refuses its changes without the CSRF token (403)', async () => {
    expect((await http(t.url, 'GET', '/sandbox/_control/charges', { headers: { cookie: session.cookie } })).status).toBe(200);
    const res = await http(t.url, 'POST', '/sandbox/_control/failures', { body: { mode: 'http_500' }, headers: { cookie: session.cookie } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: { code: 'FORBIDDEN', message: expect.stringContaining('X-CSRF-Token') } });
    const charges = await http(t.url, 'GET', `/sandbox/charges/${chargeId}`, { headers: ADMIN });
    expect(charges.status).toBe(200); // no failure was queued
  });

  it('the gateway reaches its sandbox with the adapter credentials: a payment is created and the dashboard simulates its payment', async () => {
    const created = await t.merchant(shop.apiKey).POST('/v1/payments/create', { body: paymentBody() });
    expect(created.status).toBe(201);
    // The dashboard's session and CSRF token, not the admin token: a raw request.
    const simulated = await http(t.url, 'POST', `/admin/api/payments/${created.data!.id}/simulate`, {
      body: { event: 'payment.confirmed' },
      headers: { cookie: session.cookie, 'x-csrf-token': session.csrf },
    });
    expect(simulated.status).toBe(200);
    expect(simulated.body.data).toMatchObject({ simulation: { delivered: true, status: 200 }, payment: { status: 'paid', can_simulate: true } });
  });
});
