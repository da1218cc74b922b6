import { randomBytes } from 'node:crypto';
import { startGatewayProcess } from '../helpers/gateway-process';
import { http } from '../helpers/http';
import { EMAIL, MISSING_PAYMENT, wrongKey } from '../helpers/throttling';

/** Failed authentication in the output of a gateway process. */
describe('failed authentication in the logs', () => {
  it('logs each failure at warn with address, credential kind and route, never the presented secret', async () => {
    const gw = await startGatewayProcess({ LOG_LEVEL: 'info' });
    try {
      const key = wrongKey();
      const token = `wrong-admin-token-${randomBytes(8).toString('hex')}`;
      const password = `wrong-password-${randomBytes(8).toString('hex')}`;
      expect((await http(gw.url, 'GET', MISSING_PAYMENT, { headers: { 'x-merchant-key': key } })).status).toBe(401);
      expect((await http(gw.url, 'GET', '/admin/api/payments', { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
      expect((await http(gw.url, 'POST', '/admin/api/session', { body: { email: EMAIL, password } })).status).toBe(401);
      const deadline = Date.now() + 5_000;
      const failures = (): Record<string, unknown>[] =>
        gw
          .output()
          .split('\n')
          .filter((line) => line.includes('Authentication failed'))
          .map((line) => JSON.parse(line));
      while (failures().length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(failures()).toEqual([
        expect.objectContaining({ level: 40, ip: '127.0.0.1', credential: 'merchant_key', method: 'GET', route: '/v1/payments/:id' }),
        expect.objectContaining({ level: 40, ip: '127.0.0.1', credential: 'admin_token', method: 'GET', route: '/admin/api/payments' }),
        expect.objectContaining({ level: 40, ip: '127.0.0.1', credential: 'dashboard_login', method: 'POST', route: '/admin/api/session' }),
      ]);
      for (const secret of [key, token, password]) expect(gw.output()).not.toContain(secret);
    } finally {
      gw.kill('SIGKILL');
      await gw.exited;
    }
  });
});
