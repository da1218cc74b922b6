import { Payment } from '../../src/payments/payment.entity';
import { eventually } from '../helpers/eventually';
import { http } from '../helpers/http';
import { SandboxCharges } from '../helpers/sandbox-charges';
import { sandboxAuth, sandboxSettings, startTestApp, type TestApp } from '../helpers/test-app';

/**
 * The money invariant check's admin routes over HTTP (docs/operations.md, Money invariant check):
 * the admin guard, the envelopes, 202 for a run started, and the last run with its lines. What a
 * run finds, one run at a time and the daily run are the medium spec's (test/medium/money-invariant.spec.ts).
 */
describe('admin API: money invariant checks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('needs the admin token', async () => {
    expect((await http(t.url, 'POST', '/admin/api/invariant-checks')).status).toBe(401);
    expect((await http(t.url, 'GET', '/admin/api/invariant-checks/latest')).status).toBe(401);
  });

  it('answers 404 before the first run, then 202 with the run started, and the run with its lines once done', async () => {
    const none = await t.admin.GET('/admin/api/invariant-checks/latest');
    expect(none.status).toBe(404);
    expect(none.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND', message: 'No invariant check has run yet.' } });

    // A Pix the PSP took for a payment the gateway holds cancelled (its callback lost).
    const shop = await t.newMerchant();
    const charges = new SandboxCharges(sandboxSettings(t.config).baseUrl, sandboxAuth(t.config));
    const { payment, chargeId } = await charges.lostCharge(t, shop.merchant.id);
    expect((await charges.call('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' })).status).toBe(202);
    await t.dataSource.getRepository(Payment).update(payment.id, { status: 'cancelled' });

    const started = await t.admin.POST('/admin/api/invariant-checks');
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ success: true, request_id: expect.any(String), provider: expect.any(String) });
    expect(started.data).toMatchObject({ id: expect.stringMatching(/^ick_/), trigger: 'operator', status: 'running', finished_at: null, lines: [] });

    const done = await eventually(
      () => t.admin.GET('/admin/api/invariant-checks/latest'),
      (latest) => latest.data?.status !== 'running',
    );
    expect(done.status).toBe(200);
    expect(done.data).toMatchObject({ id: started.data!.id, status: 'completed', checked: 1, mismatches: 1, unverifiable: 0, failed: 0, error: null });
    expect(done.data!.lines).toEqual([
      {
        payment_id: payment.id,
        merchant_id: shop.merchant.id,
        provider: 'sandbox',
        provider_account_id: null,
        field: 'received',
        gateway_status: 'cancelled',
        psp_status: 'paid',
        gateway_amount: 0,
        psp_amount: 10.5,
        note: expect.stringContaining('R$ 10.50'),
        found_at: expect.any(String),
      },
    ]);
  });
});
