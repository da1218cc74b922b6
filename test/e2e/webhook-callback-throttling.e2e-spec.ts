import { pixApiAccountBody } from '../helpers/factories';
import { randomBytes } from 'node:crypto';
import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { http } from '../helpers/http';
import { startTestApp, TEST_ADMIN_TOKEN, TestApp } from '../helpers/test-app';
import { asFrom, expectRateLimited, newAddress } from '../helpers/throttling';

const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/**
 * A provider callback that confirms nothing is a failed authentication of its address, counted
 * with wrong keys and tokens: after 10 in a minute that address gets 429, before any PSP read.
 * (Behind one trusted proxy hop, so each test has an address of its own.)
 */
describe('callbacks that confirm nothing are throttled per client address', () => {
  let t: TestApp;
  let psp: PixApiPsp;
  let callbackPath: string;
  beforeAll(async () => {
    [t, psp] = await Promise.all([startTestApp({ env: { TRUST_PROXY: '1' } }), startPixApiPsp()]);
    const account = (await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp) })).data!;
    callbackPath = `/webhooks/pix-api/${account.id}/pix`;
  });
  afterAll(async () => {
    await Promise.all([t.close(), psp.close()]);
  });

  const forged = () => ({
    pix: [{ endToEndId: `E${randomBytes(16).toString('hex').slice(0, 31)}`, txid: randomBytes(16).toString('hex'), valor: '10.00', horario: new Date().toISOString() }],
  });

  it('answers 401 INVALID_SIGNATURE ten times, then 429 with Retry-After without asking the PSP; other addresses are unaffected', async () => {
    const address = newAddress();
    for (let i = 0; i < 10; i++) {
      const res = await http(t.url, 'POST', callbackPath, { body: forged(), headers: asFrom(address) });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('INVALID_SIGNATURE');
    }
    const reads = psp.requests.length;
    expectRateLimited(await http(t.url, 'POST', callbackPath, { body: forged(), headers: asFrom(address) }));
    expect(psp.requests.length).toBe(reads);
    // Counted with the address's other credentials: its admin token is refused too.
    expectRateLimited(await http(t.url, 'GET', '/admin/api/payments', { headers: asFrom(address, admin) }));

    const other = await http(t.url, 'POST', callbackPath, { body: forged(), headers: asFrom(newAddress()) });
    expect(other.status).toBe(401);
  });
});
