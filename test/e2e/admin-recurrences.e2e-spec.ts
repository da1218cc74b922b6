import { randomUUID } from 'node:crypto';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import { Recurrence } from '../../src/recurrences/recurrence.entity';
import { testPki } from '../../src/testing/certificates';
import { http } from '../helpers/http';
import { startTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/test-app';
import { adminRecurrenceFixtures } from '../helpers/admin-recurrence-fixtures';

/**
 * The operator's side of Pix Automático over HTTP (docs/dashboard.md, Recurrences): the list's
 * filters, 404s, the merchant's cancel made by the operator, a test PSP's simulations, the admin
 * token. What the list and one recurrence's page show is test/medium/admin-recurrences.spec.ts.
 */
describe('admin API: recurrences', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  let fixtures: ReturnType<typeof adminRecurrenceFixtures>;
  beforeAll(() => {
    fixtures = adminRecurrenceFixtures(t);
  });
  const newRecurrence: typeof fixtures.newRecurrence = (...args) => fixtures.newRecurrence(...args);
  const newCharge: typeof fixtures.newCharge = (...args) => fixtures.newCharge(...args);

  const admin = () => t.admin;

  describe('GET /admin/api/recurrences', () => {
    it('filters by merchant, status and external id; a status it does not know is a 400 naming it', async () => {
      const ana = await t.newMerchant();
      const active = await newRecurrence(ana.merchant.id, { externalId: 'gym-ana-1' });
      const pending = await newRecurrence(ana.merchant.id, { status: 'pending_authorization', externalId: 'gym-ana-2' });
      await newRecurrence((await t.newMerchant()).merchant.id, { externalId: 'gym-ana-1' });

      const ids = async (query: { merchant_id?: string; status?: 'active' | 'pending_authorization'; external_id?: string }) =>
        (await admin().GET('/admin/api/recurrences', { params: { query } })).data!.items.map((r) => r.id);
      expect(await ids({ merchant_id: ana.merchant.id })).toEqual([pending.id, active.id]);
      expect(await ids({ merchant_id: ana.merchant.id, status: 'active' })).toEqual([active.id]);
      expect(await ids({ merchant_id: ana.merchant.id, external_id: 'gym-ana-2' })).toEqual([pending.id]);
      expect(await ids({ external_id: 'gym-ana-1' })).toHaveLength(2);

      const bad = await http(t.url, 'GET', '/admin/api/recurrences?status=paid', { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      expect(bad).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_ERROR', details: { fields: [{ field: 'status' }] } } } });
    });
  });

  describe('GET /admin/api/recurrences/:id', () => {
    it('is 404 for an unknown id and for an id of another kind', async () => {
      for (const id of ['rec_000000000000000000000000', 'pay_000000000000000000000000', 'nonsense']) {
        const res = await admin().GET('/admin/api/recurrences/{id}', { params: { path: { id } } });
        expect({ id, status: res.status, code: res.error?.code }).toEqual({ id, status: 404, code: 'NOT_FOUND' });
      }
    });
  });

  describe('POST /admin/api/recurrences/:id/cancel', () => {
    it('refuses an ended, rejected or expired recurrence (409), and answers one already cancelled as it is, calling no PSP', async () => {
      const { merchant } = await t.newMerchant();
      for (const status of ['ended', 'rejected', 'expired'] as const) {
        const done = await newRecurrence(merchant.id, { status });
        const res = await admin().POST('/admin/api/recurrences/{id}/cancel', { params: { path: { id: done.id } } });
        expect({ status, answer: res.status, code: res.error?.code }).toEqual({ status, answer: 409, code: 'PAYMENT_STATE_CONFLICT' });
      }
      const cancelled = await newRecurrence(merchant.id, { status: 'cancelled', cancelledBy: 'payer' });
      const again = await admin().POST('/admin/api/recurrences/{id}/cancel', { params: { path: { id: cancelled.id } } });
      expect(again.status).toBe(200);
      expect(again.data).toMatchObject({ id: cancelled.id, status: 'cancelled', cancelledBy: 'payer', can_cancel: false });
    });

    it('is 404 for an unknown recurrence', async () => {
      const res = await admin().POST('/admin/api/recurrences/{id}/cancel', { params: { path: { id: 'rec_000000000000000000000000' } } });
      expect(res).toMatchObject({ status: 404, error: { code: 'NOT_FOUND' } });
    });
  });

  describe('simulations', () => {
    /** A recurrence at a stored `pix-api` account (nothing is connected to): a real PSP, which never simulates. */
    async function atRealPsp(): Promise<Recurrence> {
      const pki = testPki();
      const account = await admin().POST('/admin/api/provider-accounts', {
        body: {
          name: 'Banco',
          provider: 'pix-api',
          environment: 'sandbox',
          base_url: 'https://8.8.8.8/api/v2',
          token_url: 'https://8.8.8.8/oauth/token',
          pix_key: 'recebedor@example.com',
          credentials: { client_id: 'client-1', client_secret: 'secret-1', certificate_pem: pki.client.cert, private_key_pem: pki.client.key },
        },
      });
      expect(account.status).toBe(201);
      const { merchant } = await t.newMerchant();
      return newRecurrence(merchant.id, { provider: 'pix-api', providerAccountId: account.data!.id, status: 'pending_authorization' });
    }

    it('refuses, 409 CONFLICT, a recurrence or charge whose provider cannot simulate, and changes nothing', async () => {
      const recurrence = await atRealPsp();
      const charge = await newCharge(recurrence);
      const detail = await admin().GET('/admin/api/recurrences/{id}', { params: { path: { id: recurrence.id } } });
      expect(detail.data!.can_simulate).toBe(false);

      const onRecurrence = await admin().POST('/admin/api/recurrences/{id}/simulate', { params: { path: { id: recurrence.id } }, body: { action: 'authorize' } });
      expect(onRecurrence).toMatchObject({ status: 409, error: { code: 'CONFLICT', message: expect.stringContaining('pix-api') } });
      const onCharge = await admin().POST('/admin/api/recurring-charges/{id}/simulate', { params: { path: { id: charge.id } }, body: { action: 'settle' } });
      expect(onCharge).toMatchObject({ status: 409, error: { code: 'CONFLICT' } });
      const rows = await t.dataSource.query('SELECT r.status, c.status AS charge FROM recurrences r JOIN recurring_charges c ON c.recurrence_id = r.id WHERE r.id = $1', [
        recurrence.id,
      ]);
      expect(rows).toEqual([{ status: 'pending_authorization', charge: 'scheduled' }]);
    });

    it('refuses an action it does not know (400 naming it), and an unknown recurrence or charge (404)', async () => {
      const { merchant } = await t.newMerchant();
      const recurrence = await newRecurrence(merchant.id);
      const bad = await http(t.url, 'POST', `/admin/api/recurrences/${recurrence.id}/simulate`, {
        body: { action: 'settle' },
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
      });
      expect(bad).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_ERROR', details: { fields: [{ field: 'action' }] } } } });
      const missing = await admin().POST('/admin/api/recurrences/{id}/simulate', { params: { path: { id: 'rec_000000000000000000000000' } }, body: { action: 'authorize' } });
      expect(missing).toMatchObject({ status: 404, error: { code: 'NOT_FOUND' } });
      const noCharge = await admin().POST('/admin/api/recurring-charges/{id}/simulate', { params: { path: { id: 'rch_000000000000000000000000' } }, body: { action: 'fail' } });
      expect(noCharge).toMatchObject({ status: 404, error: { code: 'NOT_FOUND' } });
    });

    it('through the sandbox: authorize, then settle a charge, then cancel, each applied through the intake and shown on the page', async () => {
      const { merchant, apiKey } = await t.newMerchant({ provider: 'sandbox' });
      const today = brasiliaDate(new Date());
      const created = await t.merchant(apiKey).POST('/v1/recurrences', {
        params: { header: { 'Idempotency-Key': randomUUID() } },
        body: {
          externalId: 'gym-sim',
          payer: { document: '12345678909', name: 'Ana Souza' },
          contract: { id: 'plan-gold', description: 'Gym membership' },
          frequency: 'monthly',
          amount: 89.9,
          startDate: addDays(today, 3),
        },
      });
      expect(created.status).toBe(201);
      const id = created.data!.id;
      const before = await admin().GET('/admin/api/recurrences/{id}', { params: { path: { id } } });
      expect(before.data).toMatchObject({
        merchant_id: merchant.id,
        status: 'pending_authorization',
        can_simulate: true,
        can_cancel: true,
        authorization: { qrCodePng: expect.any(String) },
      });

      const authorized = await admin().POST('/admin/api/recurrences/{id}/simulate', { params: { path: { id } }, body: { action: 'authorize' } });
      expect(authorized.status).toBe(200);
      expect(authorized.data).toMatchObject({ simulation: { delivered: true }, recurrence: { status: 'active', authorization: null } });
      expect(authorized.data!.recurrence.events.map((e) => e.type)).toContain('recurrence.authorized');
      // What the payer can no longer do, the PSP refuses, and the operator reads its reason; nothing changes.
      const again = await admin().POST('/admin/api/recurrences/{id}/simulate', { params: { path: { id } }, body: { action: 'reject' } });
      expect(again).toMatchObject({ status: 502, error: { code: 'UPSTREAM_ERROR', upstream_status: 409, details: { provider_message: expect.any(String) } } });
      expect((await admin().GET('/admin/api/recurrences/{id}', { params: { path: { id } } })).data!.status).toBe('active');

      const charge = await t.merchant(apiKey).POST('/v1/recurrences/{id}/charges', {
        params: { path: { id }, header: { 'Idempotency-Key': randomUUID() } },
        body: { dueDate: addDays(today, 3) },
      });
      expect(charge.status).toBe(201);
      const settled = await admin().POST('/admin/api/recurring-charges/{id}/simulate', { params: { path: { id: charge.data!.id } }, body: { action: 'settle' } });
      expect(settled.status).toBe(200);
      expect(settled.data!.simulation.delivered).toBe(true);
      expect(settled.data!.recurrence.charges).toMatchObject([{ id: charge.data!.id, status: 'paid' }]);

      const cancelled = await admin().POST('/admin/api/recurrences/{id}/cancel', { params: { path: { id } } });
      expect(cancelled.data).toMatchObject({ status: 'cancelled', cancelledBy: 'merchant', can_cancel: false });
      const read = await t.merchant(apiKey).GET('/v1/recurrences/{id}', { params: { path: { id } } });
      expect(read.data).toMatchObject({ status: 'cancelled', cancelledBy: 'merchant' });
    });
  });

  it('requires the admin token or session on every route', async () => {
    const { merchant } = await t.newMerchant();
    const recurrence = await newRecurrence(merchant.id);
    const charge = await newCharge(recurrence);
    const calls: [string, string, unknown?][] = [
      ['GET', '/admin/api/recurrences'],
      ['GET', `/admin/api/recurrences/${recurrence.id}`],
      ['POST', `/admin/api/recurrences/${recurrence.id}/cancel`],
      ['POST', `/admin/api/recurrences/${recurrence.id}/simulate`, { action: 'authorize' }],
      ['POST', `/admin/api/recurring-charges/${charge.id}/simulate`, { action: 'settle' }],
    ];
    for (const [method, path, body] of calls) {
      const res = await http(t.url, method, path, body === undefined ? {} : { body });
      expect({ method, path, status: res.status, code: (res.body as { error?: { code?: string } }).error?.code }).toEqual({ method, path, status: 401, code: 'UNAUTHORIZED' });
    }
    const read = await t.dataSource.getRepository(Recurrence).findOneByOrFail({ id: recurrence.id });
    expect(read.status).toBe('active');
  });
});
