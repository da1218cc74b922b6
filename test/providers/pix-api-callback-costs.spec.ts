import { randomBytes } from 'node:crypto';
import type { Account, InboundCallback } from '../../src/providers/provider-adapter';
import { UpstreamError, WebhookAuthError } from '../../src/providers/provider-adapter';
import type { PixApiCredentials } from '../../src/providers/pix-api/credentials';
import { PixApiAdapter } from '../../src/providers/pix-api/pix-api.adapter';
import { PIX_API } from '../../src/providers/pix-api/profile';
import { HttpTransport } from '../../src/providers/transport/http-transport';
import { type OutboundAnswer, type OutboundRequest, OutboundTransport } from '../../src/providers/transport/transport';
import { testPki } from '../../src/testing/certificates';
import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { eventually } from '../helpers/eventually';
import { chargeRequest } from '../helpers/factories';
import { FakeClock } from '../../src/testing/fake-clock';

/*
 * What callbacks anyone can post, and refusals of the PSP, cost: counted at the fake PSP over real
 * HTTPS. A callback is paid for by nobody but its caller.
 */

const pki = testPki();
const PIX_KEY = 'recebedor@example.com';

/** The real transport, with every request it is given kept (lane, signal) and whether it came after `mark`. */
class RecordingTransport extends OutboundTransport {
  readonly inner = new HttpTransport();
  readonly sent: { label: string; lane: string | undefined; signal: AbortSignal | undefined; afterMark: boolean }[] = [];
  /** Exchanges the transport has not finished, whether or not their caller still waits. */
  pending = 0;
  private marked = false;

  mark(): void {
    this.marked = true;
  }

  send(request: OutboundRequest): Promise<OutboundAnswer> {
    this.sent.push({ label: request.label, lane: request.channel.lane, signal: request.signal, afterMark: this.marked });
    this.pending++;
    const exchange = this.inner.send(request);
    const done = () => this.pending--;
    exchange.then(done, done);
    return exchange;
  }

  close(): void {
    this.inner.close();
  }
}

/** A callback of `count` Pix the PSP never saw. */
function forged(count: number): InboundCallback {
  const pix = Array.from({ length: count }, () => ({
    endToEndId: `E${randomBytes(16).toString('hex').slice(0, 31)}`,
    txid: `forged${randomBytes(12).toString('hex')}`,
    valor: '10.00',
    horario: new Date().toISOString(),
  }));
  return { method: 'POST', path: '/pix', query: {}, headers: { 'content-type': 'application/json' }, rawBody: Buffer.from(JSON.stringify({ pix })) };
}

async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

