import { connect, Socket } from 'node:net';
import { http } from '../helpers/http';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';

/** Resolves with how long the server took to close `socket`; rejects if it is still open at the deadline. */
function closedWithin(socket: Socket, deadlineMs: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${deadlineMs} ms`));
    }, deadlineMs);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.on('error', reject);
  });
}

describe('slow clients: header and body deadlines (HTTP)', () => {
  describe('with short deadlines', () => {
    let app: TestApp;
    let url: string;
    beforeAll(async () => {
      app = await startTestApp({ timeouts: { headersMs: 1_000, requestMs: 2_000, checkEveryMs: 200 } });
      url = app.url;
    });
    afterAll(() => app.close());

    it('closes a connection whose headers stall', async () => {
      const socket = await openSocket(url);
      socket.write('GET /health HTTP/1.1\r\nHost: loc');
      const elapsed = await closedWithin(socket, 5_000);
      expect(elapsed).toBeGreaterThanOrEqual(900);
    });

    it('closes a connection whose body stalls, even while bytes keep trickling in', async () => {
      const socket = await openSocket(url);
      socket.write('POST /webhooks/sandbox HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
      // One byte every 300 ms: never idle long, but the body is not complete by the deadline.
      const drip = setInterval(() => socket.writable && socket.write(' '), 300);
      try {
        const elapsed = await closedWithin(socket, 6_000);
        expect(elapsed).toBeGreaterThanOrEqual(1_500);
      } finally {
        clearInterval(drip);
      }
    });

    it('still serves a prompt request', async () => {
      expect((await http(url, 'GET', '/health')).status).toBe(200);
    });
  });
});

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

describe('security headers under an https public URL (HTTP)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { PUBLIC_BASE_URL: 'https://pix.example.com' } });
  });
  afterAll(() => t.close());

  it('sends Strict-Transport-Security, on framework errors too', async () => {
    for (const path of ['/health', '/v1/nope', '/v1/payments/%E0%A4%A']) {
      const res = await http(t.url, 'GET', path);
      expect([path, res.headers.get('strict-transport-security')]).toEqual([path, expect.stringMatching(/^max-age=\d{7,}/)]);
    }
  });
});
