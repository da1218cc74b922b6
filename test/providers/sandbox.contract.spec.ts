import { randomBytes } from 'node:crypto';
import { Secret } from '../../src/config/app-config';
import { centsToDecimalString } from '../../src/domain/money';
import { type InboundCallback, type ProviderCharge, type ProviderRefund, UpstreamError } from '../../src/providers/provider-adapter';
import type { SandboxCredentials } from '../../src/providers/sandbox/credentials';
import { SandboxAdapter } from '../../src/providers/sandbox/sandbox.adapter';
import type { SandboxSettings } from '../../src/providers/sandbox/settings';
import { startSandboxServer } from '../../src/sandbox-psp/standalone';
import { HttpTransport } from '../../src/providers/transport/http-transport';
import { chargeRequest } from '../helpers/factories';
import { adapterScenarios, type ScenarioFailure, type ScenarioFeatures, type ScenarioSetup } from './adapter-scenarios';
import { WebhookReceiver } from './webhook-receiver';
import type { ProviderEventType } from '../../src/domain/provider-event';
import { parsePix } from 'pix-utils';

/**
 * The simulated PSP charges (due-date charges and their batches too), reads, cancels, refunds (its portal's and MED returns told apart) and signs its events;
 * it neither puts several payments in one callback nor uses tokens or mTLS.
 */
const SANDBOX_FEATURES: ScenarioFeatures = {
  refund: true,
  cancel: true,
  medReturns: true,
  namesGatewayRefunds: true,
  registerWebhook: false,
  mutualTls: false,
  providerIdIsTxid: false,
  dynamicBrCode: false,
  // The sandbox's paying Pix is tested below: its payer is the charge's recipient, not pay()'s.
  payerDetails: false,
  ownPayer: true,
  batches: false,
  tokens: false,
  dueCharges: true,
  chargeBatches: true,
};
const TIMEOUT_MS = 8_000;
const IMPATIENT_MS = 400;
const FAILURE_MODES: Record<ScenarioFailure, string> = { http_503: 'http_503', problem_400: 'http_400', timeout: 'timeout', malformed: 'malformed', down: 'reset' };

interface SandboxFixture extends ScenarioSetup<SandboxCredentials> {
  /** Makes `type` happen to the charge; resolves with the callback the sandbox posted, as the gateway received it. */
  event(charge: ProviderCharge, type: ProviderEventType, amountCents?: number): Promise<InboundCallback>;
  /** The next callback the sandbox posts (or has posted and nobody took yet). */
  received(): Promise<InboundCallback>;
  /** A sandbox control or API call with the sandbox's token; throws on a non-2xx. */
  control(method: string, path: string, body?: unknown): Promise<unknown>;
  /** Where the sandbox listens, and the header that lets a caller in. */
  url: string;
  auth: Record<string, string>;
}

/**
 * The sandbox PSP started alone on a free port, as `npm run sandbox` runs it, and the adapter pointed at it with a stored account of its own secret (or none).
 * Refunds settle only when the test says so unless `refundSettleDelayMs` is given.
 */
