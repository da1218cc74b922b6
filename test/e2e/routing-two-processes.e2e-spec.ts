import { randomBytes } from 'node:crypto';
import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { adminClient, merchantClient } from '../helpers/clients';
import { eventually } from '../helpers/eventually';
import { pixApiAccountBody } from '../helpers/factories';
import { ensureBuilt, type GatewayProcess, startGatewayProcess } from '../helpers/gateway-process';
import { createTestPostgresDatabase, describeOn } from '../helpers/test-env';

/** Building and starting two gateway processes takes a while on a loaded machine. */
const SLOW_TEST_MS = 180_000;

/**
 * Issue 23: the same Idempotency-Key sent to a routed merchant from many requests at once, across
 * two gateway processes on one PostgreSQL, makes one payment and leaves one live charge in total,
 * even when the first PSP makes a charge and then answers 503 (the orphan is cancelled by the
 * processes' own orphan job).
 */
describeOn('postgres', 'two processes share one database')('routing across two gateway processes on one PostgreSQL', () => {
  let db: { url: string; drop: () => Promise<void> };
  let gateways: GatewayProcess[] = [];
  let a: PixApiPsp;
  let b: PixApiPsp;
  beforeAll(async () => {
    await ensureBuilt();
    [db, a, b] = await Promise.all([createTestPostgresDatabase(), startPixApiPsp(), startPixApiPsp()]);
    const env = { DATABASE_URL: db.url, UPSTREAM_TIMEOUT_MS: '1000', JOB_INTERVAL_MS: '300' };
    gateways = await Promise.all([startGatewayProcess(env), startGatewayProcess(env)]);
  }, SLOW_TEST_MS);
  afterAll(async () => {
    for (const gw of gateways) gw.kill('SIGKILL');
    await Promise.all(gateways.map((gw) => gw.exited));
    await Promise.all([a.close(), b.close()]);
    await db.drop();
  });

  const liveCharges = (psp: PixApiPsp) => [...psp.charges.values()].filter((charge: { status: string }) => charge.status === 'ATIVA').length;

  it(
    'many concurrent creates with one key make one payment and one live charge in total',
    async () => {
      const admin = adminClient(gateways[0]!.url);
      const first = (await admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(a, { name: 'Primeira' }) })).data!.id;
      const second = (await admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(b, { name: 'Segunda' }) })).data!.id;
      const { apiKey } = await admin.newMerchant({ provider_accounts: [first, second] });
      // Each process opens its TLS sessions and takes its tokens first (a check does both): a cold first call on a
      // loaded CI machine could pass the 1 s timeout before A stores its charge, which is not what this spec tests.
      for (const gw of gateways) {
        for (const id of [first, second]) {
          const check = await adminClient(gw.url).POST('/admin/api/provider-accounts/{id}/check', { params: { path: { id } } });
          expect(check.data).toMatchObject({ ok: true });
        }
      }
      const key = randomBytes(8).toString('hex');
      const body = { amount: 42, currency: 'BRL', recipientDocument: '123.456.789-09', recipientName: 'Ana Souza', externalId: `order-${key}` } as const;
      a.fail({ kind: 'status', status: 503, afterHandling: true, method: 'PUT', path: '/cob/' });

      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => merchantClient(gateways[i % 2]!.url, apiKey).POST('/v1/payments/create', { body, params: { header: { 'Idempotency-Key': key } } })),
      );
      // Anything else is listed with its code, so a failure says what came back.
      expect(results.filter((res) => res.status !== 201 && res.status !== 409).map((res) => [res.status, res.error?.code])).toEqual([]);
      const ids = new Set(results.filter((res) => res.status === 201).map((res) => res.data!.id));
      expect(ids.size).toBe(1);
      // Any request turned away with 409 gets the one payment when it asks again.
      const again = await merchantClient(gateways[1]!.url, apiKey).POST('/v1/payments/create', { body, params: { header: { 'Idempotency-Key': key } } });
      expect(again.status).toBe(201);
      expect(ids.has(again.data!.id)).toBe(true);

      // One charge per PSP at most (the txid is derived per account), and only B's stays live once the orphan job has run.
      expect(a.charges.size).toBe(1);
      expect(b.charges.size).toBe(1);
      const detail = await eventually(
        async () => (await admin.GET('/admin/api/payments/{id}', { params: { path: { id: again.data!.id } } })).data!,
        (payment) => payment.attempts.every((attempt) => attempt.orphan?.status !== 'pending'),
      );
      expect(detail.attempts.map((attempt) => [attempt.account_id, attempt.outcome, attempt.orphan?.status ?? null])).toEqual([
        [first, 'ambiguous', 'cancelled'],
        [second, 'charged', null],
      ]);
      expect(liveCharges(a) + liveCharges(b)).toBe(1);
      a.assertNoViolations();
      b.assertNoViolations();
    },
    SLOW_TEST_MS,
  );
});
