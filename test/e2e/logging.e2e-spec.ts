import { Client } from 'pg';
import { apiClients } from '../helpers/clients';
import { paymentBody } from '../helpers/factories';
import { GatewayProcess, startGatewayProcess } from '../helpers/gateway-process';
import { http } from '../helpers/http';
import { itOn, TEST_ADMIN_TOKEN } from '../helpers/test-env';

/** The gateway as a real process, its whole output read back: one access line per API request, nothing secret in any line. */
jest.setTimeout(90_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LogLine = Record<string, any>;

const CPF = '123.456.789-09';
const CNPJ = '11.222.333/0001-81';

describe('logs of a gateway process', () => {
  let gw: GatewayProcess;
  let merchant: { id: string; apiKey: string };
  beforeAll(async () => {
    gw = await startGatewayProcess({ LOG_LEVEL: 'info' });
    merchant = await apiClients(gw.url).admin.newMerchant();
  });
  afterAll(async () => {
    gw?.kill('SIGKILL');
    await gw?.exited;
  });

  const jsonLines = (): LogLine[] =>
    gw
      .output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as LogLine);
  const accessLines = (requestId: string) => jsonLines().filter((line) => line.request_id === requestId && line.duration_ms !== undefined);

  /** What `read` returns once it returns something, within 10 s. */
  async function eventually<T>(read: () => T | undefined): Promise<T> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const value = read();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`the expected log line was not written:\n${gw.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /** Waits until the access line of `res` is written (it is written when the answer has been sent). */
  async function accessLineOf(res: { headers: Headers }): Promise<LogLine> {
    const requestId = res.headers.get('x-request-id')!;
    await eventually(() => (accessLines(requestId).length > 0 ? true : undefined));
    const lines = accessLines(requestId);
    expect(lines).toHaveLength(1);
    return lines[0]!;
  }

  it('writes one access line per API request: method, route pattern, status, duration, request id and who called', async () => {
    const auth = { 'x-merchant-key': merchant.apiKey };
    const created = await apiClients(gw.url)
      .merchant(merchant.apiKey)
      .POST('/v1/payments/create', { body: paymentBody({ recipientDocument: CPF }), params: { header: { 'Idempotency-Key': 'log-1' } } });
    expect(created.status).toBe(201);
    const createdLine = await accessLineOf(created);
    expect(createdLine.error_code).toBeUndefined();
    expect(createdLine).toMatchObject({
      level: 30,
      method: 'POST',
      route: '/v1/payments/create',
      status: 201,
      duration_ms: expect.any(Number),
      request_id: created.body.request_id,
      principal: merchant.id,
    });

    const read = await http(gw.url, 'GET', `/v1/payments/${created.data!.id}?token=${TEST_ADMIN_TOKEN}`, { headers: auth });
    expect(read.status).toBe(200);
    expect(await accessLineOf(read)).toMatchObject({ method: 'GET', route: '/v1/payments/:id', status: 200, principal: merchant.id });

    const list = await apiClients(gw.url).admin.GET('/admin/api/merchants');
    expect(await accessLineOf(list)).toMatchObject({ method: 'GET', route: '/admin/api/merchants', status: 200, principal: 'admin' });

    const refused = await http(gw.url, 'GET', '/admin/api/merchants', { headers: { authorization: 'Bearer wrong-token' } });
    const refusedLine = await accessLineOf(refused);
    expect(refusedLine).toMatchObject({ route: '/admin/api/merchants', status: 401, error_code: 'UNAUTHORIZED', msg: 'GET /admin/api/merchants 401 UNAUTHORIZED' });
    expect(refusedLine.principal).toBeUndefined();

    const unknown = await http(gw.url, 'GET', `/v1/nothing/here/${CPF}`, { headers: auth });
    expect(await accessLineOf(unknown)).toMatchObject({ method: 'GET', route: 'unmatched', status: 404, error_code: 'NOT_FOUND' });

    const webhook = await http(gw.url, 'POST', '/webhooks/sandbox', { body: { event: 'payment.confirmed' } });
    expect(await accessLineOf(webhook)).toMatchObject({ method: 'POST', route: '/webhooks/:provider', status: webhook.status });

    const unscraped = await http(gw.url, 'GET', '/metrics');
    expect(await accessLineOf(unscraped)).toMatchObject({ method: 'GET', route: '/metrics', status: 401, error_code: 'UNAUTHORIZED' });

    // Scrapes and health checks that succeed are debug (they repeat every few seconds), documentation is not an API request: no line at info.
    const quiet = [
      await http(gw.url, 'GET', '/metrics', { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } }),
      await http(gw.url, 'GET', '/health'),
      await http(gw.url, 'GET', '/docs/json'),
    ];
    expect(quiet.map((res) => res.status)).toEqual([200, 200, 200]);
    await accessLineOf(await http(gw.url, 'GET', '/metrics')); // a later line: anything before it is written
    for (const res of quiet) expect(jsonLines().filter((line) => line.request_id === res.headers.get('x-request-id'))).toEqual([]);

    // Access lines (failed-authentication warnings also name the route, but have no status).
    for (const line of jsonLines().filter((l) => l.route !== undefined && l.status !== undefined)) {
      expect(Object.keys(line).sort()).toEqual(expect.arrayContaining(['method', 'route', 'status', 'duration_ms', 'request_id']));
      for (const field of ['req', 'res', 'headers', 'query', 'body', 'url']) expect(line[field]).toBeUndefined();
    }
  });

  itOn('postgres', 'the test adds a failing trigger over a connection of its own')('keeps payer documents, SQL parameters, keys and tokens out of an error log', async () => {
    // A database failure whose statement carries the payer's document, and whose message repeats it.
    const db = new Client({ connectionString: gw.databaseUrl });
    await db.connect();
    await db.query(`CREATE FUNCTION refuse_payment() RETURNS trigger LANGUAGE plpgsql AS $$
                      BEGIN RAISE EXCEPTION 'payment to % (%) refused', NEW.recipient_document, NEW.recipient_name; END $$`);
    await db.query(`CREATE TRIGGER refuse_payment BEFORE INSERT ON payments FOR EACH ROW EXECUTE FUNCTION refuse_payment()`);
    await db.end();

    const failed = await http(gw.url, 'POST', `/v1/payments/create?access_token=${TEST_ADMIN_TOKEN}&doc=${CNPJ}`, {
      body: paymentBody({ recipientDocument: CNPJ, description: `Pedido de ${CNPJ}` }),
      headers: { 'x-merchant-key': merchant.apiKey, 'idempotency-key': 'log-2', authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(failed.status).toBe(500);
    const errorLine = await eventually(() => jsonLines().find((line) => line.request_id === failed.body.request_id && line.level === 50));
    // The error was logged, with what an operator needs: the statement and the message, minus the values.
    expect(errorLine).toMatchObject({ err: { query: expect.stringContaining('INSERT INTO payments'), parameters: '[redacted]' } });
    expect(errorLine.err.message).toContain('refused');

    const output = gw.output();
    for (const secret of [
      CPF,
      CPF.replace(/\D/g, ''),
      CNPJ,
      CNPJ.replace(/\D/g, ''),
      encodeURIComponent(CNPJ),
      merchant.apiKey,
      merchant.apiKey.slice('mk_live_'.length),
      TEST_ADMIN_TOKEN,
    ]) {
      expect(output).not.toContain(secret);
    }
    expect(await accessLineOf(failed)).toMatchObject({ route: '/v1/payments/create', status: 500, principal: merchant.id });
  });
});
