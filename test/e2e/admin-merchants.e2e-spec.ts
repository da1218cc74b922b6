import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../src/common/crypto/secret-box';
import type { components } from '../../web/src/api-types';
import { http, HttpResult } from '../helpers/http';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';

const MERCHANT_FIELDS = [
  'active',
  'brand_color',
  'created_at',
  'display_name',
  'has_webhook_signing_secret',
  'id',
  'name',
  'provider',
  'provider_accounts',
  'refund_after_close',
  'updated_at',
  'webhook_url',
];

/** Admin requests the typed client would not make: bodies and queries the API refuses, another token. */
function rawAdmin(t: () => TestApp) {
  return (method: string, path: string, body?: unknown, token = TEST_ADMIN_TOKEN): Promise<HttpResult> =>
    http(t().url, method, `/admin/api${path}`, { body, headers: { authorization: `Bearer ${token}` } });
}

/** Reads a payment on the merchant API: 200 when the key is accepted, 401 when it is not. */
function readPayment(t: TestApp, paymentId: string, key?: string): Promise<HttpResult> {
  return http(t.url, 'GET', `/v1/payments/${paymentId}`, { headers: key === undefined ? {} : { 'x-merchant-key': key } });
}

const fieldsOf = (res: Pick<HttpResult, 'body'>): string[] => res.body.error.details.fields.map((f: { field: string }) => f.field).sort();
const tag = () => `t${randomBytes(4).toString('hex')}`;

