import { Secret } from '../../src/config/app-config';
import type { InboundWebhook, ProviderCharge } from '../../src/providers/provider-adapter';
import { SandboxAdapter, type SandboxCredentials } from '../../src/providers/sandbox/sandbox.adapter';
import type { SandboxSettings } from '../../src/providers/sandbox/sandbox-settings';
import { startSandboxServer } from '../../src/providers/sandbox/server/standalone';
import { HttpTransport } from '../../src/providers/transport/http-transport';
import { chargeRequest } from '../helpers/factories';
import { adapterScenarios, type ScenarioFailure, type ScenarioFeatures, type ScenarioSetup } from './adapter-scenarios';
import { WebhookReceiver } from './webhook-receiver';
import type { ProviderEventType } from '../../src/domain/provider-event';

/** The simulated PSP charges, reads and signs its events; it neither refunds, cancels, batches nor uses tokens or mTLS. */
const SANDBOX_FEATURES: ScenarioFeatures = {
  refund: false,
  cancel: false,
  registerWebhook: false,
  mutualTls: false,
  providerIdIsTxid: false,
  dynamicBrCode: false,
  payerDetails: false,
  batches: false,
  tokens: false,
};
const TIMEOUT_MS = 8_000;
const IMPATIENT_MS = 400;
const FAILURE_MODES: Record<ScenarioFailure, string> = { http_503: 'http_503', problem_400: 'http_400', timeout: 'timeout', malformed: 'malformed', down: 'reset' };

interface SandboxFixture extends ScenarioSetup<SandboxCredentials> {
  /** Makes `type` happen to the charge; resolves with the callback the sandbox posted, as the gateway received it. */
  event(charge: ProviderCharge, type: ProviderEventType): Promise<InboundWebhook>;
}

/** The sandbox PSP started alone on a free port, as `npm run sandbox` runs it, and the adapter pointed at it with a stored account of its own secret (or none). */
async function startSandbox(webhookSecret: string | undefined): Promise<SandboxFixture> {
  let offset = 0;
  const sandbox = await startSandboxServer({ port: 0, logLevel: 'silent', now: () => Date.now() + offset });
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
  const received = async (): Promise<InboundWebhook> => {
    const hook = await receiver.next();
    return { method: 'POST', path: '', query: {}, headers: hook.headers, rawBody: hook.rawBody };
  };
  const event = async (charge: ProviderCharge, type: ProviderEventType) => {
    await control('POST', `/charges/${charge.providerPaymentId}/simulate`, { event: type });
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
    psp: {
      pay: async (charge) => ({ endToEndId: null, callback: await event(charge, 'payment.confirmed') }),
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
      reset: async () => void (stopped ? undefined : await control('DELETE', '/_control/failures')),
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
      const events = await fixture.adapter.receiveWebhook(fixture.account, await fixture.event(charge, type));
      expect(events).toEqual([expect.objectContaining({ type, paymentRef: charge.providerPaymentId })]);
      await expect(fixture.adapter.getCharge(fixture.account, lookup(charge))).resolves.toMatchObject({ status });
    });

    it('simulates a refund of a paid charge, read back as refunded; each event has its own id', async () => {
      const charge = await fixture.adapter.createCharge(fixture.account, chargeRequest(fixture.webhookUrl));
      const [confirmed] = await fixture.adapter.receiveWebhook(fixture.account, await fixture.event(charge, 'payment.confirmed'));
      const [refunded] = await fixture.adapter.receiveWebhook(fixture.account, await fixture.event(charge, 'payment.refunded'));
      expect(refunded!.eventId).not.toBe(confirmed!.eventId);
      await expect(fixture.adapter.getCharge(fixture.account, lookup(charge))).resolves.toMatchObject({ status: 'refunded' });
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
      await expect(fixture.adapter.receiveWebhook(fixture.account, callback)).resolves.toHaveLength(1);
    });

    it('simulates through the adapter as the dashboard does, and the PSP posts the event', async () => {
      const charge = await fixture.adapter.createCharge(fixture.account, chargeRequest(fixture.webhookUrl));
      const result = await fixture.adapter.simulateEvent!(fixture.account, lookup(charge), { event: 'payment.confirmed', amountCents: 999 });
      expect(result).toMatchObject({ eventId: expect.stringMatching(/^evt_sbx_/), delivered: true, status: 200, charge: { status: 'CONCLUIDA' } });
    });
  });
});
