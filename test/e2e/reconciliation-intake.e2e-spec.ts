import { ReconciliationService } from '../../src/payments/payment-reconciliation.service';
import type { MerchantFixture } from '../helpers/factories';
import { FakeClock } from '../../src/testing/fake-clock';
import { http } from '../helpers/http';
import { SandboxCharges } from '../helpers/sandbox-charges';
import { sandboxAuth, sandboxSettings, startTestApp, TestApp, testDatabase } from '../helpers/test-app';

/**
 * Reconciliation racing events posted to the intake over HTTP, so on a booted app (its sandbox
 * mounted under /sandbox). ReconciliationService's own rules are a medium spec (test/medium/reconciliation.spec.ts).
 */
describe(`reconciliation against the HTTP intake (${testDatabase()} database)`, () => {
  let t: TestApp;
  let shop: MerchantFixture;
  let reconciliation: ReconciliationService;
  let charges: SandboxCharges;
  const clock = new FakeClock(new Date());
  beforeAll(async () => {
    t = await startTestApp({ clock });
    shop = await t.newMerchant({ webhookUrl: 'http://127.0.0.1:9/pix-hook' });
    reconciliation = t.app.get(ReconciliationService);
    charges = new SandboxCharges(sandboxSettings(t.config).baseUrl, sandboxAuth(t.config));
  });
  afterAll(() => t.close());

  /** A moment at which every payment created so far is old enough to be read back. */
  const later = () => new Date(Date.now() + (t.config.reconcileAfterSeconds + 1) * 1000);
  /** A reconciliation run with the gateway's clock at `at`. */
  const runAt = (at: Date) => {
    clock.set(at);
    return reconciliation.runOnce();
  };
  const sandbox = (method: string, path: string, body?: unknown) => charges.call(method, path, body);
  const lostCharge = () => charges.lostCharge(t, shop.merchant.id);
  const status = async (id: string) => (await t.dataSource.query(`SELECT status FROM payments WHERE id = $1`, [id]))[0].status;
  const events = (id: string) => t.dataSource.query(`SELECT type, source, outcome, forward, provider_event_id FROM payment_events WHERE payment_id = $1 ORDER BY created_at`, [id]);
  const deliveries = (id: string) => t.dataSource.query(`SELECT event_type, body FROM webhook_deliveries WHERE payment_id = $1`, [id]);

  it('is not blocked by events posted to the intake with the ids reconciliation would use', async () => {
    const { payment, chargeId } = await lostCharge();
    // Anyone who may post to the intake (unsigned sandbox events outside production) picks the ids;
    // each event is recorded (ignored or a mismatch), so its id is taken, and the payment stays pending.
    const forged = ['paid', 'expired', 'cancelled', 'failed', 'refunded'].map((to) => `reconcile:${payment.id}:${to}`);
    for (const id of forged) {
      const res = await http(t.url, 'POST', '/webhooks/sandbox', { body: { event: 'payment.confirmed', id, data: { id: payment.id, amount: 0.01 } } });
      expect({ id, status: res.status, applied: res.body.data?.applied }).toEqual({ id, status: 200, applied: false });
    }
    expect(await status(payment.id)).toBe('pending');

    await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    await runAt(later());
    expect(await status(payment.id)).toBe('paid');
    const applied = (await events(payment.id)).filter((e: { source: string }) => e.source === 'reconciliation');
    expect(applied).toEqual([expect.objectContaining({ type: 'payment.confirmed', outcome: 'applied', forward: 'queued' })]);
    expect(forged).not.toContain(applied[0].provider_event_id);
  });

  it('races the provider webhook on the same payment: paid once, one event applied, one forward', async () => {
    const lost = await Promise.all([lostCharge(), lostCharge(), lostCharge(), lostCharge()]);
    for (const { chargeId } of lost) await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    // The late webhook and the reconciliation run reach each payment at the same moment.
    const intake = lost.map(({ payment, chargeId }) =>
      http(t.url, 'POST', '/webhooks/sandbox', {
        body: { event: 'payment.confirmed', id: `evt_late_${chargeId}`, created_at: new Date().toISOString(), data: { id: payment.id, amount: 10.5 } },
      }),
    );
    const [summary, ...answers] = await Promise.all([runAt(later()), ...intake]);
    for (const answer of answers) expect(answer.status).toBe(200);
    // Who wins each race is timing: the run reads a payment back only if it claims it before its
    // webhook lands (a busy machine lets every webhook land first). Either way nothing fails.
    expect(summary.failed).toBe(0);
    expect(summary.checked).toBeLessThanOrEqual(lost.length);
    for (const { payment } of lost) {
      expect(await status(payment.id)).toBe('paid');
      const recorded = await events(payment.id);
      expect(recorded.filter((e: { outcome: string }) => e.outcome === 'applied')).toHaveLength(1);
      expect(await deliveries(payment.id)).toEqual([expect.objectContaining({ event_type: 'payment.confirmed' })]);
    }
  });
});
