import { http } from '../helpers/http';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';

/** Security headers and deadlines with the default settings; short deadlines: slow-clients.e2e-spec.ts; an https public URL: hsts.e2e-spec.ts. */
describe('security headers (HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('uses a 10 s header and a 30 s body deadline by default (slow clients)', () => {
    const server = t.app.getHttpServer();
    expect(server.headersTimeout).toBe(10_000);
    expect(server.requestTimeout).toBe(30_000);
  });

  it('sends nosniff on every answer and no-store on API answers', async () => {
    const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    for (const [path, headers] of [
      ['/health', {}],
      ['/v1/payments/pay_unknown', {}],
      ['/v1/nope', {}],
      ['/admin/api/merchants', admin],
      ['/admin/api/merchants', {}],
      [`/v1/payments/${'a'.repeat(5000)}`, {}],
      ['/v1/payments/%E0%A4%A', {}],
    ] as const) {
      const res = await http(t.url, 'GET', path, { headers });
      expect([path, res.headers.get('x-content-type-options'), res.headers.get('cache-control')]).toEqual([path, 'nosniff', 'no-store']);
    }
    for (const res of [
      await http(t.url, 'POST', '/webhooks/sandbox', { body: {} }),
      await http(t.url, 'POST', '/webhooks/sandbox', { rawBody: 'x', headers: { 'content-type': 'text/plain' } }),
      await http(t.url, 'POST', '/webhooks/sandbox', { rawBody: '{', headers: { 'content-type': 'application/json' } }),
    ]) {
      expect([res.status, res.headers.get('x-content-type-options'), res.headers.get('cache-control')]).toEqual([expect.any(Number), 'nosniff', 'no-store']);
    }
    for (const path of ['/docs', '/admin']) {
      const res = await http(t.url, 'GET', path);
      expect([path, res.headers.get('x-content-type-options')]).toEqual([path, 'nosniff']);
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
  });

  it('sends no HSTS while the public URL is plain http', async () => {
    expect((await http(t.url, 'GET', '/health')).headers.get('strict-transport-security')).toBeNull();
  });

  it('Swagger UI does not phone home: no validator, no external URL in its page or its init script', async () => {
    const page = await http(t.url, 'GET', '/docs');
    expect(page.status).toBe(200);
    expect(page.text).not.toMatch(/(src|href)=["']?(https?:)?\/\//);
    const init = await http(t.url, 'GET', '/docs/swagger-ui-init.js');
    expect(init.status).toBe(200);
    const json = /let options = (\{[\s\S]*?\n\});/.exec(init.text)?.[1];
    expect(json).toBeDefined();
    const options = JSON.parse(json!);
    expect(options.customOptions).toHaveProperty('validatorUrl', null);
    // Outside the API document itself (whose examples name example.com), nothing names another origin.
    const { swaggerDoc: _document, ...rest } = options;
    const code = init.text.replace(json!, '');
    expect(JSON.stringify(rest) + code).not.toMatch(/https?:\/\//);
  });
});