describe('what callbacks and refusals cost at the PSP (Pix API)', () => {
  let psp: PixApiPsp;
  let transport: RecordingTransport;
  let clock: FakeClock;
  let adapter: PixApiAdapter;
  let account: Account<PixApiCredentials>;
  const reads = () => psp.requests.filter((r) => r.path !== '/oauth/token').length;
  const credentials = (secret: string) =>
    adapter.parseCredentials({ client_id: psp.clientId, client_secret: secret, certificate_pem: pki.client.cert, private_key_pem: pki.client.key, ca_pem: pki.ca.cert }, account);

  beforeAll(async () => {
    psp = await startPixApiPsp();
  });
  beforeEach(() => {
    transport = new RecordingTransport();
    clock = new FakeClock(new Date());
    adapter = new PixApiAdapter(transport, PIX_API, { clock, timeoutMs: 8_000, checkTimeoutMs: 8_000 });
    const settings = { environment: 'sandbox' as const, baseUrl: psp.url, tokenUrl: psp.tokenUrl, pixKey: PIX_KEY };
    account = { id: `pa_costs_${randomBytes(4).toString('hex')}`, provider: 'pix-api', ...settings, credentials: undefined as unknown as PixApiCredentials };
    account.credentials = credentials(psp.clientSecret);
  });
  afterEach(async () => {
    psp.reset();
    // Held exchanges end before the next test counts anything.
    await eventually(
      () => transport.pending + psp.openRequests,
      (open) => open === 0,
    );
    psp.reset();
    adapter.close();
    transport.close();
    psp.assertNoViolations();
  });
  afterAll(async () => {
    await psp.close();
  });

  it('a barrage of forged callbacks (4 × 100 invented Pix) costs two reads each, and each is refused', async () => {
    await adapter.getCharge(account, { txid: 'a'.repeat(26), providerPaymentId: 'x' }).catch(() => undefined); // the token, out of the count
    const before = reads();
    const results = await Promise.all(Array.from({ length: 4 }, () => failure(adapter.receiveCallback(account, forged(100)))));
    for (const result of results) expect(result).toBeInstanceOf(WebhookAuthError);
    // Two GET /pix each (the first window), none of them known: no GET /cob at all.
    expect(reads() - before).toBe(8);
  });

  it('a genuine batch is read whole: every entry confirmed, two reads each', async () => {
    const charges = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => adapter.createCharge(account, chargeRequest('https://example.com/h', { amountCents: n * 100 }))));
    const paid = await Promise.all(charges.map(async (charge) => (await psp.pay(charge.txid, { postCallback: false })).pix));
    const body = { pix: paid.map((pix) => ({ endToEndId: pix.endToEndId, txid: pix.txid, valor: pix.valor, horario: pix.horario })) };
    const before = reads();
    const events = await adapter.receiveCallback(account, { method: 'POST', path: '/pix', query: {}, headers: {}, rawBody: Buffer.from(JSON.stringify(body)) });
    expect(events.map((event) => event.amountCents)).toEqual([100, 200, 300, 400, 500, 600]);
    expect(reads() - before).toBe(12);
  });

  it('reads back on the callbacks lane, at most 4 at once for the account, all its callbacks together', async () => {
    psp.fail({ kind: 'slow', delayMs: 300, times: 16, path: /\/pix\// });
    await Promise.all(Array.from({ length: 4 }, () => failure(adapter.receiveCallback(account, forged(10)))));
    expect(psp.peakOpenRequests).toBeLessThanOrEqual(4);
    const readBacks = transport.sent.filter((s) => s.label.endsWith('read pix'));
    expect(readBacks.length).toBeGreaterThan(0);
    expect(new Set(readBacks.map((s) => s.lane))).toEqual(new Set(['callbacks']));
  });

  it('a failing read aborts its siblings: the callback is answered at once and nothing it started goes on', async () => {
    const charges = await Promise.all([1000, 2000, 3000, 4000].map((amountCents) => adapter.createCharge(account, chargeRequest('https://example.com/h', { amountCents }))));
    const paid = await Promise.all(charges.map(async (charge) => (await psp.pay(charge.txid, { postCallback: false })).pix));
    const body = { pix: paid.map((pix) => ({ endToEndId: pix.endToEndId, txid: pix.txid, valor: pix.valor, horario: pix.horario })) };
    const callback: InboundCallback = { method: 'POST', path: '/pix', query: {}, headers: {}, rawBody: Buffer.from(JSON.stringify(body)) };
    // The first read fails at once; the second is held well past the answer.
    psp.fail({ kind: 'status', status: 503, path: new RegExp(`/pix/${paid[0]!.endToEndId}$`) });
    psp.fail({ kind: 'slow', delayMs: 1_500, path: new RegExp(`/pix/${paid[1]!.endToEndId}$`) });
    const error = await failure(adapter.receiveCallback(account, callback));
    transport.mark();
    expect(error).toMatchObject({ kind: 'http', upstreamStatus: 503 });
    const readBacks = transport.sent.filter((s) => s.label.endsWith('read pix'));
    expect(readBacks.length).toBeGreaterThan(0);
    expect(readBacks.every((s) => s.signal?.aborted === true)).toBe(true);
    // Once every exchange it started is over (the held one included, where the transport lets it
    // run), the callback has started nothing more.
    await eventually(
      () => transport.pending,
      (pending) => pending === 0,
    );
    expect(transport.sent.filter((s) => s.afterMark)).toEqual([]);
  });

  it('a refused token request is not repeated for 30 s: calls meanwhile fail at once with the same error', async () => {
    const wrong = { ...account, credentials: credentials('not-the-secret') };
    const before = psp.tokenRequests;
    const first = await failure(adapter.receiveCallback(wrong, forged(1)));
    expect(first).toMatchObject({ kind: 'http', upstreamStatus: 401 });
    for (let i = 0; i < 3; i++) expect(await failure(adapter.receiveCallback(wrong, forged(1)))).toBe(first);
    expect(psp.tokenRequests - before).toBe(1);
    clock.advance(30_000);
    await failure(adapter.receiveCallback(wrong, forged(1)));
    expect(psp.tokenRequests - before).toBe(2);
  });

  it('honours a 429: no call on that lane until its Retry-After has passed, calls meanwhile fail at once as 429', async () => {
    const charge = await adapter.createCharge(account, chargeRequest('https://example.com/h'));
    psp.fail({ kind: 'status', status: 429, headers: { 'retry-after': '20' }, path: /\/cob\// });
    const lookup = { txid: charge.txid, providerPaymentId: charge.providerPaymentId };
    expect(await failure(adapter.getCharge(account, lookup))).toMatchObject({ kind: 'http', upstreamStatus: 429 });
    const before = psp.requests.length;
    expect(await failure(adapter.getCharge(account, lookup))).toMatchObject({ kind: 'http', upstreamStatus: 429 });
    expect(await failure(adapter.createCharge(account, chargeRequest('https://example.com/h')))).toBeInstanceOf(UpstreamError);
    expect(psp.requests.length).toBe(before);
    clock.advance(20_000);
    await expect(adapter.getCharge(account, lookup)).resolves.toMatchObject({ txid: charge.txid });
  });

  it('check() obtains a new token every time: credentials patched to a wrong secret are not ok', async () => {
    const before = psp.tokenRequests;
    await expect(adapter.check(account)).resolves.toMatchObject({ ok: true });
    await expect(adapter.check(account)).resolves.toMatchObject({ ok: true });
    expect(psp.tokenRequests - before).toBe(2);
    const patched = { ...account, credentials: credentials('not-the-secret') };
    await expect(adapter.check(patched)).resolves.toMatchObject({ ok: false, detail: expect.stringContaining('401') });
  });

  it('a token is not shared by credentials that differ in their secret only', async () => {
    const charge = await adapter.createCharge(account, chargeRequest('https://example.com/h'));
    const patched = { ...account, credentials: credentials('not-the-secret') };
    await expect(failure(adapter.getCharge(patched, { txid: charge.txid, providerPaymentId: charge.providerPaymentId }))).resolves.toMatchObject({ upstreamStatus: 401 });
  });
});