async function startSandbox(webhookSecret: string | undefined, refundSettleDelayMs: number | null = null): Promise<SandboxFixture> {
  let offset = 0;
  // The scenarios' batches settle on their first read unless held (holdBatch), and refuse only the charges named (refuseInBatch).
  let heldReads = 0;
  const refusals = new Set<string>();
  const batchHooks = {
    heldReads: () => {
      const reads = heldReads;
      heldReads = 0;
      return reads;
    },
    refuses: (txid: string) => refusals.delete(txid),
  };
  const sandbox = await startSandboxServer({ port: 0, logLevel: 'silent', now: () => Date.now() + offset, refundSettleDelayMs, batchHooks });
  const receiver = await new WebhookReceiver().start();
  const auth = { authorization: `Bearer ${sandbox.apiToken}` };
  // The adapter is given the sandbox's token as SANDBOX_API_TOKEN would give it.
  const settings: SandboxSettings = { enabled: false, baseUrl: sandbox.url, apiToken: new Secret(sandbox.apiToken) };
  const transport = new HttpTransport();
  const adapter = new SandboxAdapter(transport, settings, { isProduction: false, timeoutMs: TIMEOUT_MS });
  const impatient = new SandboxAdapter(transport, settings, { isProduction: false, timeoutMs: IMPATIENT_MS });
  const builtIn = adapter.builtInAccount();
  const account = { ...builtIn, id: 'pa_sandbox_contract', credentials: adapter.parseCredentials(webhookSecret ? { webhook_secret: webhookSecret } : {}, builtIn) };
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...auth },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`sandbox ${path} answered ${res.status}: ${await res.text()}`);
    return res.status === 204 ? undefined : await res.json();
  };
  const received = async (): Promise<InboundCallback> => {
    const hook = await receiver.next();
    return { method: 'POST', path: '', query: {}, headers: hook.headers, rawBody: hook.rawBody };
  };
  const event = async (charge: ProviderCharge, type: ProviderEventType, amountCents?: number) => {
    await control('POST', `/charges/${charge.providerPaymentId}/simulate`, { event: type, amount: amountCents === undefined ? undefined : centsToDecimalString(amountCents) });
    return received();
  };
  const settleRefund = async (_endToEndId: string, refund: ProviderRefund, outcome: 'succeeded' | 'failed') => {
    await control('POST', `/_control/refunds/${refund.providerRefundId}/settle`, { status: outcome === 'succeeded' ? 'DEVOLVIDO' : 'NAO_REALIZADO' });
    return received();
  };
  const refundOutside = async (charge: ProviderCharge, _endToEndId: string, amountCents: number, how: 'portal' | 'med') => {
    await control('POST', `/_control/charges/${charge.providerPaymentId}/refunds`, { origin: how, amount: centsToDecimalString(amountCents) });
    return received();
  };
  let stopped = false;
  return {
    adapter,
    impatient,
    account,
    webhookUrl: receiver.url,
    clock: { advance: (ms) => void (offset += ms), reset: () => void (offset = 0) },
    event,
    received,
    control,
    url: sandbox.url,
    auth,
    psp: {
      pay: async (charge, _payer, amountCents) => ({ endToEndId: null, callback: await event(charge, 'payment.confirmed', amountCents) }),
      settleRefund,
      refundOutside,
      forge(callback, how) {
        const body = JSON.parse(callback.rawBody.toString('utf8')) as { data: Record<string, unknown> };
        if (how === 'amount') body.data.amount = 9999.99;
        else if (how === 'other txid') body.data.id = 'sbx_forged_charge';
        else body.data.id = `pay_${'f'.repeat(24)}`;
        return { ...callback, rawBody: Buffer.from(JSON.stringify(body)) };
      },
      chargeCount: async () => ((await control('GET', '/_control/charges')) as unknown[]).length,
      // A reset of a kept-alive socket is sent once more on a fresh one (the transport's stale-socket
      // retry, as for every PSP), so being down takes two.
      fail: async (failure) => void (await control('POST', '/_control/failures', { mode: FAILURE_MODES[failure], operation: 'any', count: failure === 'down' ? 2 : 1 })),
      refuseInBatch: (txid) => void refusals.add(txid),
      holdBatch: (reads) => void (heldReads = reads),
      async reset() {
        heldReads = 0;
        refusals.clear();
        if (!stopped) await control('DELETE', '/_control/failures');
      },
      async stop() {
        stopped = true;
        await sandbox.close();
      },
      // The sandbox has no API document to break: its schemas refuse a bad request with a 400, which fails the scenario.
      assertNoViolations: () => undefined,
    },
    async close() {
      transport.close();
      await receiver.close();
      if (!stopped) await sandbox.close();
    },
  };
}