describe('admin API: merchants and keys (HTTP)', () => {
  let t: TestApp;
  const admin = rawAdmin(() => t);
  const merchantPath = (id: string) => ({ params: { path: { id } } });
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  async function createMerchant(body: Partial<components['schemas']['CreateMerchantDto']> = {}) {
    const res = await t.admin.POST('/admin/api/merchants', { body: { name: `Loja ${tag()}`, ...body } });
    expect(res.status).toBe(201);
    return res.data!;
  }

  async function issueKey(merchantId: string): Promise<{ id: string; key: string }> {
    const res = await t.admin.POST('/admin/api/merchants/{id}/api-keys', merchantPath(merchantId));
    expect(res.status).toBe(201);
    return res.data!;
  }
  const getMerchant = (id: string) => t.admin.GET('/admin/api/merchants/{id}', merchantPath(id));
  const listMerchants = (query: { q?: string; limit?: number; cursor?: string }) => t.admin.GET('/admin/api/merchants', { params: { query } });
  const patchMerchant = (id: string, body: components['schemas']['UpdateMerchantDto']) => t.admin.PATCH('/admin/api/merchants/{id}', { ...merchantPath(id), body });
  const listKeys = (id: string) => t.admin.GET('/admin/api/merchants/{id}/api-keys', merchantPath(id));
  const revokeKey = (id: string, keyId: string) => t.admin.DELETE('/admin/api/merchants/{id}/api-keys/{keyId}', { params: { path: { id, keyId } } });

  describe('authentication', () => {
    const routes: [string, string][] = [
      ['POST', '/merchants'],
      ['GET', '/merchants'],
      ['GET', '/merchants/mer_000000000000000000000000'],
      ['PATCH', '/merchants/mer_000000000000000000000000'],
      ['POST', '/merchants/mer_000000000000000000000000/api-keys'],
      ['GET', '/merchants/mer_000000000000000000000000/api-keys'],
      ['DELETE', '/merchants/mer_000000000000000000000000/api-keys/key_000000000000000000000000'],
    ];

    it.each(routes)('%s %s without a bearer token is 401 UNAUTHORIZED', async (method, path) => {
      const res = await http(t.url, method, `/admin/api${path}`, { body: method === 'POST' || method === 'PATCH' ? { name: 'x' } : undefined });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } });
    });

    it.each(routes)('%s %s with a wrong bearer token is 401 UNAUTHORIZED', async (method, path) => {
      const res = await admin(method, path, method === 'POST' || method === 'PATCH' ? { name: 'x' } : undefined, `${TEST_ADMIN_TOKEN}x`);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHORIZED');
    });

    it('does not accept a merchant key in place of the admin token', async () => {
      const merchant = await createMerchant();
      const { key } = await issueKey(merchant.id);
      const res = await http(t.url, 'GET', '/admin/api/merchants', { headers: { 'x-merchant-key': key } });
      expect(res.status).toBe(401);
    });
  });

  describe('create', () => {
    it('creates a merchant with defaults and exactly the documented fields', async () => {
      const res = await t.admin.POST('/admin/api/merchants', { body: { name: '  Loja da Ana  ' } });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ success: true, provider: 'sandbox' });
      expect(res.headers.get('x-request-id')).toBe(res.body.request_id);
      const merchant = res.data!;
      expect(Object.keys(merchant).sort()).toEqual(MERCHANT_FIELDS);
      expect(merchant).toMatchObject({
        name: 'Loja da Ana',
        display_name: null,
        brand_color: null,
        active: true,
        webhook_url: null,
        has_webhook_signing_secret: false,
        provider: null,
      });
      expect(merchant.id).toMatch(/^mer_[A-Za-z0-9]{24}$/);
      expect(new Date(merchant.created_at).toISOString()).toBe(merchant.created_at);
    });

    it('stores every given field; a development gateway accepts a loopback http webhook URL', async () => {
      const merchant = await createMerchant({ webhook_url: 'http://127.0.0.1:4000/hooks', provider: 'sandbox', active: false });
      expect(merchant).toMatchObject({ webhook_url: 'http://127.0.0.1:4000/hooks', provider: 'sandbox', active: false });
      const read = await getMerchant(merchant.id);
      expect(read.data).toEqual(merchant);
    });

    it('stores the display name trimmed and the brand colour in lower case', async () => {
      const merchant = await createMerchant({ display_name: '  Ana Doces  ', brand_color: '#0B6E4F' });
      expect(merchant).toMatchObject({ display_name: 'Ana Doces', brand_color: '#0b6e4f' });
      expect((await getMerchant(merchant.id)).data).toEqual(merchant);
      const [row] = await t.dataSource.query('SELECT display_name, brand_color FROM merchants WHERE id = $1', [merchant.id]);
      expect(row).toEqual({ display_name: 'Ana Doces', brand_color: '#0b6e4f' });
    });

    it('generates a whsec_ signing secret, returns it once, and keeps it encrypted at rest', async () => {
      const created = await createMerchant({ webhook_signing_secret: 'generate' });
      const secret = created.webhook_signing_secret!;
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(created.has_webhook_signing_secret).toBe(true);

      const read = await getMerchant(created.id);
      expect(read.data!.has_webhook_signing_secret).toBe(true);
      expect(read.text).not.toContain(secret.slice(6));
      const listed = await listMerchants({ q: created.id });
      expect(listed.text).not.toContain(secret.slice(6));
      expect(listed.data!.items[0]).not.toHaveProperty('webhook_signing_secret');

      const [row] = await t.dataSource.query('SELECT webhook_signing_secret_enc AS enc FROM merchants WHERE id = $1', [created.id]);
      expect(row.enc).not.toContain(secret.slice(6));
      expect(t.app.get(SecretBox).open(row.enc)).toBe(secret);
    });

    it("stores a secret of the merchant's own encrypted and never returns it", async () => {
      const secret = 'my-own-signing-secret-0123456789';
      const res = await t.admin.POST('/admin/api/merchants', { body: { name: 'Own secret', webhook_signing_secret: secret } });
      expect(res.status).toBe(201);
      expect(res.text).not.toContain(secret);
      expect(res.data!.has_webhook_signing_secret).toBe(true);
      const [row] = await t.dataSource.query('SELECT webhook_signing_secret_enc AS enc FROM merchants WHERE id = $1', [res.data!.id]);
      expect(row.enc).not.toContain(secret);
      expect(t.app.get(SecretBox).open(row.enc)).toBe(secret);
    });

    it('refuses unknown fields, naming them', async () => {
      const res = await admin('POST', '/merchants', { name: 'X', webhook_signing_secret_enc: 'v1.a.b.c', id: 'mer_x' });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(res)).toEqual(['id', 'webhook_signing_secret_enc']);
    });

    it('reports one clear message per bad field, all at once', async () => {
      const res = await admin('POST', '/merchants', { active: 'yes', webhook_url: 42, provider: 7 });
      expect(res.status).toBe(400);
      expect(res.body.error.details.fields).toEqual(
        expect.arrayContaining([
          { field: 'name', message: 'name is required' },
          { field: 'active', message: 'active must be true or false' },
          { field: 'webhook_url', message: 'webhook_url must be a string or null' },
          { field: 'provider', message: 'provider must be a string or null' },
        ]),
      );
      expect(res.body.error.details.fields).toHaveLength(4);
    });

    it.each([
      [{ name: '' }, 'name', 'name must be 1 to 200 characters'],
      [{ name: '   ' }, 'name', 'name must be 1 to 200 characters'],
      [{ name: 'x'.repeat(201) }, 'name', 'name must be 1 to 200 characters'],
      [{ name: null }, 'name', 'name is required'],
      [{ name: 'X', active: null }, 'active', 'active must be true or false'],
      [{ name: 'X', webhook_url: 'ftp://example.com/h' }, 'webhook_url', 'webhook_url must use https (or http in development)'],
      [{ name: 'X', webhook_url: 'https://user:pw@example.com/h' }, 'webhook_url', 'webhook_url must not contain a user name or password'],
      [{ name: 'X', webhook_url: 'not a url' }, 'webhook_url', 'webhook_url must not contain spaces or control characters'],
      [{ name: 'X', webhook_signing_secret: 'short' }, 'webhook_signing_secret', 'webhook_signing_secret must be "generate", null, or 16 to 256 characters'],
      [{ name: 'X', webhook_signing_secret: 'whsec_!!!' }, 'webhook_signing_secret', 'a whsec_ secret must be whsec_ followed by standard, padded base64'],
      [{ name: 'X', provider: 'stripe' }, 'provider', 'provider must be one of: sandbox (or null for the default)'],
      [{ name: 'X', display_name: '' }, 'display_name', 'display_name must be 1 to 80 characters'],
      [{ name: 'X', display_name: '   ' }, 'display_name', 'display_name must be 1 to 80 characters'],
      [{ name: 'X', display_name: 'x'.repeat(81) }, 'display_name', 'display_name must be 1 to 80 characters'],
      [{ name: 'X', display_name: 'Loja\u0085Ana' }, 'display_name', 'display_name must not contain control characters'],
      [{ name: 'X', display_name: 7 }, 'display_name', 'display_name must be a string or null'],
      [{ name: 'X', brand_color: 'green' }, 'brand_color', 'brand_color must be a colour as #RRGGBB, or null'],
      [{ name: 'X', brand_color: '#0b6e4' }, 'brand_color', 'brand_color must be a colour as #RRGGBB, or null'],
      [{ name: 'X', brand_color: '#0b6e4fff' }, 'brand_color', 'brand_color must be a colour as #RRGGBB, or null'],
      [{ name: 'X', brand_color: ' #0b6e4f' }, 'brand_color', 'brand_color must be a colour as #RRGGBB, or null'],
    ])('refuses %j', async (body, field, message) => {
      const res = await admin('POST', '/merchants', body);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [{ field, message }] } });
    });

    it('refuses a body that is not a JSON object', async () => {
      const res = await http(t.url, 'POST', '/admin/api/merchants', {
        rawBody: '[1]',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('read and list', () => {
    it('reads one merchant; unknown and malformed ids are 404 NOT_FOUND', async () => {
      const merchant = await createMerchant();
      expect((await getMerchant(merchant.id)).data).toEqual(merchant);
      // openapi-fetch percent-encodes path parameters (encodeURIComponent), as the request did by hand.
      for (const id of ['mer_000000000000000000000000', 'nope', 'pay_000000000000000000000000', "mer_'; DROP TABLE merchants; --"]) {
        const res = await getMerchant(id);
        expect(res.status).toBe(404);
        expect(res.error?.code).toBe('NOT_FOUND');
      }
    });

    it('lists newest first and searches names case-insensitively, wildcards taken literally', async () => {
      const run = tag();
      const first = await createMerchant({ name: `Padaria ${run} 100%` });
      const second = await createMerchant({ name: `PADARIA ${run} Centro` });
      await createMerchant({ name: `Mercado ${run}` });
      const res = await listMerchants({ q: `padaria ${run}` });
      expect(res.status).toBe(200);
      expect(res.data!.items.map((m) => m.id)).toEqual([second.id, first.id]);
      expect(res.data!.next_cursor).toBeNull();
      const literal = await listMerchants({ q: `${run} 100%` });
      expect(literal.data!.items.map((m) => m.id)).toEqual([first.id]);
      expect((await listMerchants({ q: `${run}_` })).data!.items).toEqual([]);
    });

    it('finds a merchant by its exact id', async () => {
      const merchant = await createMerchant();
      expect((await listMerchants({ q: merchant.id })).data!.items).toEqual([merchant]);
    });

    it('pages with limit and cursor through every merchant exactly once', async () => {
      const run = tag();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.unshift((await createMerchant({ name: `Paged ${run} ${i}` })).id);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const res = await listMerchants({ q: run, limit: 2, cursor });
        expect(res.status).toBe(200);
        seen.push(...res.data!.items.map((m) => m.id));
        cursor = res.data!.next_cursor ?? undefined;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual(ids);
    });

    it('does not skip merchants created within the same millisecond (cursor keeps microseconds)', async () => {
      const run = tag();
      const ids = ['mer_' + 'A'.repeat(20) + run.slice(1, 5), 'mer_' + 'B'.repeat(20) + run.slice(1, 5), 'mer_' + 'C'.repeat(20) + run.slice(1, 5)];
      // Same millisecond, different microseconds; the ids sort against the timestamps.
      const stamps = ['2020-01-01 00:00:00.000300+00', '2020-01-01 00:00:00.000200+00', '2020-01-01 00:00:00.000100+00'];
      for (let i = 0; i < 3; i++) {
        await t.dataSource.query('INSERT INTO merchants (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)', [ids[i], `Burst ${run}`, stamps[i]]);
      }
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const res = await listMerchants({ q: run, limit: 1, cursor });
        seen.push(...res.data!.items.map((m) => m.id));
        cursor = res.data!.next_cursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(ids);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=abc', 'limit'],
      ['cursor=bm90LWEtY3Vyc29y', 'cursor'],
      ['cursor=has%20space', 'cursor'],
      ['sort=name', 'sort'],
      ['q=a&q=b', 'q'],
    ])('refuses ?%s', async (query, field) => {
      const res = await admin('GET', `/merchants?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(res)).toEqual([field]);
    });
  });

  describe('update', () => {
    it('changes only the fields sent and moves updated_at', async () => {
      const merchant = await createMerchant({ webhook_url: 'http://localhost:9999/a' });
      const res = await patchMerchant(merchant.id, { name: 'Renamed', provider: 'sandbox' });
      expect(res.status).toBe(200);
      const updated = res.data!;
      expect(updated).toMatchObject({
        id: merchant.id,
        name: 'Renamed',
        provider: 'sandbox',
        webhook_url: 'http://localhost:9999/a',
        active: true,
        created_at: merchant.created_at,
      });
      expect(Object.keys(updated).sort()).toEqual(MERCHANT_FIELDS);
      expect(new Date(updated.updated_at).getTime()).toBeGreaterThan(new Date(merchant.updated_at).getTime());
      expect((await getMerchant(merchant.id)).data).toEqual(updated);
    });

    it('sets, changes and removes (null) the display name and brand colour; the name stays', async () => {
      const merchant = await createMerchant();
      const set = await patchMerchant(merchant.id, { display_name: 'Ana Doces', brand_color: '#1D4ED8' });
      expect(set.data).toMatchObject({ name: merchant.name, display_name: 'Ana Doces', brand_color: '#1d4ed8' });
      const colourOnly = await patchMerchant(merchant.id, { brand_color: '#0b6e4f' });
      expect(colourOnly.data).toMatchObject({ display_name: 'Ana Doces', brand_color: '#0b6e4f' });
      const cleared = await patchMerchant(merchant.id, { display_name: null, brand_color: null });
      expect(cleared.data).toMatchObject({ name: merchant.name, display_name: null, brand_color: null });
      expect((await getMerchant(merchant.id)).data).toEqual(cleared.data);
    });

    it('clears the webhook URL and the provider with null', async () => {
      const merchant = await createMerchant({ webhook_url: 'http://localhost:9999/a', provider: 'sandbox' });
      const res = await patchMerchant(merchant.id, { webhook_url: null, provider: null });
      expect(res.data).toMatchObject({ webhook_url: null, provider: null });
    });

    it('replaces the secret with "generate" (shown once), sets one given, and removes it with null', async () => {
      const merchant = await createMerchant();
      const generated = await patchMerchant(merchant.id, { webhook_signing_secret: 'generate' });
      expect(generated.data!.webhook_signing_secret).toMatch(/^whsec_/);
      expect(generated.data!.has_webhook_signing_secret).toBe(true);

      const given = await patchMerchant(merchant.id, { webhook_signing_secret: 'another-secret-of-my-own' });
      expect(given.data).not.toHaveProperty('webhook_signing_secret');
      const [row] = await t.dataSource.query('SELECT webhook_signing_secret_enc AS enc FROM merchants WHERE id = $1', [merchant.id]);
      expect(t.app.get(SecretBox).open(row.enc)).toBe('another-secret-of-my-own');

      const removed = await patchMerchant(merchant.id, { webhook_signing_secret: null });
      expect(removed.data!.has_webhook_signing_secret).toBe(false);
      const [after] = await t.dataSource.query('SELECT webhook_signing_secret_enc AS enc FROM merchants WHERE id = $1', [merchant.id]);
      expect(after.enc).toBeNull();
    });

    it('answers an empty patch with the merchant unchanged', async () => {
      const merchant = await createMerchant();
      const res = await patchMerchant(merchant.id, {});
      expect(res.status).toBe(200);
      expect(res.data).toEqual(merchant);
    });

    it.each([
      [{ name: null }, 'name'],
      [{ active: null }, 'active'],
      [{ active: 'false' }, 'active'],
      [{ webhook_url: 'gopher://127.0.0.1:6379/' }, 'webhook_url'],
      [{ provider: 'nope' }, 'provider'],
      [{ webhook_signing_secret: 'too-short' }, 'webhook_signing_secret'],
      [{ created_at: '2020-01-01T00:00:00Z' }, 'created_at'],
      [{ display_name: '' }, 'display_name'],
      [{ brand_color: 'rgb(0,0,0)' }, 'brand_color'],
    ])('refuses %j without changing anything', async (body, field) => {
      const merchant = await createMerchant();
      const res = await admin('PATCH', `/merchants/${merchant.id}`, body);
      expect(res.status).toBe(400);
      expect(fieldsOf(res)).toEqual([field]);
      expect((await getMerchant(merchant.id)).data).toEqual(merchant);
    });

    it('is 404 for unknown and malformed ids', async () => {
      for (const id of ['mer_000000000000000000000000', 'x']) {
        const res = await patchMerchant(id, { name: 'Y' });
        expect(res.status).toBe(404);
        expect(res.error?.code).toBe('NOT_FOUND');
      }
    });
  });

  describe('API keys', () => {
    /** A merchant with one payment of its own, to read with the keys under test. */
    async function merchantWithPayment() {
      const merchant = await createMerchant();
      const payment = await t.newPayment(merchant.id);
      return { merchant, paymentId: payment.id };
    }

    async function expectAccepted(paymentId: string, key: string) {
      const res = await readPayment(t, paymentId, key);
      expect(res.status).toBe(200);
      expect(res.body.data.id).toBe(paymentId);
    }

    async function expectRefused(paymentId: string, key: string | undefined, code: string) {
      const res = await readPayment(t, paymentId, key);
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe(code);
    }

    it('issues a key shown once, which then works on merchant routes', async () => {
      const { merchant, paymentId } = await merchantWithPayment();
      const res = await t.admin.POST('/admin/api/merchants/{id}/api-keys', merchantPath(merchant.id));
      expect(res.status).toBe(201);
      const issued = res.data!;
      expect(Object.keys(issued).sort()).toEqual(['created_at', 'id', 'key', 'prefix']);
      expect(issued.key).toMatch(/^mk_live_[0-9A-Za-z]{32}$/);
      expect(issued.prefix).toBe(issued.key.slice(0, 12));
      expect(issued.id).toMatch(/^key_[A-Za-z0-9]{24}$/);
      await expectAccepted(paymentId, issued.key);

      const listed = await listKeys(merchant.id);
      expect(listed.data).toEqual([{ id: issued.id, prefix: issued.prefix, created_at: issued.created_at, last_used_at: expect.any(String), revoked_at: null }]);
      expect(listed.text).not.toContain(issued.key);
    });

    it('lets a merchant hold several keys; revoking one stops it at once and leaves the others working', async () => {
      const { merchant, paymentId } = await merchantWithPayment();
      const first = await issueKey(merchant.id);
      const second = await issueKey(merchant.id);
      await expectAccepted(paymentId, first.key);
      await expectAccepted(paymentId, second.key);

      const revoked = await revokeKey(merchant.id, first.id);
      expect(revoked.status).toBe(200);
      expect(revoked.data).toMatchObject({ id: first.id, prefix: first.key.slice(0, 12) });
      expect(revoked.data!.revoked_at).not.toBeNull();
      expect(revoked.text).not.toContain(first.key);

      await expectRefused(paymentId, first.key, 'INVALID_MERCHANT_KEY');
      await expectAccepted(paymentId, second.key);
      const listed = await listKeys(merchant.id);
      expect(listed.data!.map((k) => [k.id, k.revoked_at !== null])).toEqual([
        [second.id, false],
        [first.id, true],
      ]);
    });

    it("answers 404 NOT_FOUND for revoking twice, an unknown key, another merchant's key or a malformed id", async () => {
      const { merchant } = await merchantWithPayment();
      const other = await merchantWithPayment();
      const key = await issueKey(merchant.id);
      const othersKey = await issueKey(other.merchant.id);
      expect((await revokeKey(merchant.id, key.id)).status).toBe(200);
      for (const [id, keyId] of [
        [merchant.id, key.id],
        [merchant.id, 'key_000000000000000000000000'],
        [merchant.id, othersKey.id],
        [merchant.id, 'nope'],
        ['nope', othersKey.id],
      ] as const) {
        const res = await revokeKey(id, keyId);
        expect(res.status).toBe(404);
        expect(res.error?.code).toBe('NOT_FOUND');
      }
      await expectAccepted(other.paymentId, othersKey.key);
    });

    it('is 404 NOT_FOUND to issue or list keys of an unknown merchant, and lists none for a new one', async () => {
      for (const id of ['mer_000000000000000000000000', 'bad']) {
        expect((await t.admin.POST('/admin/api/merchants/{id}/api-keys', merchantPath(id))).status).toBe(404);
        expect((await listKeys(id)).status).toBe(404);
      }
      const merchant = await createMerchant();
      expect((await listKeys(merchant.id)).data).toEqual([]);
    });

    it('refuses the keys of an inactive merchant at once, and accepts them again when reactivated', async () => {
      const { merchant, paymentId } = await merchantWithPayment();
      const { key } = await issueKey(merchant.id);
      await patchMerchant(merchant.id, { active: false });
      await expectRefused(paymentId, key, 'INVALID_MERCHANT_KEY');
      await patchMerchant(merchant.id, { active: true });
      await expectAccepted(paymentId, key);
    });

    it('answers MISSING_MERCHANT_KEY without the header and INVALID_MERCHANT_KEY for a made-up key', async () => {
      const { paymentId } = await merchantWithPayment();
      await expectRefused(paymentId, undefined, 'MISSING_MERCHANT_KEY');
      await expectRefused(paymentId, `mk_live_${'A'.repeat(32)}`, 'INVALID_MERCHANT_KEY');
    });
  });
});
