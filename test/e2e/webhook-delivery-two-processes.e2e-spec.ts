import { Client } from 'pg';
import { confirmPayment, DELIVERY_ENV } from '../helpers/deliveries';
import { eventually } from '../helpers/eventually';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { createTestPostgresDatabase, describeOn, startTestApp, TestApp } from '../helpers/test-app';

describeOn('postgres', 'two processes share one database')('two gateway processes on one PostgreSQL', () => {
  let db: { url: string; drop: () => Promise<void> };
  let a: TestApp;
  let b: TestApp;
  let receiver: MerchantReceiver;
  beforeAll(async () => {
    db = await createTestPostgresDatabase();
    // Both apps, the receiver and the test share one event loop here; the default 10 s timeout keeps
    // a busy loop from turning an answered attempt into a timeout (and a legitimate second send).
    const env = { ...DELIVERY_ENV, DELIVERY_TIMEOUT_MS: '10000', DELIVERY_LEASE_MS: '40000', DATABASE_URL: db.url };
    [a, b] = await Promise.all([startTestApp({ env }), startTestApp({ env })]);
    receiver = await MerchantReceiver.start();
  });
  afterAll(async () => {
    await receiver.close();
    await db.drop();
  });

  it('delivers each attempt once, with both workers claiming side by side', async () => {
    // The first attempt of every third event fails, so retries are claimed too, by either process.
    const seen = new Set<string>();
    receiver.respondWith((r) => {
      const first = !seen.has(r.body.id);
      seen.add(r.body.id);
      return { status: first && seen.size % 3 === 0 ? 500 : 200 };
    });
    const shop = await a.newMerchant({ webhookUrl: receiver.url });
    const payments = await Promise.all(Array.from({ length: 60 }, () => a.newPayment(shop.merchant.id)));
    await Promise.all(payments.map((p, i) => confirmPayment(i % 2 ? a : b, p.id)));
    await eventually(
      () => a.dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'delivered'`),
      (rows) => rows[0].n === payments.length,
      30_000,
    );
    // Closing both waits for attempts still in flight: a duplicate could not arrive after the count.
    await Promise.all([a.close(), b.close()]);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    const { rows: attempts } = await client.query(`SELECT delivery_id, attempt FROM webhook_delivery_attempts`);
    await client.end();

    // Two processes sending one attempt would both record it: one row per (delivery, attempt) proves each was sent once.
    expect(receiver.received).toHaveLength(attempts.length);
    expect(new Set(attempts.map((x) => `${x.delivery_id}/${x.attempt}`)).size).toBe(attempts.length);
    expect(receiver.received.filter((r) => r.status === 500)).toHaveLength(payments.length / 3);
    const successes = new Map<string, number>();
    for (const r of receiver.received.filter((x) => x.status === 200)) successes.set(r.body.id, (successes.get(r.body.id) ?? 0) + 1);
    expect(successes.size).toBe(payments.length);
    expect([...successes.values()].every((n) => n === 1)).toBe(true);
  });
});
