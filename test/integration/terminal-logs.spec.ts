import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { apiClients } from '../helpers/clients';
import { paymentBody } from '../helpers/factories';
import { ensureBuilt, GatewayProcess, startGatewayProcess } from '../helpers/gateway-process';
import { http } from '../helpers/http';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { freePort, TEST_ADMIN_TOKEN, testEnv } from '../helpers/test-env';

/**
 * What a developer's terminal shows: the built gateway's own output, read back. On a terminal (a
 * pseudo-terminal made by `script`, so the gateway prints its readable lines): a short start-up, the
 * error code on 4xx lines, no JSON tail, dashboard polling quiet. As JSON (a pipe): a failed webhook
 * attempt and a provider failure are warnings with the fields an operator needs.
 */
jest.setTimeout(90_000);

const ROOT = resolve(__dirname, '../..');
const CPF = '123.456.789-09';
const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/** Resolves with what `read` returns once it returns something, within 20 s (a loaded machine is slow to start a process). */
async function eventually<T>(read: () => T | undefined, output: () => string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`the expected log line was not written:\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('the gateway on a terminal', () => {
  let child: ChildProcess;
  let output = '';
  let url: string;
  /** The lines written so far, without colours and carriage returns. */
  const lines = () =>
    output
      .replace(/\x1b\[[0-9;]*m/g, '')
      .replace(/\r/g, '')
      .split('\n')
      .filter((line) => line.trim() !== '');

  beforeAll(async () => {
    execFileSync('script', ['--version']); // util-linux's script(1) makes the terminal; without it this fails loudly
    await ensureBuilt();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const env = { ...process.env, ...testEnv({ PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info' }) } as Record<string, string>;
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
    const command = [process.execPath, '--liftoff-only', '--require', join(ROOT, 'test/helpers/pglite-preload.js'), join(ROOT, 'dist/src/main.js')].join(' ');
    // Its own process group, so the gateway under script(1) is stopped with it.
    child = spawn('script', ['-qfec', command, '/dev/null'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ok = await fetch(`${url}/health`).then(
        (res) => res.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`the gateway did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    // /health can answer before the banner has come through the terminal on a loaded machine.
    while (!output.includes('Pix gateway listening on')) {
      if (Date.now() > deadline) throw new Error(`the gateway printed no banner:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
  afterAll(() => {
    if (child?.pid) process.kill(-child.pid, 'SIGKILL');
  });

  /** The terminal line of the request `res` answered, once written. */
  const lineOf = (res: { headers: Headers }) => {
    const id = res.headers.get('x-request-id')!;
    return eventually(
      () => lines().find((line) => line.includes(id)),
      () => output,
    );
  };

  it("starts in a few lines: the banner, without Nest's module and route lines", () => {
    const banner = lines().findIndex((line) => line.startsWith('Pix gateway listening on'));
    expect(banner).toBeGreaterThanOrEqual(0);
    const startUp = lines().slice(0, banner + 4);
    expect(startUp.length).toBeLessThanOrEqual(10);
    expect(output).not.toMatch(/Mapped \{|RoutesResolver|InstanceLoader|dependencies initialized/);
  });

  it('prints an error line with its error code, once, with no JSON tail', async () => {
    const res = await http(url, 'GET', '/v1/payments/pay_nothing');
    expect(res.status).toBe(401);
    const line = await lineOf(res);
    expect(line).toMatch(/INFO: GET \/v1\/payments\/:id 401 MISSING_MERCHANT_KEY duration_ms=[\d.]+ request_id=/);
    expect(line).not.toContain('{');
    expect(line.match(/\/v1\/payments\/:id/g)).toHaveLength(1);

    const invalid = await http(url, 'POST', '/admin/api/merchants', { body: {}, headers: ADMIN });
    expect(invalid.status).toBe(400);
    expect(await lineOf(invalid)).toContain('POST /admin/api/merchants 400 VALIDATION_ERROR');
  });

  it("keeps a dashboard session's polling, health checks and scrapes off the terminal at info; their errors stay", async () => {
    const signIn = await http(url, 'POST', '/admin/api/session', { body: { email: 'admin@example.com', password: 'correct horse battery staple' } });
    expect(signIn.status).toBe(201);
    const cookie = signIn.headers
      .getSetCookie()
      .find((c) => c.startsWith('gw_admin_session='))!
      .split(';', 1)[0]!;
    const quiet = [
      await http(url, 'GET', '/admin/api/stats', { headers: { cookie } }),
      await http(url, 'GET', '/admin/api/webhook-deliveries', { headers: { cookie } }),
      await http(url, 'GET', '/health'),
      await http(url, 'GET', '/metrics', { headers: ADMIN }),
    ];
    for (const res of quiet) expect(res.status).toBe(200);
    const failed = await http(url, 'GET', '/admin/api/merchants/mer_00000000000000000000000000', { headers: { cookie } });
    expect(failed.status).toBe(404);
    // Lines are written in order: once the failed read's line is there, the quiet ones would be too.
    expect(await lineOf(failed)).toContain('GET /admin/api/merchants/:id 404 NOT_FOUND');
    // The same read with the admin token is someone asking: it is printed.
    const asked = await http(url, 'GET', '/admin/api/stats', { headers: ADMIN });
    expect(await lineOf(asked)).toContain('GET /admin/api/stats 200');
    for (const res of quiet) expect(output).not.toContain(res.headers.get('x-request-id')!);
  });
});

describe('warnings a gateway process writes as JSON', () => {
  let gw: GatewayProcess;
  let receiver: MerchantReceiver;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  type LogLine = Record<string, any>;
  const jsonLines = (): LogLine[] =>
    gw
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);

  beforeAll(async () => {
    receiver = await MerchantReceiver.start();
    // One retry 200 ms after the first attempt: a retried attempt, then one that fails for good. A
    // generous attempt timeout: the receiver shares this busy process, and its 503 must not become a timeout.
    gw = await startGatewayProcess({ LOG_LEVEL: 'info', DELIVERY_POLL_MS: '50', DELIVERY_RETRY_SCHEDULE_MS: '200', DELIVERY_TIMEOUT_MS: '10000', DELIVERY_LEASE_MS: '20000' });
  });
  afterAll(async () => {
    gw?.kill('SIGKILL');
    await gw?.exited;
    await receiver?.close();
  });

  it('warns of each failed webhook attempt: delivery, payment, merchant, event, attempt, status, and the next attempt or that it failed for good', async () => {
    receiver.respondWith(() => ({ status: 503 }));
    const api = apiClients(gw.url);
    const merchant = await api.admin.newMerchant({ webhook_url: receiver.url });
    const created = await api
      .merchant(merchant.apiKey)
      .POST('/v1/payments/create', { body: paymentBody({ recipientDocument: CPF }), params: { header: { 'Idempotency-Key': 'terminal-logs-1' } } });
    expect(created.status).toBe(201);
    const paymentId = created.data!.id;
    const simulated = await api.admin.POST('/admin/api/payments/{id}/simulate', { params: { path: { id: paymentId } }, body: { event: 'payment.confirmed' } });
    expect(simulated.status).toBeLessThan(300);

    const attempts = await eventually(
      () => {
        const found = jsonLines().filter((line) => line.context === 'DeliveryWorker' && line.payment_id === paymentId);
        return found.length >= 2 ? found : undefined;
      },
      () => gw.output(),
    );
    const common = {
      level: 40,
      delivery_id: expect.stringMatching(/^dlv_/),
      payment_id: paymentId,
      merchant_id: merchant.id,
      event_type: expect.stringMatching(/^payment\./),
      status_code: 503,
      error: 'HTTP 503',
    };
    expect(attempts[0]).toMatchObject({ ...common, attempt: 1, next_attempt_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(attempts[0]!.msg).toContain(`for payment ${paymentId} failed (attempt 1: HTTP 503); retrying at`);
    expect(attempts[1]).toMatchObject({ ...common, attempt: 2, next_attempt_at: null });
    expect(attempts[1]!.msg).toContain('failed for good at attempt 2');
    expect(gw.output()).not.toContain(merchant.apiKey);
  });

  it('warns of a provider failure: payment, provider, account, operation, status and reason, never the payer document', async () => {
    const api = apiClients(gw.url);
    const merchant = await api.admin.newMerchant();
    expect((await http(gw.url, 'POST', '/sandbox/_control/failures', { body: { mode: 'http_422', count: 1, operation: 'create' }, headers: ADMIN })).status).toBe(204);
    const failed = await api
      .merchant(merchant.apiKey)
      .POST('/v1/payments/create', { body: paymentBody({ recipientDocument: CPF }), params: { header: { 'Idempotency-Key': 'terminal-logs-2' } } });
    expect(failed.status).toBe(502);
    const warning = await eventually(
      () => jsonLines().find((line) => line.level === 40 && line.context === 'Payments' && line.operation === 'create charge'),
      () => gw.output(),
    );
    expect(warning).toMatchObject({
      payment_id: expect.stringMatching(/^pay_/),
      provider: 'sandbox',
      provider_account_id: null,
      operation: 'create charge',
      reason: 'UPSTREAM',
      kind: 'http',
      upstream_status: 422,
    });
    expect(warning.msg).toMatch(/^Provider sandbox create charge failed for payment pay_\w+ \(built-in account\): HTTP 422/);
    // The access line is written once the answer is sent, which may be after the client has it.
    const access = await eventually(
      () => jsonLines().find((line) => line.route === '/v1/payments/create' && line.status === 502),
      () => gw.output(),
    );
    expect(access).toMatchObject({ error_code: 'PAYMENT_CREATE_FAILED' });
    for (const secret of [CPF, CPF.replace(/\D/g, ''), merchant.apiKey, TEST_ADMIN_TOKEN]) expect(gw.output()).not.toContain(secret);
  });
});
