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
  let recurringPath: string;
  beforeAll(async () => {
    [t, psp] = await Promise.all([startTestApp({ env: { TRUST_PROXY: '1' } }), startPixApiPsp()]);
    const receiver_account = { agencia: '0001', conta: '123456', tipoConta: 'CORRENTE' } as const;
    const account = (await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp, { receiver_account }) })).data!;
    callbackPath = `/webhooks/pix-api/${account.id}/pix`;
    recurringPath = `/webhooks/pix-api/${account.id}/rec`;
  });
  afterAll(async () => {
    await Promise.all([t.close(), psp.close()]);
  });

  const forged = () => ({
    pix: [{ endToEndId: `E${randomBytes(16).toString('hex').slice(0, 31)}`, txid: randomBytes(16).toString('hex'), valor: '10.00', horario: new Date().toISOString() }],
  });
  const forgedRecurrence = () => ({ recs: [{ idRec: `RR1234567820240115${randomBytes(6).toString('hex').slice(0, 11)}`, status: 'APROVADA', atualizacao: [] }] });

  it('answers 401 INVALID_SIGNATURE ten times, then 429 with Retry-After without asking the PSP; other addresses are unaffected', async () => {
    const address = newAddress();
    for (let i = 0; i < 10; i++) {
      // Pix callbacks and recurring ones count together.
      const res =
        i % 2
          ? await http(t.url, 'POST', recurringPath, { body: forgedRecurrence(), headers: asFrom(address) })
          : await http(t.url, 'POST', callbackPath, { body: forged(), headers: asFrom(address) });
      expect([res.status, res.body.error.code]).toEqual([401, 'INVALID_SIGNATURE']);
    }
    const reads = psp.requests.length;
    expectRateLimited(await http(t.url, 'POST', callbackPath, { body: forged(), headers: asFrom(address) }));
    expectRateLimited(await http(t.url, 'POST', recurringPath, { body: forgedRecurrence(), headers: asFrom(address) }));
    expect(psp.requests.length).toBe(reads);
    // Counted with the address's other credentials: its admin token is refused too.
    expectRateLimited(await http(t.url, 'GET', '/admin/api/payments', { headers: asFrom(address, admin) }));

    const other = await http(t.url, 'POST', callbackPath, { body: forged(), headers: asFrom(newAddress()) });
    expect(other.status).toBe(401);
  });

  it('counts forged callbacks sent at once one by one: ten are 401, the rest 429', async () => {
    const address = newAddress();
    const answers = await Promise.all(Array.from({ length: 15 }, () => http(t.url, 'POST', callbackPath, { body: forged(), headers: asFrom(address) })));
    const codes = answers.map((res) => res.body.error.code as string).sort();
    expect(codes).toEqual([...Array<string>(10).fill('INVALID_SIGNATURE'), ...Array<string>(5).fill('RATE_LIMITED')]);
    for (const res of answers.filter((answer) => answer.status === 429)) expectRateLimited(res);
  });
});
