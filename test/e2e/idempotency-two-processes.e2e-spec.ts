import { paymentBody } from '../helpers/factories';
import { describeOn, startTestApp, TestApp } from '../helpers/test-app';

describeOn('postgres', 'two processes share one database')('idempotency across two gateway processes on one PostgreSQL', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp({ db: 'postgres' });
    // The second instance shares the first one's database and sandbox PSP.
    b = await startTestApp({ env: { DATABASE_URL: a.config.databaseUrl!.reveal(), SANDBOX_BASE_URL: `${a.url}/sandbox` } });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('creates exactly one payment when both race with one key', async () => {
    const shop = await a.newMerchant();
    const body = paymentBody();
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).merchant(shop.apiKey).POST('/v1/payments/create', { body, params: { header: { 'Idempotency-Key': 'cross-process' } } })),
    );
    expect(results.every((res) => res.status === 201 || res.status === 409)).toBe(true);
    expect(new Set(results.filter((res) => res.status === 201).map((res) => res.data!.id)).size).toBe(1);
    const [{ n }] = await a.dataSource.query('SELECT count(*) AS n FROM payments WHERE merchant_id = $1', [shop.merchant.id]);
    expect(Number(n)).toBe(1);
  });
});
