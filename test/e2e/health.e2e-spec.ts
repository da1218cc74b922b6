import { Client } from 'pg';
import { eventually } from '../helpers/eventually';
import { http } from '../helpers/http';
import { describeOn, startTestApp, TestApp } from '../helpers/test-app';

/**
 * The embedded database runs inside the gateway's own process, so it cannot become unreachable
 * while the gateway stays up; only the PostgreSQL case is tested.
 */
describeOn('postgres', 'the embedded database cannot become unreachable')('GET /health when PostgreSQL becomes unreachable', () => {
  let t: TestApp;
  let admin: Client;
  let database: string;
  beforeAll(async () => {
    t = await startTestApp({ db: 'postgres' });
    database = new URL(t.config.databaseUrl!.reveal()).pathname.slice(1);
    admin = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`).catch(() => undefined);
    await admin?.end();
    await t?.close();
  });

  const health = () => http(t.url, 'GET', '/health');

  it('answers 503 SERVICE_UNAVAILABLE in the envelope while the database refuses connections, and 200 once it is back', async () => {
    expect((await health()).body).toEqual({ status: 'ok' });

    // Cut the gateway off: no new connections, and the ones it holds are closed by the server.
    await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS false`);
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [database]);

    const down = await eventually(health, (res) => res.status !== 200);
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      success: false,
      error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) },
      request_id: down.headers.get('x-request-id'),
      provider: expect.any(String),
    });
    // Still down on the next probe: the first 503 was not a one-off broken connection.
    expect((await health()).status).toBe(503);

    await admin.query(`ALTER DATABASE ${database} ALLOW_CONNECTIONS true`);
    const up = await eventually(health, (res) => res.status === 200);
    expect(up.body).toEqual({ status: 'ok' });
  });
});
