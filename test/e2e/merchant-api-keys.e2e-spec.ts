import { FakeClock } from '../../src/testing/fake-clock';
import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';

/** A merchant reads its own key's last use (GET /v1/api-keys/current), and the admin keys list shows the same. */
describe('merchant API: the key in use (HTTP)', () => {
  let t: TestApp;
  // The gateway's clock, moved with the key's recorded use: a key found in the lookup cache is judged by this process's time.
  const clock = new FakeClock(new Date());
  beforeAll(async () => {
    t = await startTestApp({ clock });
  });
  afterAll(() => t.close());

  const current = (key?: string) => http(t.url, 'GET', '/v1/api-keys/current', { headers: key === undefined ? {} : { 'x-merchant-key': key } });
  const listKeys = (id: string) => t.admin.GET('/admin/api/merchants/{id}/api-keys', { params: { path: { id } } });
  /** Moves the key's recorded last use back, as test set-up (a key last used long ago): no test waits a minute. */
  const usedAgo = (keyId: string, seconds: number) => t.dataSource.query(`UPDATE api_keys SET last_used_at = now() - make_interval(secs => $2) WHERE id = $1`, [keyId, seconds]);

  it("answers the calling key's id, prefix, creation and last use, never the key, and the admin list agrees", async () => {
    const { merchant, apiKey, apiKeyId } = await t.newMerchant();
    expect((await listKeys(merchant.id)).data).toEqual([expect.objectContaining({ id: apiKeyId, last_used_at: null })]);

    const before = Date.now();
    const res = await current(apiKey);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data).sort()).toEqual(['created_at', 'id', 'last_used_at', 'prefix']);
    expect(res.body.data).toMatchObject({ id: apiKeyId, prefix: apiKey.slice(0, 12) });
    // This call is itself a use: the first one of a key is recorded at once.
    expect(Date.parse(res.body.data.last_used_at)).toBeGreaterThanOrEqual(before - 5_000);
    expect(res.text).not.toContain(apiKey);

    const listed = await listKeys(merchant.id);
    expect(listed.data).toEqual([expect.objectContaining({ id: apiKeyId, last_used_at: res.body.data.last_used_at })]);
  });

  it('moves at most once a minute: a use within the minute keeps the time, one after it moves it', async () => {
    const { apiKey, apiKeyId } = await t.newMerchant();
    const first = (await current(apiKey)).body.data.last_used_at as string;
    expect((await http(t.url, 'GET', '/v1/payments', { headers: { 'x-merchant-key': apiKey } })).status).toBe(200);
    expect((await current(apiKey)).body.data.last_used_at).toBe(first);

    await usedAgo(apiKeyId, 90);
    clock.advance(90_000);
    const moved = (await current(apiKey)).body.data.last_used_at as string;
    expect(Date.parse(moved)).toBeGreaterThanOrEqual(Date.parse(first));
  });

  it('shows each key its own use: another key of the same merchant stays unused', async () => {
    const { merchant, apiKey, apiKeyId } = await t.newMerchant();
    const second = await t.admin.POST('/admin/api/merchants/{id}/api-keys', { params: { path: { id: merchant.id } } });
    const res = await current(second.data!.key);
    expect(res.body.data.id).toBe(second.data!.id);
    const listed = await listKeys(merchant.id);
    expect(listed.data!.find((k) => k.id === apiKeyId)!.last_used_at).toBeNull();
    expect(listed.data!.find((k) => k.id === second.data!.id)!.last_used_at).toBe(res.body.data.last_used_at);
    expect(apiKey).not.toBe(second.data!.key);
  });

  it('is 401 without a key or with a revoked one', async () => {
    const { merchant, apiKey, apiKeyId } = await t.newMerchant();
    const missing = await current();
    expect(missing.status).toBe(401);
    expect(missing.body.error.code).toBe('MISSING_MERCHANT_KEY');
    await t.admin.DELETE('/admin/api/merchants/{id}/api-keys/{keyId}', { params: { path: { id: merchant.id, keyId: apiKeyId } } });
    const revoked = await current(apiKey);
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('INVALID_MERCHANT_KEY');
  });
});
