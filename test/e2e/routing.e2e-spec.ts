import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics';
import { OrphanCanceller } from '../../src/payments/routing/orphan-canceller';
import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { eventually } from '../helpers/eventually';
import { pixApiAccountBody } from '../helpers/factories';
import { startTestApp, type TestApp } from '../helpers/test-app';

/** Short enough that a timed-out account costs a test one second. */
const UPSTREAM_TIMEOUT_MS = 1000;

/**
 * Routing across provider accounts (docs/providers.md, Routing), against three fake Pix API PSPs
 * at once: fallback on refusals and ambiguous failures, circuits, orphans, and retries of a key.
 * Every test makes its own accounts, so no breaker carries over from another test.
 */
describe('routing a create across provider accounts', () => {
  let t: TestApp;
  let a: PixApiPsp;
  let b: PixApiPsp;
  let c: PixApiPsp;
  beforeAll(async () => {
    [t, a, b, c] = await Promise.all([startTestApp({ env: { UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS) } }), startPixApiPsp(), startPixApiPsp(), startPixApiPsp()]);
  });
  afterAll(async () => {
    await Promise.all([t.close(), a.close(), b.close(), c.close()]);
  });
  afterEach(() => {
    for (const psp of [a, b, c]) {
      psp.reset();
      psp.assertNoViolations();
    }
  });

  const account = async (psp: Pick<PixApiPsp, 'url' | 'tokenUrl' | 'clientId' | 'clientSecret' | 'caPem'>) =>
    (await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp, { name: `Conta ${randomBytes(3).toString('hex')}` }) })).data!.id;
  const merchantRoutedTo = async (...accountIds: string[]) => (await t.admin.newMerchant({ provider_accounts: accountIds })).apiKey;
  const create = (apiKey: string, key = randomBytes(8).toString('hex')) =>
    t.merchant(apiKey).POST('/v1/payments/create', {
      body: { amount: 25, currency: 'BRL', recipientDocument: '123.456.789-09', recipientName: 'Ana Souza', externalId: `order-${key}` },
      params: { header: { 'Idempotency-Key': key } },
    });
  const detail = async (id: string) => (await t.admin.GET('/admin/api/payments/{id}', { params: { path: { id } } })).data!;
  const health = async (id: string) => (await t.admin.GET('/admin/api/provider-accounts/{id}', { params: { path: { id } } })).data!.health;
  const creates = (psp: PixApiPsp) => psp.requests.filter((r) => r.method === 'PUT' && r.path.includes('/cob/')).length;
  const liveCharges = (psp: PixApiPsp) => [...psp.charges.values()].filter((charge: { status: string }) => charge.status === 'ATIVA').length;
  const settleOrphans = () => t.app.get(OrphanCanceller).runOnce();
  /** Runs the orphan job until the payment's orphans are settled (each is first due 2 × the upstream timeout after its attempt). */
  const orphansSettled = (id: string) =>
    eventually(
      async () => {
        await settleOrphans();
        return (await detail(id)).attempts;
      },
      (attempts) => attempts.every((attempt) => attempt.orphan?.status !== 'pending'),
    );

  it('charges at the first account when it answers, and records that one attempt', async () => {
    const [first, second] = [await account(a), await account(b)];
    const payment = (await create(await merchantRoutedTo(first, second))).data!;
    expect(payment.provider).toBe('pix-api');
    expect(a.charges.has(payment.pix.txid)).toBe(true);
    expect(creates(b)).toBe(0);
    const { attempts } = await detail(payment.id);
    expect(attempts).toEqual([
      expect.objectContaining({ attempt: 1, account_id: first, provider: 'pix-api', outcome: 'charged', txid: payment.pix.txid, orphan: null, upstream_status: null }),
    ]);
    expect(attempts[0]!.id).toMatch(/^att_/);
  });

  it('falls back on a refused connection when a PSP is taken down mid-run, and measures what that costs', async () => {
    const d = await startPixApiPsp();
    const [down, standby] = [await account(d), await account(b)];
    const apiKey = await merchantRoutedTo(down, standby);
    const before = performance.now();
    const healthy = await create(apiKey);
    const healthyMs = performance.now() - before;
    expect(healthy.status).toBe(201);
    expect(d.charges.has(healthy.data!.pix.txid)).toBe(true);

    await d.close(); // the PSP goes away between two creates
    const started = performance.now();
    const res = await create(apiKey);
    const fallbackMs = performance.now() - started;
    expect(res.status).toBe(201);
    expect(res.body.provider).toBe('pix-api');
    expect(b.charges.has(res.data!.pix.txid)).toBe(true);
    const { attempts } = await detail(res.data!.id);
    expect(attempts.map((x) => [x.account_id, x.outcome, x.orphan])).toEqual([
      [down, 'refused', null],
      [standby, 'charged', null],
    ]);
    expect(attempts[0]!.error).toMatch(/ECONNREFUSED/);
    console.info(
      `[routing] refused first account: create ${fallbackMs.toFixed(0)} ms (a healthy single create: ${healthyMs.toFixed(0)} ms; refused attempt ${attempts[0]!.duration_ms} ms)`,
    );
  });

  it('falls back on a 401 from the first PSP', async () => {
    const [first, second] = [await account(a), await account(b)];
    a.fail({ kind: 'status', status: 401, path: '/cob/', times: 10 });
    const res = await create(await merchantRoutedTo(first, second));
    expect(res.status).toBe(201);
    expect(b.charges.has(res.data!.pix.txid)).toBe(true);
    const { attempts } = await detail(res.data!.id);
    expect(attempts.map((x) => [x.outcome, x.upstream_status])).toEqual([
      ['refused', 401],
      ['charged', null],
    ]);
  });

  it('falls back on a timeout, and cancels the charge the slow PSP made after all', async () => {
    const [first, second] = [await account(a), await account(b)];
    // The PSP makes the charge after the gateway has given up on it.
    a.fail({ kind: 'slow', delayMs: UPSTREAM_TIMEOUT_MS + 500, method: 'PUT', path: '/cob/' });
    const started = performance.now();
    const res = await create(await merchantRoutedTo(first, second));
    const elapsedMs = performance.now() - started;
    expect(res.status).toBe(201);
    expect(b.charges.has(res.data!.pix.txid)).toBe(true);
    const first_ = (await detail(res.data!.id)).attempts[0]!;
    expect(first_).toMatchObject({ outcome: 'ambiguous', account_id: first, orphan: { status: 'pending', tries: 0 } });
    await eventually(
      () => a.charges.get(first_.txid!),
      (charge) => charge !== undefined,
    );

    const attempts = await orphansSettled(res.data!.id);
    expect(attempts[0]!.orphan).toMatchObject({ status: 'cancelled', tries: 1, last_error: null });
    expect(a.charges.get(first_.txid!).status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    console.info(`[routing] timed-out first account (UPSTREAM_TIMEOUT_MS=${UPSTREAM_TIMEOUT_MS}): create ${elapsedMs.toFixed(0)} ms; ambiguous attempt ${first_.duration_ms} ms`);
  });

  it('falls back when the first PSP creates the charge then answers 503; a retry of the key makes no second live charge, and the orphan is cancelled', async () => {
    const [first, second] = [await account(a), await account(b)];
    const apiKey = await merchantRoutedTo(first, second);
    const key = randomBytes(8).toString('hex');
    const [aBefore, bBefore] = [a.charges.size, b.charges.size];
    a.fail({ kind: 'status', status: 503, afterHandling: true, method: 'PUT', path: '/cob/' });
    const res = await create(apiKey, key);
    expect(res.status).toBe(201);
    expect(a.charges.size).toBe(aBefore + 1); // the orphan
    expect(b.charges.size).toBe(bBefore + 1);
    const { attempts } = await detail(res.data!.id);
    expect(attempts.map((x) => [x.account_id, x.outcome, x.upstream_status, x.orphan?.status ?? null])).toEqual([
      [first, 'ambiguous', 503, 'pending'],
      [second, 'charged', null, null],
    ]);

    const again = await create(apiKey, key);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data!.id).toBe(res.data!.id);
    expect([a.charges.size, b.charges.size]).toEqual([aBefore + 1, bBefore + 1]);

    const settled = await orphansSettled(res.data!.id);
    expect(settled[0]!.orphan).toMatchObject({ status: 'cancelled' });
    expect(a.charges.get(attempts[0]!.txid!).status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    expect(b.charges.get(res.data!.pix.txid).status).toBe('ATIVA');
  });

  it('re-uses each account’s txid when a key is retried after every account failed, so no PSP holds two charges for it', async () => {
    const [first, second] = [await account(a), await account(c)];
    const apiKey = await merchantRoutedTo(first, second);
    const key = randomBytes(8).toString('hex');
    const cCreates = creates(c);
    a.fail({ kind: 'status', status: 503, afterHandling: true, method: 'PUT', path: '/cob/' });
    c.fail({ kind: 'status', status: 502, afterHandling: true, method: 'PUT', path: '/cob/' });
    const failed = await create(apiKey, key);
    expect(failed.status).toBe(502);
    expect(failed.error).toMatchObject({ code: 'PAYMENT_CREATE_FAILED', upstream_status: 502 });
    const [aCharges, cCharges] = [a.charges.size, c.charges.size];

    const retried = await create(apiKey, key);
    expect(retried.status).toBe(201);
    // The first account answers with the charge it already held: one charge per PSP for this key.
    expect([a.charges.size, c.charges.size]).toEqual([aCharges, cCharges]);
    expect(creates(c)).toBe(cCreates + 1);
    const { attempts } = await detail(retried.data!.id);
    expect(attempts.map((x) => [x.attempt, x.account_id, x.outcome])).toEqual([
      [1, first, 'ambiguous'],
      [2, second, 'ambiguous'],
      [3, first, 'charged'],
    ]);
    expect(attempts[2]!.txid).toBe(attempts[0]!.txid);
    expect(retried.data!.pix.txid).toBe(attempts[0]!.txid);
    // The first account's charge became the payment's: no orphan to cancel there; the second's is one.
    expect(attempts[0]!.orphan).toBeNull();
    const settled = await orphansSettled(retried.data!.id);
    expect(settled[1]!.orphan).toMatchObject({ status: 'cancelled' });
    expect(a.charges.get(retried.data!.pix.txid).status).toBe('ATIVA');
    expect(liveCharges(c)).toBe(0);
  });

  it('opens an account’s circuit after 5 consecutive failures and then skips it without calling its PSP', async () => {
    const [flaky, standby] = [await account(c), await account(b)];
    const apiKey = await merchantRoutedTo(flaky, standby);
    c.fail({ kind: 'status', status: 503, method: 'PUT', path: '/cob/', times: 100 });
    const started = performance.now();
    for (let i = 0; i < 5; i++) expect((await create(apiKey)).status).toBe(201);
    const openedMs = performance.now() - started;
    expect(await health(flaky)).toMatchObject({ circuit: 'open', consecutive_failures: 5, recent_failures: 5, last_error: expect.stringMatching(/503/) });
    const callsBefore = creates(c);

    const res = await create(apiKey);
    expect(res.status).toBe(201);
    expect(creates(c)).toBe(callsBefore);
    const { attempts } = await detail(res.data!.id);
    expect(attempts.map((x) => x.outcome)).toEqual(['circuit_open', 'charged']);
    expect(attempts[0]!.duration_ms).toBeLessThan(50);
    expect(await health(standby)).toMatchObject({ circuit: 'closed', consecutive_failures: 0, recent_failures: 0, last_failure_at: null });
    const metrics = await t.app.get(GatewayMetrics).registry.metrics();
    expect(metrics).toContain(`routing_circuit_state{account="${flaky}"} 2`);
    expect(metrics).toMatch(new RegExp(`routing_attempts_total\\{account="${flaky}",outcome="circuit_open"\\} 1`));
    expect(metrics).toMatch(new RegExp(`routing_fallbacks_total\\{account="${flaky}"\\} 6`));
    console.info(`[routing] circuit opened after 5 requests in ${openedMs.toFixed(0)} ms (each falling back to the next account)`);
  });

  it('answers 502 PAYMENT_CREATE_FAILED with the last upstream_status when every account fails', async () => {
    const gone = await startPixApiPsp();
    const [first, second] = [await account(a), await account(gone)];
    await gone.close();
    a.fail({ kind: 'status', status: 503, method: 'PUT', path: '/cob/' });
    const res = await create(await merchantRoutedTo(first, second));
    expect(res.status).toBe(502);
    expect(res.body.provider).toBe('pix-api');
    expect(res.error).toMatchObject({ code: 'PAYMENT_CREATE_FAILED', upstream_status: 503 });
  });

  it('does not fall back when the PSP rejects the payment itself (a validation 4xx)', async () => {
    const [first, second] = [await account(a), await account(b)];
    const apiKey = await merchantRoutedTo(first, second);
    const before = creates(b);
    a.fail({ kind: 'problem', status: 400, method: 'PUT', path: '/cob/' });
    const res = await create(apiKey);
    expect(res.status).toBe(502);
    expect(res.error).toMatchObject({ code: 'PAYMENT_CREATE_FAILED', upstream_status: 400 });
    expect(creates(b)).toBe(before);
  });
});