// The adapter touches no database: the scenarios run once, in the embedded project.
describe('the sandbox adapter', () => {
  adapterScenarios('sandbox (the simulated PSP), an account with its own webhook secret', SANDBOX_FEATURES, () => startSandbox('whsec_contract_account_secret'));

  describe('what only the simulated PSP does', () => {
    let fixture: SandboxFixture;
    beforeAll(async () => {
      fixture = await startSandbox(undefined);
    });
    afterAll(() => fixture?.close());
    const lookup = (charge: ProviderCharge) => ({ txid: charge.txid, providerPaymentId: charge.providerPaymentId });

    it.each([
      ['payment.expired', 'expired'],
      ['payment.cancelled', 'cancelled'],
      ['payment.failed', 'failed'],
    ] as const)('simulates %s: the event, and the charge read back as %s', async (type, status) => {
      const charge = await fixture.adapter.createCharge(fixture.account, chargeRequest(fixture.webhookUrl));
      const events = await fixture.adapter.receiveCallback(fixture.account, await fixture.event(charge, type));
      expect(events).toEqual([expect.objectContaining({ type, paymentRef: charge.providerPaymentId })]);
      await expect(fixture.adapter.getCharge(fixture.account, lookup(charge))).resolves.toMatchObject({ status });
    });

    describe('data like a real PSP', () => {
      /** The BCB's end-to-end id: E, an 8-digit ISPB, yyyyMMddHHmm, 11 letters or digits (32 in all). */
      const END_TO_END_ID = /^E\d{8}(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})[a-zA-Z0-9]{11}$/;

      it("puts the charge's own txid in its BR Code (field 62-05), as pix-utils reads it", async () => {
        const request = chargeRequest(fixture.webhookUrl, { txid: randomBytes(18).toString('hex').slice(0, 35) });
        const charge = await fixture.adapter.createCharge(fixture.account, request);
        expect(charge.txid).toHaveLength(35);
        expect(parsePix(charge.copyPaste)).toMatchObject({ type: 'STATIC', txid: charge.txid, transactionAmount: 10.5 });
      });

      it('reports the paying Pix of a confirmed charge: an end-to-end id in the BCB format, the paid amount, the payer with the document masked', async () => {
        const request = chargeRequest(fixture.webhookUrl, { payer: { document: '98765432100', name: 'Beatriz Lima' } });
        const charge = await fixture.adapter.createCharge(fixture.account, request);
        expect(charge.pix).toBeUndefined();
        const before = new Date();
        const [confirmed] = await fixture.adapter.receiveCallback(fixture.account, await fixture.event(charge, 'payment.confirmed'));
        // The simulated payer is the charge's recipient (docs/sandbox.md), its document masked as the Pix API adapter masks one.
        const pix = { endToEndId: expect.stringMatching(END_TO_END_ID), paidAmountCents: 1050, payer: { name: 'Beatriz Lima', documentMasked: '***.654.321-**' } };
        expect(confirmed).toMatchObject({ type: 'payment.confirmed', amountCents: 1050, pix });
        const endToEndId = confirmed!.pix!.endToEndId!;
        expect(endToEndId).toHaveLength(32);
        // The minute in the id is the payment's, in UTC.
        const [, year, month, day, hour, minute] = END_TO_END_ID.exec(endToEndId)!.map(Number);
        const stamped = Date.UTC(year!, month! - 1, day, hour, minute);
        expect(stamped).toBeGreaterThanOrEqual(Math.floor(before.getTime() / 60_000) * 60_000);
        expect(stamped).toBeLessThanOrEqual(Date.now());
        // A read of the charge reports the same Pix; the whole document never leaves the adapter.
        const read = await fixture.adapter.getCharge(fixture.account, lookup(charge));
        expect(read).toMatchObject({ status: 'paid', pix: { ...pix, endToEndId } });
        expect(JSON.stringify(read)).not.toContain('98765432100');
      });

      it('keeps the one paying Pix when a charge is confirmed again or refunded, and reports the amount the payer paid', async () => {
        const charge = await fixture.adapter.createCharge(fixture.account, chargeRequest(fixture.webhookUrl));
        await fixture.adapter.simulateEvent!(fixture.account, lookup(charge), { event: 'payment.confirmed', amountCents: 999 });
        const first = await fixture.received();
        const [event] = await fixture.adapter.receiveCallback(fixture.account, first);
        expect(event).toMatchObject({ amountCents: 999, pix: { paidAmountCents: 999 } });
        const [again] = await fixture.adapter.receiveCallback(fixture.account, await fixture.event(charge, 'payment.confirmed'));
        expect(again!.pix!.endToEndId).toBe(event!.pix!.endToEndId);
        const [refunded] = await fixture.adapter.receiveCallback(fixture.account, await fixture.event(charge, 'payment.refunded'));
        expect(refunded!.pix).toBeUndefined();
        await expect(fixture.adapter.getCharge(fixture.account, lookup(charge))).resolves.toMatchObject({ status: 'refunded', pix: { endToEndId: event!.pix!.endToEndId } });
      });

      it('names the person a charge is addressed to `recipient` on its wire, as the API does, and the one who paid `payer`', async () => {
        const charge = await fixture.adapter.createCharge(fixture.account, chargeRequest(fixture.webhookUrl));
        await fixture.event(charge, 'payment.confirmed');
        const wire = (await fixture.control('GET', `/charges/${charge.providerPaymentId}`)) as Record<string, unknown>;
        expect(wire).toMatchObject({
          recipient: { document: '12345678909', name: 'Ana Souza' },
          pix: { endToEndId: expect.stringMatching(END_TO_END_ID), amount: '10.50', payer: { document: '12345678909', name: 'Ana Souza' }, paidAt: expect.any(String) },
        });
        expect(wire).not.toHaveProperty('debtor');
      });
    });

    it("simulates a refund of a paid charge, read back as refunded with the PSP's refund listed; each event has its own id", async () => {
      const charge = await fixture.adapter.createCharge(fixture.account, chargeRequest(fixture.webhookUrl));
      const [confirmed] = await fixture.adapter.receiveCallback(fixture.account, await fixture.event(charge, 'payment.confirmed'));
      const [refunded] = await fixture.adapter.receiveCallback(fixture.account, await fixture.event(charge, 'payment.refunded'));
      expect(refunded).toMatchObject({ type: 'payment.refunded', amountCents: 1050 });
      expect(refunded!.eventId).not.toBe(confirmed!.eventId);
      const read = await fixture.adapter.getCharge(fixture.account, lookup(charge));
      expect(read).toMatchObject({ status: 'refunded' });
      expect(read.refunds).toEqual([
        { providerRefundId: expect.stringMatching(/^sbxr_/), status: 'succeeded', amountCents: 1050, externalOrigin: 'psp', failureReason: null, gatewayRefundId: null },
      ]);
    });

    it("simulates the whole charge refunded at the PSP after a refund of the gateway: that refund succeeds, the rest is the portal's", async () => {
      const charge = await fixture.adapter.createCharge(fixture.account, chargeRequest(fixture.webhookUrl));
      await fixture.event(charge, 'payment.confirmed');
      const ours = await fixture.adapter.refund!(fixture.account, { refundId: 'ref_whole_1', charge: lookup(charge), endToEndId: null, amountCents: 300, reason: null });
      await fixture.event(charge, 'payment.refunded');
      const read = await fixture.adapter.getCharge(fixture.account, lookup(charge));
      expect(read).toMatchObject({ status: 'refunded' });
      expect(read.refunds).toEqual([
        expect.objectContaining({ providerRefundId: ours.providerRefundId, status: 'succeeded', amountCents: 300 }),
        expect.objectContaining({ status: 'succeeded', amountCents: 750, externalOrigin: 'psp' }),
      ]);
    });

    it('refuses a txid reused with another amount as http 409', async () => {
      const request = chargeRequest(fixture.webhookUrl);
      await fixture.adapter.createCharge(fixture.account, request);
      await expect(fixture.adapter.createCharge(fixture.account, { ...request, amountCents: 999 })).rejects.toMatchObject({ kind: 'http', upstreamStatus: 409 });
    });

    it('without a webhook secret, takes its unsigned events (outside production: the "simulate an event" call)', async () => {
      const charge = await fixture.adapter.createCharge(fixture.account, chargeRequest(fixture.webhookUrl));
      const callback = await fixture.event(charge, 'payment.confirmed');
      expect(callback.headers['x-sandbox-signature']).toBeUndefined();
      await expect(fixture.adapter.receiveCallback(fixture.account, callback)).resolves.toHaveLength(1);
    });

    it('simulates through the adapter as the dashboard does, and the PSP posts the event', async () => {
      const charge = await fixture.adapter.createCharge(fixture.account, chargeRequest(fixture.webhookUrl));
      const result = await fixture.adapter.simulateEvent!(fixture.account, lookup(charge), { event: 'payment.confirmed', amountCents: 999 });
      expect(result).toMatchObject({ eventId: expect.stringMatching(/^evt_sbx_/), delivered: true, status: 200, charge: { status: 'CONCLUIDA' } });
    });
  });

  describe('refunds and cancels at the simulated PSP', () => {
    let fixture: SandboxFixture;
    beforeAll(async () => {
      // Refunds settle by themselves after 20 ms; tests wait for the callback the sandbox posts, never for time.
      fixture = await startSandbox('whsec_contract_account_secret', 20);
    });
    afterAll(() => fixture?.close());
    const lookup = (charge: ProviderCharge) => ({ txid: charge.txid, providerPaymentId: charge.providerPaymentId });
    const refundId = () => `ref_${randomBytes(12).toString('hex')}`;
    const paidCharge = async () => {
      const charge = await fixture.adapter.createCharge(fixture.account, chargeRequest(fixture.webhookUrl));
      await fixture.event(charge, 'payment.confirmed');
      return charge;
    };
    const refund = (charge: ProviderCharge, amountCents: number, reason: string | null = null, id = refundId()) =>
      fixture.adapter.refund!(fixture.account, { refundId: id, charge: lookup(charge), endToEndId: null, amountCents, reason });
    const events = async () => fixture.adapter.receiveCallback(fixture.account, await fixture.received());

    it('settles a refund by itself after the delay, and posts refund.succeeded with a stable id', async () => {
      const charge = await paidCharge();
      const made = await refund(charge, 1050, 'Pedido cancelado');
      expect(made).toMatchObject({ status: 'pending', providerRefundId: expect.stringMatching(/^sbxr_/) });
      const [event] = await events();
      expect(event).toMatchObject({
        eventId: `sandbox:refund:${made.providerRefundId}:succeeded`,
        type: 'refund.succeeded',
        paymentRef: charge.providerPaymentId,
        amountCents: 1050,
        refund: { providerRefundId: made.providerRefundId, status: 'succeeded', externalOrigin: 'psp' },
      });
      await expect(fixture.adapter.getCharge(fixture.account, lookup(charge))).resolves.toMatchObject({ status: 'refunded' });
      // Told to settle again the same way, the sandbox posts the same report again: the same event id.
      await fixture.control('POST', `/_control/refunds/${made.providerRefundId}/settle`, { status: 'DEVOLVIDO' });
      await expect(events()).resolves.toEqual([expect.objectContaining({ eventId: event!.eventId })]);
    });

    it('fails a refund whose reason carries sandbox:fail, with a reason, and gives its amount back', async () => {
      const charge = await paidCharge();
      const failing = await refund(charge, 1050, 'teste sandbox:fail');
      await expect(events()).resolves.toEqual([
        expect.objectContaining({ type: 'refund.failed', refund: expect.objectContaining({ providerRefundId: failing.providerRefundId, failureReason: expect.any(String) }) }),
      ]);
      const read = await fixture.adapter.getCharge(fixture.account, lookup(charge));
      expect(read).toMatchObject({ status: 'paid', refunds: [expect.objectContaining({ status: 'failed' })] });
      await expect(refund(charge, 1050)).resolves.toMatchObject({ status: 'pending' });
      await events();
    });

    it('keeps a refund whose reason carries sandbox:hold in process until told', async () => {
      const charge = await paidCharge();
      const held = await refund(charge, 300, 'sandbox:hold');
      const later = await refund(charge, 200);
      // Both had the same delay and the held one came first: the first callback is the later refund's.
      await expect(events()).resolves.toEqual([expect.objectContaining({ refund: expect.objectContaining({ providerRefundId: later.providerRefundId }) })]);
      await expect(fixture.adapter.getRefund!(fixture.account, { refundId: held.refundId, endToEndId: null, providerRefundId: null })).resolves.toMatchObject({
        status: 'pending',
      });
      await fixture.control('POST', `/_control/refunds/${held.providerRefundId}/settle`, {});
      await expect(events()).resolves.toEqual([expect.objectContaining({ type: 'refund.succeeded', amountCents: 300 })]);
      await expect(fixture.adapter.getCharge(fixture.account, lookup(charge))).resolves.toMatchObject({ status: 'paid', refunds: [expect.anything(), expect.anything()] });
    });

    it('refuses to settle a settled refund the other way (409), and a refund of an unpaid charge (400)', async () => {
      const charge = await paidCharge();
      const made = await refund(charge, 100);
      await events();
      await expect(fixture.control('POST', `/_control/refunds/${made.providerRefundId}/settle`, { status: 'NAO_REALIZADO' })).rejects.toThrow(/409.*REFUND_SETTLED/);
      const open = await fixture.adapter.createCharge(fixture.account, chargeRequest(fixture.webhookUrl));
      await expect(refund(open, 100)).rejects.toMatchObject({ kind: 'http', upstreamStatus: 400, providerCode: 'CHARGE_NOT_PAID' });
    });

    it('refuses a refund id reused with another amount as http 409, and finds a refund by either id', async () => {
      const charge = await paidCharge();
      const id = refundId();
      const made = await refund(charge, 500, 'sandbox:hold', id);
      await expect(refund(charge, 400, null, id)).rejects.toMatchObject({ kind: 'http', upstreamStatus: 409, providerCode: 'REFUND_ID_CONFLICT' });
      const byOurs = await fixture.adapter.getRefund!(fixture.account, { refundId: id, endToEndId: null, providerRefundId: null });
      const byTheirs = await fixture.adapter.getRefund!(fixture.account, { refundId: id, endToEndId: null, providerRefundId: made.providerRefundId });
      expect(byOurs).toEqual(made);
      expect(byTheirs).toEqual(made);
    });

    it('after a lost refund answer, the retry with the same refund id gets the one refund', async () => {
      const charge = await paidCharge();
      const id = refundId();
      await fixture.control('POST', '/_control/failures', { mode: 'timeout', operation: 'refund' });
      const lost = await fixture.impatient.refund!(fixture.account, { refundId: id, charge: lookup(charge), endToEndId: null, amountCents: 700, reason: 'sandbox:hold' }).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(lost).toBeInstanceOf(UpstreamError);
      expect((lost as UpstreamError).ambiguous).toBe(true);
      const retried = await refund(charge, 700, 'sandbox:hold', id);
      expect((await fixture.adapter.getCharge(fixture.account, lookup(charge))).refunds).toEqual([expect.objectContaining({ providerRefundId: retried.providerRefundId })]);
    });

    it('settles a held refund on a bare POST, as a human with curl would, and refuses a refund id shaped like its own', async () => {
      const charge = await paidCharge();
      const held = await refund(charge, 100, 'sandbox:hold');
      const bare = await fetch(`${fixture.url}/_control/refunds/${held.refundId}/settle`, { method: 'POST', headers: fixture.auth });
      expect(bare.status).toBe(200);
      await expect(events()).resolves.toEqual([expect.objectContaining({ type: 'refund.succeeded', amountCents: 100 })]);
      await expect(refund(charge, 100, null, 'sbxr_mine')).rejects.toMatchObject({ upstreamStatus: 400, providerCode: 'INVALID_REQUEST' });
    });

    it('cancels an open charge once: cancelling it again answers it cancelled', async () => {
      const charge = await fixture.adapter.createCharge(fixture.account, chargeRequest(fixture.webhookUrl));
      await expect(fixture.adapter.cancelCharge!(fixture.account, lookup(charge))).resolves.toMatchObject({ status: 'cancelled' });
      await expect(fixture.adapter.cancelCharge!(fixture.account, { txid: charge.txid, providerPaymentId: null })).resolves.toMatchObject({ status: 'cancelled' });
      await expect(fixture.adapter.cancelCharge!(fixture.account, { txid: randomBytes(16).toString('hex'), providerPaymentId: null })).rejects.toMatchObject({
        upstreamStatus: 404,
      });
    });
  });
});
