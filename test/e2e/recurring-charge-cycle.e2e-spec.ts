import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Clock } from '../../src/domain/clock';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import { RecurrenceReconciliation } from '../../src/recurrences/recurrence-reconciliation';
import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { pixApiAccountBody, recurrenceBody } from '../helpers/factories';
import { http, type HttpResult } from '../helpers/http';
import { describeOn, startTestApp, type TestApp } from '../helpers/test-app';

/** The gateway's clock: the real time, moved forward by hand (the replay test, last). */
class MovableClock extends Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

/**
 * A proxy in front of a gateway's own sandbox PSP (its SANDBOX_BASE_URL): it counts the recurring
 * charges asked for and holds each for a moment, so that racing requests are all in flight together.
 */
async function startSandboxProxy(): Promise<{ url: string; target: { gatewayUrl: string }; chargeCreates: string[]; close(): void }> {
  const target = { gatewayUrl: '' };
  const chargeCreates: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        if (req.method === 'PUT' && req.url?.startsWith('/recurring-charges/')) {
          chargeCreates.push(req.url);
          await new Promise((resolve) => setTimeout(resolve, 300));
        }
        const headers: Record<string, string> = {};
        for (const name of ['content-type', 'idempotency-key', 'authorization']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
        try {
          const upstream = await fetch(`${target.gatewayUrl}/sandbox${req.url}`, { method: req.method, headers, body: req.method === 'GET' ? undefined : Buffer.concat(chunks) });
          res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await upstream.arrayBuffer()));
        } catch (error) {
          res.writeHead(599).end(String(error));
        }
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    target,
    chargeCreates,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

const post = (t: TestApp, merchantKey: string, path: string, body: unknown, idempotencyKey = randomBytes(8).toString('hex')): Promise<HttpResult> =>
  http(t.url, 'POST', path, { headers: { 'x-merchant-key': merchantKey, 'idempotency-key': idempotencyKey }, body });
const asAdmin = (t: TestApp) => ({ authorization: `Bearer ${t.config.adminApiToken.reveal()}` });

/** An active recurrence at the sandbox: created, and the payer's yes simulated. */
async function sandboxRecurrence(t: TestApp, merchantKey: string): Promise<string> {
  const created = await post(t, merchantKey, '/v1/recurrences', recurrenceBody());
  expect(created.status).toBe(201);
  const authorized = await http(t.url, 'POST', `/admin/api/recurrences/${created.body.data.id}/simulate`, { headers: asAdmin(t), body: { action: 'authorize' } });
  expect(authorized.status).toBe(200);
  return created.body.data.id;
}

/**
 * One charge per cycle of a recurrence, held by the database (docs/recurrences.md, One charge per
 * cycle): two requests racing for one cycle get one 201 and one 409 and the PSP is asked once, at
 * the built-in sandbox and at a Pix API account; a PSP's refusal frees the cycle, a lost answer keeps
 * it for the same txid; and a completed Idempotency-Key replays its answer whatever happened since.
 */
