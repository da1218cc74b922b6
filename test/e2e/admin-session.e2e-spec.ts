import { createHash } from 'node:crypto';
import { newId } from '../../src/common/ids';
import { http, HttpResult } from '../helpers/http';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';

const EMAIL = 'admin@example.com';
const PASSWORD = 'correct horse battery staple';

/** The `name=value` of the session cookie a response sets, and the cookie's attributes. */
function sessionCookieOf(res: HttpResult): { pair: string; attributes: string } {
  const header = res.headers.getSetCookie().find((cookie) => cookie.startsWith('gw_admin_session='));
  if (!header) throw new Error(`no session cookie in ${res.status} ${res.text}`);
  const [pair, ...attributes] = header.split(';').map((part) => part.trim());
  return { pair: pair!, attributes: attributes.join('; ') };
}

/** Dashboard sessions over HTTP: sign-in, the cookie, CSRF, expiry, sign-out, throttling. */
describe('admin session API', () => {
  let t: TestApp;
  beforeAll(async () => {
    // One proxy hop trusted, so a test can sign in from an address of its own with X-Forwarded-For.
    t = await startTestApp({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(() => t.close());

  async function signIn(): Promise<{ cookie: string; csrf: string; res: HttpResult }> {
    const res = await http(t.url, 'POST', '/admin/api/session', { body: { email: EMAIL, password: PASSWORD } });
    expect(res.status).toBe(201);
    return { cookie: sessionCookieOf(res).pair, csrf: res.body.data.csrf_token, res };
  }

  it('refuses a wrong password or email with 401 in words, and sets no cookie', async () => {
    for (const body of [
      { email: EMAIL, password: 'wrong' },
      { email: 'someone@example.com', password: PASSWORD },
    ]) {
      const res = await http(t.url, 'POST', '/admin/api/session', { body });
      expect(res.status).toBe(401);
      expect(res.body.error).toEqual({ code: 'UNAUTHORIZED', message: 'The email or password is wrong.' });
      expect(res.headers.getSetCookie()).toEqual([]);
    }
  });

  it('validates the body before checking anything', async () => {
    const res = await http(t.url, 'POST', '/admin/api/session', { body: { email: EMAIL } });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields).toEqual([{ field: 'password', message: expect.stringMatching(/password/) }]);
  });

  it('signs in with the configured email (any case) and sets an httpOnly, SameSite=Strict cookie scoped to /admin', async () => {
    const res = await http(t.url, 'POST', '/admin/api/session', { body: { email: ' Admin@Example.COM ', password: PASSWORD } });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      email: EMAIL,
      csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      created_at: expect.any(String),
      idle_expires_at: expect.any(String),
      expires_at: expect.any(String),
    });
    const { attributes } = sessionCookieOf(res);
    expect(attributes).toMatch(/HttpOnly/);
    expect(attributes).toMatch(/SameSite=Strict/);
    expect(attributes).toMatch(/Path=\/admin(;|$)/);
    expect(attributes).toMatch(/Max-Age=86400/);
    expect(attributes).not.toMatch(/Secure/); // Secure only under NODE_ENV=production
    const hours = (Date.parse(res.body.data.idle_expires_at) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(7.9);
    expect(hours).toBeLessThanOrEqual(8);
  });

  it('stores only the SHA-256 of the cookie value', async () => {
    const { cookie } = await signIn();
    const token = cookie.split('=')[1]!;
    const rows = await t.dataSource.query(`SELECT token_hash, row_to_json(s)::text AS everything FROM admin_sessions s WHERE token_hash = $1`, [
      createHash('sha256').update(token).digest(),
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].everything).not.toContain(token);
  });

  it('GET /admin/api/session tells who is signed in and the CSRF token; 401 without a session', async () => {
    const { cookie, csrf } = await signIn();
    const me = await http(t.url, 'GET', '/admin/api/session', { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ email: EMAIL, csrf_token: csrf });
    const anonymous = await http(t.url, 'GET', '/admin/api/session');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('UNAUTHORIZED');
    const forged = await http(t.url, 'GET', '/admin/api/session', { headers: { cookie: `gw_admin_session=${'A'.repeat(43)}` } });
    expect(forged.status).toBe(401);
  });

  it('lets the session read the admin API, like the bearer token', async () => {
    const { cookie } = await signIn();
    expect((await http(t.url, 'GET', '/admin/api/stats', { headers: { cookie } })).status).toBe(200);
    expect((await http(t.url, 'GET', '/admin/api/stats', { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).status).toBe(200);
    expect((await http(t.url, 'GET', '/admin/api/stats')).status).toBe(401);
  });

  it('refuses a state-changing call made with the cookie but without the right X-CSRF-Token (403), and changes nothing', async () => {
    const { cookie, csrf } = await signIn();
    const missing = await http(t.url, 'DELETE', '/admin/api/session', { headers: { cookie } });
    expect(missing.status).toBe(403);
    expect(missing.body.error.code).toBe('FORBIDDEN');
    expect(missing.body.error.message).toMatch(/X-CSRF-Token/);
    const wrong = await http(t.url, 'DELETE', '/admin/api/session', { headers: { cookie, 'x-csrf-token': csrf.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) } });
    expect(wrong.status).toBe(403);
    const other = await signIn();
    const crossed = await http(t.url, 'DELETE', '/admin/api/session', { headers: { cookie, 'x-csrf-token': other.csrf } });
    expect(crossed.status).toBe(403);
    expect((await http(t.url, 'GET', '/admin/api/session', { headers: { cookie } })).status).toBe(200);
  });

  it('signs out: the session ends at once and the cookie is cleared', async () => {
    const { cookie, csrf } = await signIn();
    const res = await http(t.url, 'DELETE', '/admin/api/session', { headers: { cookie, 'x-csrf-token': csrf } });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ signed_out: true });
    const cleared = res.headers.getSetCookie().find((c) => c.startsWith('gw_admin_session='));
    expect(cleared).toMatch(/^gw_admin_session=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect((await http(t.url, 'GET', '/admin/api/session', { headers: { cookie } })).status).toBe(401);
    expect((await http(t.url, 'GET', '/admin/api/stats', { headers: { cookie } })).status).toBe(401);
  });

  it('ends a session that sat idle past its idle expiry, or outlived its absolute expiry', async () => {
    const idle = await signIn();
    const old = await signIn();
    const hash = (cookie: string) => createHash('sha256').update(cookie.split('=')[1]!).digest();
    await t.dataSource.query(`UPDATE admin_sessions SET idle_expires_at = now() - interval '1 second' WHERE token_hash = $1`, [hash(idle.cookie)]);
    await t.dataSource.query(`UPDATE admin_sessions SET expires_at = now() - interval '1 second' WHERE token_hash = $1`, [hash(old.cookie)]);
    for (const { cookie } of [idle, old]) {
      const res = await http(t.url, 'GET', '/admin/api/session', { headers: { cookie } });
      expect(res.status).toBe(401);
      expect(res.body.error.message).toMatch(/expired/);
      expect((await http(t.url, 'GET', '/admin/api/stats', { headers: { cookie } })).status).toBe(401);
    }
  });

  it('pushes the idle expiry forward when the session is used, never past the absolute expiry', async () => {
    const { cookie } = await signIn();
    const hash = createHash('sha256').update(cookie.split('=')[1]!).digest();
    await t.dataSource.query(
      `UPDATE admin_sessions SET last_seen_at = now() - interval '2 hours', idle_expires_at = now() + interval '6 hours', expires_at = now() + interval '7 hours' WHERE token_hash = $1`,
      [hash],
    );
    const res = await http(t.url, 'GET', '/admin/api/session', { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(res.body.data.idle_expires_at).toBe(res.body.data.expires_at);
  });

  describe('the page at /admin', () => {
    it('answers every /admin path with the dashboard page, under a strict Content-Security-Policy', async () => {
      for (const path of ['/admin', '/admin/', '/admin/payments/pay_123?status=paid']) {
        const res = await http(t.url, 'GET', path);
        // 503 with an explanation when dist/web has not been built (npm install builds it).
        expect([200, 503]).toContain(res.status);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(res.headers.get('content-security-policy')).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
        expect(res.headers.get('x-frame-options')).toBe('DENY');
      }
    });

    it('never lets the page shadow the API: an unknown /admin/api path is the 404 envelope', async () => {
      for (const path of ['/admin/api/nope', '/admin/api/merchants/mer_x/nothing', '/admin/api']) {
        const res = await http(t.url, 'GET', path);
        expect(res.status).toBe(404);
        expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
      }
    });
  });

  describe('GET /admin/api/stats', () => {
    it('counts payments and paid volume today and over 7 days, statuses, failed deliveries and the provider error rate', async () => {
      const shop = await t.newMerchant();
      const now = Date.now();
      const todayStart = new Date(now - 3_600_000);
      const at = (ms: number) => new Date(ms);
      const paidNow = await t.newPayment(shop.merchant.id, { status: 'paid', amountCents: 1050, paidAt: at(now) });
      await t.newPayment(shop.merchant.id);
      const earlier = await t.newPayment(shop.merchant.id, { status: 'paid', amountCents: 2000 });
      const old = await t.newPayment(shop.merchant.id, { status: 'paid', amountCents: 9900 });
      const threeDaysAgo = at(now - 3_600_000 - 2.5 * 86_400_000);
      await t.dataSource.query(`UPDATE payments SET created_at = $2, paid_at = $2 WHERE id = $1`, [earlier.id, threeDaysAgo]);
      await t.dataSource.query(`UPDATE payments SET created_at = $2, paid_at = $2 WHERE id = $1`, [old.id, at(now - 10 * 86_400_000)]);

      const eventId = newId('evt');
      await t.dataSource.query(
        `INSERT INTO payment_events (id, provider, provider_event_id, type, source, payment_id, merchant_id, outcome, forward, request_id, payload)
         VALUES ($1, 'sandbox', $1, 'payment.confirmed', 'webhook', $2, $3, 'applied', 'queued', 'r', '{}')`,
        [eventId, paidNow.id, shop.merchant.id],
      );
      await t.dataSource.query(
        `INSERT INTO webhook_deliveries (id, event_id, merchant_id, payment_id, event_type, request_id, body, status, attempts)
         VALUES ($1, $2, $3, $4, 'payment.confirmed', 'r', '{}', 'failed', 8)`,
        [newId('dlv'), eventId, shop.merchant.id, paidNow.id],
      );
      for (const [key, state, attempt] of [
        ['k-failed-twice', 'retryable', 2],
        ['k-ok-first-time', 'completed', 1],
      ] as const) {
        await t.dataSource.query(
          `INSERT INTO idempotency_records (merchant_id, key, request_hash, request_path, state, attempt, payment_id, txid, expires_at)
           VALUES ($1, $2, 'h', '/v1/payments/create', $3, $4, $5, 'tx', now() + interval '1 day')`,
          [shop.merchant.id, key, state, attempt, newId('pay')],
        );
      }

      const res = await http(t.url, 'GET', `/admin/api/stats?day_start=${todayStart.toISOString()}`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      expect(res.status).toBe(200);
      const stats = res.body.data;
      expect(stats.today_start).toBe(todayStart.toISOString());
      expect(stats.today).toEqual({ payments: 2, paid_count: 1, paid_volume: 10.5 });
      expect(stats.last_7_days).toEqual({ payments: 3, paid_count: 2, paid_volume: 30.5 });
      expect(stats.daily).toHaveLength(7);
      expect(stats.daily[3]).toEqual({ day_start: new Date(todayStart.getTime() - 3 * 86_400_000).toISOString(), payments: 1, paid_count: 1, paid_volume: 20 });
      expect(stats.daily[6]).toMatchObject({ payments: 2, paid_volume: 10.5 });
      expect(stats.by_status).toEqual({ pending: 1, paid: 2, expired: 0, cancelled: 0, failed: 0, partially_refunded: 0, refunded: 0 });
      expect(stats.deliveries).toEqual({ failed: 1, pending: 0 });
      expect(stats.providers).toEqual([{ provider: 'sandbox', payments: 2, failed_attempts: 2, error_rate: 0.5 }]);
    });

    it('refuses a day_start that is not a date', async () => {
      const res = await http(t.url, 'GET', '/admin/api/stats?day_start=yesterday', { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      expect(res.status).toBe(400);
      expect(res.body.error.details.fields[0].field).toBe('day_start');
    });
  });

  // Last: it leaves the account backing off for a while.
  it('slows repeated failures down: after 10 failures from one address further tries are refused with 429 and Retry-After, even with the right password', async () => {
    const headers = { 'x-forwarded-for': '198.51.100.7' };
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await http(t.url, 'POST', '/admin/api/session', { headers, body: { email: EMAIL, password: `guess-${i}` } })).status);
    expect(statuses).toEqual(Array(10).fill(401));
    const blocked = await http(t.url, 'POST', '/admin/api/session', { headers, body: { email: EMAIL, password: PASSWORD } });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.code).toBe('RATE_LIMITED');
    expect(blocked.body.error.message).toMatch(/Too many failed authentication attempts from this address\. Try again in \d+ seconds?\./);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
