import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';

describe('envelope and error table (HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers /health with {"status":"ok"} once migrated', async () => {
    const res = await fetch(`${t.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('renders unknown routes as NOT_FOUND in the envelope with X-Request-Id = request_id', async () => {
    const res = await http(t.url, 'GET', '/v1/nope');
    const body = res.body;
    expect(res.status).toBe(404);
    expect(body).toMatchObject({ success: false, provider: 'sandbox', error: { code: 'NOT_FOUND' } });
    expect(body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-request-id')).toBe(body.request_id);
  });
});