describe('one recurring charge per cycle', () => {
  let t: TestApp;
  let psp: PixApiPsp;
  let proxy: Awaited<ReturnType<typeof startSandboxProxy>>;
  let pixKey: string;
  let sandboxKey: string;
  const clock = new MovableClock();
  const today = () => brasiliaDate(clock.now());
  beforeAll(async () => {
    proxy = await startSandboxProxy();
    [t, psp] = await Promise.all([startTestApp({ clock, env: { SANDBOX_BASE_URL: proxy.url } }), startPixApiPsp()]);
    proxy.target.gatewayUrl = t.url;
    const account = await t.admin.POST('/admin/api/provider-accounts', {
      body: pixApiAccountBody(psp, { receiver_account: { agencia: '0001', conta: '123456', tipoConta: 'CORRENTE' } }),
    });
    expect((await t.admin.POST('/admin/api/provider-accounts/{id}/webhook', { params: { path: { id: account.data!.id } } })).status).toBe(200);
    pixKey = (await t.admin.newMerchant({ name: 'Escola', provider_accounts: [account.data!.id] })).apiKey;
    sandboxKey = (await t.admin.newMerchant({ name: 'Academia' })).apiKey;
  });
  afterAll(async () => {
    proxy?.close();
    await Promise.all([t?.close(), psp?.close()]);
  });
  afterEach(() => {
    psp.reset();
    psp.assertNoViolations();
  });

  const get = async (merchantKey: string, path: string) => (await http(t.url, 'GET', path, { headers: { 'x-merchant-key': merchantKey } })).body.data;
  const pixCreates = () => psp.requests.filter((r) => r.method === 'PUT' && /\/cobr\/[^/]+$/.test(r.path));

  /** An active recurrence of the Pix API merchant (the fake PSP's payer says yes), with its id at the PSP. */
  const pixRecurrence = async (): Promise<{ id: string; idRec: string }> => {
    const body = recurrenceBody();
    const created = await post(t, pixKey, '/v1/recurrences', body);
    expect(created.status).toBe(201);
    const idRec = [...psp.recurrences.values()].find((rec) => rec.vinculo?.contrato === (body.contract as { id: string }).id)?.idRec as string;
    expect((await psp.approveRecurrence(idRec))?.status).toBe(200);
    return { id: created.body.data.id, idRec };
  };
  /** Makes the charges' read-back due now, and runs reconciliation once. */
  const reconcileCharges = async (recurrenceId: string) => {
    await t.dataSource.query(`UPDATE recurring_charges SET next_reconcile_at = '2000-01-01' WHERE recurrence_id = $1 AND next_reconcile_at IS NOT NULL`, [recurrenceId]);
    return t.app.get(RecurrenceReconciliation).runOnce();
  };

  it('answers two charges racing for one cycle at the sandbox with one 201 and one 409, asking the PSP once', async () => {
    const id = await sandboxRecurrence(t, sandboxKey);
    const before = proxy.chargeCreates.length;
    const answers = await Promise.all([addDays(today(), 3), addDays(today(), 4)].map((dueDate) => post(t, sandboxKey, `/v1/recurrences/${id}/charges`, { dueDate })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.body.error).toMatchObject({ code: 'PAYMENT_STATE_CONFLICT', message: expect.stringContaining('cycle') });
    expect(proxy.chargeCreates.length - before).toBe(1);
    expect((await get(sandboxKey, `/v1/recurrences/${id}/charges`)).items.map((c: { status: string }) => c.status)).toEqual(['scheduled']);
  });

  it('answers two charges racing for one cycle at a Pix API account with one 201 and one 409, asking the PSP once', async () => {
    const { id, idRec } = await pixRecurrence();
    const before = pixCreates().length;
    psp.fail({ kind: 'slow', delayMs: 300, method: 'PUT', path: /\/cobr\/[^/]+$/, times: 2 });
    const answers = await Promise.all([addDays(today(), 3), addDays(today(), 4)].map((dueDate) => post(t, pixKey, `/v1/recurrences/${id}/charges`, { dueDate })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    expect(answers.find((a) => a.status === 409)!.body.error.code).toBe('PAYMENT_STATE_CONFLICT');
    expect(pixCreates().length - before).toBe(1);
    expect([...psp.recurringCharges.values()].filter((c) => c.idRec === idRec)).toHaveLength(1);
  });

  it('frees the cycle when the PSP refuses the charge', async () => {
    const { id } = await pixRecurrence();
    psp.fail({ kind: 'problem', status: 400, method: 'PUT', path: /\/cobr\/[^/]+$/ });
    const refused = await post(t, pixKey, `/v1/recurrences/${id}/charges`, { dueDate: addDays(today(), 3) });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.fields[0].field).toBe('dueDate');
    expect((await get(pixKey, `/v1/recurrences/${id}/charges`)).items).toEqual([]);
    expect((await post(t, pixKey, `/v1/recurrences/${id}/charges`, { dueDate: addDays(today(), 4) })).status).toBe(201);
  });

  it('keeps the cycle for the same txid when the PSP’s answer is lost: another key is 409 at once, a retry of the key gets the charge', async () => {
    const { id } = await pixRecurrence();
    const before = pixCreates().length;
    // The PSP makes the charge and the answer is lost.
    psp.fail({ kind: 'status', status: 503, afterHandling: true, method: 'PUT', path: /\/cobr\/[^/]+$/ });
    const body = { dueDate: addDays(today(), 3) };
    const lost = await post(t, pixKey, `/v1/recurrences/${id}/charges`, body, 'lost-answer');
    expect(lost.status).toBe(502);
    expect(pixCreates().length - before).toBe(1);
    const txid = pixCreates().at(-1)!.path.split('/').pop()!;

    const other = await post(t, pixKey, `/v1/recurrences/${id}/charges`, { dueDate: addDays(today(), 4) });
    expect(other.status).toBe(409);
    expect(pixCreates().length - before).toBe(1);

    const retried = await post(t, pixKey, `/v1/recurrences/${id}/charges`, body, 'lost-answer');
    expect(retried.status).toBe(201);
    expect(retried.body.data).toMatchObject({ status: 'scheduled', txid });
    expect((await get(pixKey, `/v1/recurrences/${id}/charges`)).items.map((c: { id: string }) => c.id)).toEqual([retried.body.data.id]);
  });

  it('lets reconciliation settle a charge whose answer was lost: adopted when the PSP holds it, the cycle freed when it does not', async () => {
    const { id: held } = await pixRecurrence();
    psp.fail({ kind: 'status', status: 503, afterHandling: true, method: 'PUT', path: /\/cobr\/[^/]+$/ });
    expect((await post(t, pixKey, `/v1/recurrences/${held}/charges`, { dueDate: addDays(today(), 3) })).status).toBe(502);
    expect(await reconcileCharges(held)).toMatchObject({ failed: 0 });
    expect((await get(pixKey, `/v1/recurrences/${held}/charges`)).items.map((c: { status: string }) => c.status)).toEqual(['scheduled']);

    const { id: never } = await pixRecurrence();
    // The PSP never got it: the answer is 503 before anything was done.
    psp.fail({ kind: 'status', status: 503, method: 'PUT', path: /\/cobr\/[^/]+$/ });
    expect((await post(t, pixKey, `/v1/recurrences/${never}/charges`, { dueDate: addDays(today(), 3) })).status).toBe(502);
    expect((await post(t, pixKey, `/v1/recurrences/${never}/charges`, { dueDate: addDays(today(), 4) })).status).toBe(409);
    expect(await reconcileCharges(never)).toMatchObject({ failed: 0 });
    expect((await get(pixKey, `/v1/recurrences/${never}/charges`)).items).toEqual([]);
    expect((await post(t, pixKey, `/v1/recurrences/${never}/charges`, { dueDate: addDays(today(), 4) })).status).toBe(201);
  });

  // Last: it moves the gateway's clock.
  it('replays a completed recurrence create and charge create byte for byte after the recurrence was cancelled and the days moved on', async () => {
    const recurrenceRequest = recurrenceBody();
    const created = await post(t, sandboxKey, '/v1/recurrences', recurrenceRequest, 'replay-recurrence');
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    await http(t.url, 'POST', `/admin/api/recurrences/${id}/simulate`, { headers: asAdmin(t), body: { action: 'authorize' } });
    const chargeRequest = { dueDate: addDays(today(), 3) };
    const charged = await post(t, sandboxKey, `/v1/recurrences/${id}/charges`, chargeRequest, 'replay-charge');
    expect(charged.status).toBe(201);
    expect((await http(t.url, 'POST', `/v1/recurrences/${id}/cancel`, { headers: { 'x-merchant-key': sandboxKey } })).body.data.status).toBe('cancelled');
    // Two days on, the recurrence's startDate is in the past and the charge's lead time no longer holds.
    clock.offsetMs += 2 * 86_400_000;
    const creates = proxy.chargeCreates.length;

    const recurrenceAgain = await post(t, sandboxKey, '/v1/recurrences', recurrenceRequest, 'replay-recurrence');
    expect({ status: recurrenceAgain.status, replayed: recurrenceAgain.headers.get('idempotent-replayed'), text: recurrenceAgain.text }).toEqual({
      status: 201,
      replayed: 'true',
      text: created.text,
    });
    const chargeAgain = await post(t, sandboxKey, `/v1/recurrences/${id}/charges`, chargeRequest, 'replay-charge');
    expect({ status: chargeAgain.status, replayed: chargeAgain.headers.get('idempotent-replayed'), text: chargeAgain.text }).toEqual({
      status: 201,
      replayed: 'true',
      text: charged.text,
    });
    expect(proxy.chargeCreates.length).toBe(creates);
  });
});

describeOn('postgres', 'two processes share one database')('one recurring charge per cycle across two gateway processes', () => {
  let a: TestApp;
  let b: TestApp;
  let proxy: Awaited<ReturnType<typeof startSandboxProxy>>;
  beforeAll(async () => {
    proxy = await startSandboxProxy();
    a = await startTestApp({ db: 'postgres', env: { SANDBOX_BASE_URL: proxy.url } });
    proxy.target.gatewayUrl = a.url;
    // The second process shares the first one's database and, through the proxy, its sandbox PSP.
    b = await startTestApp({ env: { DATABASE_URL: a.config.databaseUrl!.reveal(), SANDBOX_BASE_URL: proxy.url } });
  });
  afterAll(async () => {
    proxy?.close();
    await b?.close();
    await a?.close();
  });

  it('answers ten charges for one cycle, sent through both processes at once, with one 201 and nine 409s, asking the PSP once', async () => {
    const merchantKey = (await a.admin.newMerchant({ name: 'Academia' })).apiKey;
    const id = await sandboxRecurrence(a, merchantKey);
    const today = brasiliaDate(new Date());
    const before = proxy.chargeCreates.length;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => post(i % 2 ? a : b, merchantKey, `/v1/recurrences/${id}/charges`, { dueDate: addDays(today, 3 + (i % 5)) })),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, ...Array<number>(9).fill(409)]);
    expect(proxy.chargeCreates.length - before).toBe(1);
    const [{ n }] = await a.dataSource.query(`SELECT count(*)::int AS n FROM recurring_charges WHERE recurrence_id = $1`, [id]);
    expect(n).toBe(1);
  });
});
