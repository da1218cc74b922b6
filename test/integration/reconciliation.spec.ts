import { randomBytes } from 'node:crypto';
import { EXPIRY_GRACE_MS, ReconciliationService } from '../../src/reconciliation/reconciliation.service';
import { MerchantFixture } from '../helpers/factories';
import { FakeClock } from '../helpers/fake-clock';
import { http } from '../helpers/http';
import { sandboxAuth, sandboxSettings, startTestApp, TestApp, testDatabase } from '../helpers/test-app';

/** Where the sandbox "delivers" events in these specs: nowhere, as if the provider's webhook were lost. */
const LOST = 'http://127.0.0.1:9/webhooks/sandbox';

describe(`reconciliation (${testDatabase()} database)`, () => {
  let t: TestApp;
  let shop: MerchantFixture;
  let reconciliation: ReconciliationService;
  const clock = new FakeClock(new Date());
  beforeAll(async () => {
    t = await startTestApp({ clock });
    shop = await t.newMerchant({ webhookUrl: 'http://127.0.0.1:9/pix-hook' });
    reconciliation = t.app.get(ReconciliationService);
  });
  afterAll(() => t.close());

  /** A moment at which every payment created so far is old enough to be read back. */
  const later = () => new Date(Date.now() + (t.config.reconcileAfterSeconds + 1) * 1000);
  /** A reconciliation run with the gateway's clock at `at`. */
  const runAt = (at: Date) => {
    clock.set(at);
    return reconciliation.runOnce();
  };
  const sandbox = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    http(sandboxSettings(t.config).baseUrl, method, path, { body, headers: { ...sandboxAuth(t.config), ...headers } });

  /** A sandbox charge whose events go nowhere, and the gateway's pending payment for it. */
  async function lostCharge(options: { expiresIn?: number; expiresAt?: Date; createdAt?: Date } = {}) {
    const txid = randomBytes(16).toString('hex');
    const charge = await sandbox(
      'POST',
      '/charges',
      {
        txid,
        amount: '10.50',
        currency: 'BRL',
        description: null,
        externalId: `order-${txid.slice(0, 8)}`,
        debtor: { document: '12345678909', name: 'Ana Souza' },
        expiresIn: options.expiresIn ?? 3600,
        notificationUrl: LOST,
      },
      { 'idempotency-key': txid },
    );
    expect(charge.status).toBe(201);
    const payment = await t.newPayment(shop.merchant.id, {
      providerPaymentId: charge.body.id,
      txid,
      amountCents: 1050,
      expiresAt: options.expiresAt ?? new Date(charge.body.expiresAt),
      ...(options.createdAt ? { createdAt: options.createdAt } : {}),
    });
    return { payment, chargeId: charge.body.id as string };
  }
  const status = async (id: string) => (await t.dataSource.query(`SELECT status FROM payments WHERE id = $1`, [id]))[0].status;
  const events = (id: string) => t.dataSource.query(`SELECT type, source, outcome, forward, provider_event_id FROM payment_events WHERE payment_id = $1 ORDER BY created_at`, [id]);
  const deliveries = (id: string) => t.dataSource.query(`SELECT event_type, body FROM webhook_deliveries WHERE payment_id = $1`, [id]);

  it('confirms a payment whose confirmation webhook was lost, and forwards it once', async () => {
    const { payment, chargeId } = await lostCharge();
    const simulated = await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    expect(simulated.body.delivered).toBe(false);
    expect(await status(payment.id)).toBe('pending');

    await runAt(later());
    expect(await status(payment.id)).toBe('paid');
    expect(await events(payment.id)).toEqual([
      {
        type: 'payment.confirmed',
        source: 'reconciliation',
        outcome: 'applied',
        forward: 'queued',
        provider_event_id: expect.stringMatching(new RegExp(`^reconcile:${payment.id}:paid:[A-Za-z0-9_-]{43}$`)),
      },
    ]);
    expect(await deliveries(payment.id)).toEqual([
      expect.objectContaining({ event_type: 'payment.confirmed', body: expect.objectContaining({ data: expect.objectContaining({ status: 'paid' }) }) }),
    ]);
  });

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

  it('leaves a payment alone until it is old enough', async () => {
    const { payment, chargeId } = await lostCharge();
    await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    await runAt(new Date());
    expect(await status(payment.id)).toBe('pending');
    await runAt(later());
    expect(await status(payment.id)).toBe('paid');
  });

  it('expires a payment the provider reports expired, and forwards payment.expired', async () => {
    const { payment, chargeId } = await lostCharge();
    await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.expired' });
    await runAt(later());
    expect(await status(payment.id)).toBe('expired');
    expect(await deliveries(payment.id)).toEqual([expect.objectContaining({ event_type: 'payment.expired', body: expect.objectContaining({ event: 'payment.expired' }) })]);
  });

  it('expires a charge past its expires_at that the provider still calls pending', async () => {
    const { payment } = await lostCharge({ expiresAt: new Date(Date.now() - 10 * 60_000) });
    await runAt(new Date()); // past expiry: due at once, however young the payment is
    expect(await status(payment.id)).toBe('expired');
    expect(await events(payment.id)).toEqual([expect.objectContaining({ type: 'payment.expired', source: 'reconciliation', outcome: 'applied', forward: 'queued' })]);
    const [{ payload }] = await t.dataSource.query(`SELECT payload FROM payment_events WHERE payment_id = $1`, [payment.id]);
    expect(payload).toMatchObject({ charge: { status: 'pending' }, expiredByGateway: true });
  });

  it('takes a payment once the clock reaches RECONCILE_AFTER_SECONDS past its creation, and not a millisecond before', async () => {
    const createdAt = new Date();
    const { payment, chargeId } = await lostCharge({ createdAt });
    await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    const due = createdAt.getTime() + t.config.reconcileAfterSeconds * 1000;
    await runAt(new Date(due - 1));
    expect(await status(payment.id)).toBe('pending');
    await runAt(new Date(due));
    expect(await status(payment.id)).toBe('paid');
  });

  it('expires a young payment the provider calls pending once the clock passes its expiry plus the grace, and not before', async () => {
    const createdAt = new Date();
    const expiresAt = new Date(createdAt.getTime() + 1000);
    const due = expiresAt.getTime() + EXPIRY_GRACE_MS;
    expect(due).toBeLessThan(createdAt.getTime() + t.config.reconcileAfterSeconds * 1000); // still too young to be taken by age
    const { payment } = await lostCharge({ createdAt, expiresAt });
    await runAt(new Date(due - 1));
    expect(await status(payment.id)).toBe('pending');
    await runAt(new Date(due));
    expect(await status(payment.id)).toBe('expired');
    const [{ payload }] = await t.dataSource.query(`SELECT payload FROM payment_events WHERE payment_id = $1`, [payment.id]);
    expect(payload).toMatchObject({ charge: { status: 'pending' }, expiredByGateway: true });
  });

  it('is idempotent: later runs, and two runs at once, apply each change once', async () => {
    const lost = await Promise.all([lostCharge(), lostCharge(), lostCharge()]);
    for (const { chargeId } of lost) await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    const at = later();
    const [a, b] = await Promise.all([runAt(at), runAt(at)]);
    expect(a.checked + b.checked).toBe(lost.length); // each payment claimed by one run only
    await runAt(new Date(at.getTime() + 3600_000));
    for (const { payment } of lost) {
      expect(await status(payment.id)).toBe('paid');
      expect(await events(payment.id)).toHaveLength(1);
      expect(await deliveries(payment.id)).toHaveLength(1);
    }
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

  it('confirms then refunds a payment whose two webhooks were both lost', async () => {
    const { payment, chargeId } = await lostCharge();
    await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.refunded' });
    await runAt(later());
    expect(await status(payment.id)).toBe('refunded');
    expect((await events(payment.id)).map((e: { type: string }) => e.type)).toEqual(['payment.confirmed', 'payment.refunded']);
  });

  it('survives a failing provider and retries on the next run', async () => {
    const { payment, chargeId } = await lostCharge();
    await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    await sandbox('POST', '/_control/failures', { mode: 'http_503', count: 1000, operation: 'get' });
    try {
      const failed = await runAt(later());
      expect(failed.failed).toBeGreaterThan(0);
      expect(await status(payment.id)).toBe('pending');
    } finally {
      await sandbox('DELETE', '/_control/failures');
    }
    await runAt(later());
    expect(await status(payment.id)).toBe('paid');
  });

  it('keeps going when one payment cannot be applied: the others are reconciled, and the run reports it', async () => {
    const broken = await lostCharge();
    const fine = await Promise.all([lostCharge(), lostCharge(), lostCharge(), lostCharge(), lostCharge()]);
    for (const { chargeId } of [broken, ...fine]) await sandbox('POST', `/charges/${chargeId}/simulate`, { event: 'payment.confirmed' });
    // A database fault on this one payment's event, whatever the cause.
    await t.dataSource.query(`CREATE FUNCTION refuse_event() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$`);
    await t.dataSource.query(
      `CREATE TRIGGER refuse_event BEFORE INSERT ON payment_events FOR EACH ROW WHEN (NEW.payment_id = '${broken.payment.id}') EXECUTE FUNCTION refuse_event()`,
    );
    try {
      const summary = await runAt(later());
      expect(summary.failed).toBeGreaterThanOrEqual(1);
      for (const { payment } of fine) expect(await status(payment.id)).toBe('paid');
      expect(await status(broken.payment.id)).toBe('pending');
    } finally {
      await t.dataSource.query(`DROP TRIGGER refuse_event ON payment_events`);
      await t.dataSource.query(`DROP FUNCTION refuse_event()`);
    }
    await runAt(new Date(later().getTime() + (t.config.reconcileAfterSeconds + 1) * 1000));
    expect(await status(broken.payment.id)).toBe('paid');
  });
});
