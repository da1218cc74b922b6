import { randomBytes } from 'node:crypto';
import { ProviderAdapters } from '../../src/providers/provider-registry';
import { sandboxChargeBody } from '../helpers/factories';
import { http } from '../helpers/http';
import { sandboxAuth, startTestApp, type TestApp } from '../helpers/test-app';
import { WebhookReceiver } from '../providers/webhook-receiver';

const SECRET = 'whsec_mounted_sandbox_secret';

/** The sandbox served by the gateway under /sandbox (the default outside production). */
describe('sandbox PSP mounted in the gateway', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    t = await startTestApp({ env: { SANDBOX_WEBHOOK_SECRET: SECRET } });
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });
  afterEach(() => http(t.url, 'DELETE', '/sandbox/_control/failures', { headers: sandboxAuth(t.config) }));

  it('answers with its own bodies, not the gateway envelope', async () => {
    const body = sandboxChargeBody({ notificationUrl: receiver.url });
    const res = await http(t.url, 'POST', '/sandbox/charges', { body, headers: { ...sandboxAuth(t.config), 'idempotency-key': body.txid } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ txid: body.txid, status: 'ATIVA', amount: '10.50' });
    expect(res.body).not.toHaveProperty('success');
    await expect(http(t.url, 'GET', `/sandbox/charges/${res.body.id}`, { headers: sandboxAuth(t.config) })).resolves.toMatchObject({ status: 200, body: { id: res.body.id } });
  });

  it.each([
    ['an unknown sandbox route', 'GET', '/sandbox/nope', undefined, undefined, 404, 'NOT_FOUND'],
    ['malformed JSON', 'POST', '/sandbox/charges', '{"txid"', 'application/json', 400, 'INVALID_REQUEST'],
    ['a non-JSON body (the gateway 415 rule)', 'POST', '/sandbox/charges', 'txid=1', 'text/plain', 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ])('renders %s in the sandbox error shape', async (_label, method, path, rawBody, type, status, code) => {
    const res = await http(t.url, method, path, { rawBody, headers: { ...sandboxAuth(t.config), ...(type ? { 'content-type': type } : {}) } });
    expect(res.status).toBe(status);
    expect(res.body).toEqual({ error: expect.objectContaining({ code }) });
  });

  it('takes an empty body with a JSON content type as no body', async () => {
    const res = await http(t.url, 'DELETE', '/sandbox/_control/failures', { headers: { ...sandboxAuth(t.config), 'content-type': 'application/json' } });
    expect(res.status).toBe(204);
  });

  it('injects failures through /sandbox/_control/failures for the adapter the gateway uses', async () => {
    const { adapter: sandbox, ref: account } = t.app.get(ProviderAdapters).builtIn('sandbox')!;
    const request = {
      paymentId: 'pay_mounted',
      txid: randomBytes(16).toString('hex'),
      amountCents: 1050,
      currency: 'BRL' as const,
      description: null,
      externalId: 'order-2',
      payer: { document: '12345678909', name: 'Ana Souza' },
      expiresInSeconds: 3600,
      notificationUrl: receiver.url,
    };
    await expect(http(t.url, 'POST', '/sandbox/_control/failures', { body: { mode: 'http_503', operation: 'create' }, headers: sandboxAuth(t.config) })).resolves.toMatchObject({
      status: 204,
    });
    await expect(sandbox.createCharge(account, request)).rejects.toMatchObject({ name: 'UpstreamError', kind: 'http', upstreamStatus: 503, providerCode: 'UNAVAILABLE' });
    await expect(sandbox.createCharge(account, request)).resolves.toMatchObject({ txid: request.txid, status: 'pending' });
  });

  it('signs simulated events with SANDBOX_WEBHOOK_SECRET, and the adapter verifies them', async () => {
    const body = sandboxChargeBody({ notificationUrl: receiver.url });
    const created = await http(t.url, 'POST', '/sandbox/charges', { body, headers: { ...sandboxAuth(t.config), 'idempotency-key': body.txid } });
    const res = await http(t.url, 'POST', `/sandbox/charges/${created.body.id}/simulate`, { body: { event: 'payment.confirmed' }, headers: sandboxAuth(t.config) });
    expect(res).toMatchObject({ status: 202, body: { delivered: true, status: 200, charge: { status: 'CONCLUIDA' } } });
    const hook = await receiver.next();
    expect(hook.headers['x-sandbox-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const { adapter, ref } = t.app.get(ProviderAdapters).builtIn('sandbox')!;
    await expect(adapter.receiveCallback(ref, { method: 'POST', path: '', query: {}, headers: hook.headers, rawBody: hook.rawBody })).resolves.toHaveLength(1);
  });
});

describe('sandbox PSP with SANDBOX_ENABLED=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { SANDBOX_ENABLED: 'false' } });
  });
  afterAll(() => t?.close());

  it('is not served: /sandbox is an unknown gateway route', async () => {
    const res = await http(t.url, 'GET', '/sandbox/health');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });
});
