import type { AccountEnvironment, InboundCallback, Account } from '../../src/providers/provider-adapter';
import { BB } from '../../src/providers/pix-api/banks/bb';
import { EFI } from '../../src/providers/pix-api/banks/efi';
import { INTER } from '../../src/providers/pix-api/banks/inter';
import { ITAU } from '../../src/providers/pix-api/banks/itau';
import { SANTANDER } from '../../src/providers/pix-api/banks/santander';
import { SICOOB } from '../../src/providers/pix-api/banks/sicoob';
import { SICREDI } from '../../src/providers/pix-api/banks/sicredi';
import type { PixApiCredentials } from '../../src/providers/pix-api/credentials';
import { PixApiAdapter } from '../../src/providers/pix-api/pix-api.adapter';
import { PIX_API } from '../../src/providers/pix-api/profile';
import { scopesOf } from '../../src/providers/pix-api/flows/token';
import { HttpTransport } from '../../src/providers/transport/http-transport';
import type { PixApiProfile } from '../../src/providers/pix-api/profile';
import { testPki } from '../../src/testing/certificates';
import { type PixApiPspOptions, startPixApiPsp } from '../fakes/pix-api-psp';
import { adapterScenarios, type ScenarioFailure, type ScenarioFeatures, type ScenarioPsp, type ScenarioSetup } from './adapter-scenarios';
import { startTokenDialectProxy, type TokenDialectProxy } from './token-dialect-proxy';
import { WebhookReceiver } from './webhook-receiver';

const pki = testPki();
const CLIENT_ID = 'fake-psp-client-id';
const CLIENT_SECRET = 'fake-psp-client-secret';
const PIX_KEY = 'recebedor@example.com';
/** Normal calls: generous, the machine may be busy. The impatient adapter gives up well before a held answer. */
const TIMEOUT_MS = 8_000;
const IMPATIENT_MS = 400;
const HELD_MS = 4_000;

/**
 * How one profile meets the fake PSP: the fake answering as that bank does (base path, token path,
 * 200 for 201, `brcode`, required headers and query), the account's environment and own fields,
 * and whether the token request needs a bank dialect the fake does not speak (then it goes through
 * a proxy that checks the dialect strictly and passes the standard's form on).
 */
interface Bank {
  profile: PixApiProfile;
  environment: AccountEnvironment;
  fake: PixApiPspOptions;
  extras?: Record<string, unknown>;
  tokenDialect?: boolean;
  /** Inter posts a bare list: the fake's `{"pix":[…]}` is delivered as its list. */
  bareList?: boolean;
}

/** Everything the scenarios know of: the Pix API family does it all. */
const PIX_API_FEATURES: ScenarioFeatures = {
  refund: true,
  cancel: true,
  registerWebhook: true,
  mutualTls: true,
  providerIdIsTxid: true,
  dynamicBrCode: true,
  payerDetails: true,
  batches: true,
  tokens: true,
  // A devolução's `natureza` says MED_OPERACIONAL, MED_FRAUDE or MED_PIX_AUTOMATICO (API Pix 2.9.0).
  medReturns: true,
  namesGatewayRefunds: true,
};

const BANKS: Bank[] = [
  { profile: PIX_API, environment: 'sandbox', fake: {} },
  { profile: EFI, environment: 'sandbox', fake: { basePath: '/v2' }, extras: { skip_mtls_checking: true }, tokenDialect: true },
  { profile: SICOOB, environment: 'production', fake: { basePath: '/pix/api/v2', copyPasteField: 'brcode', requiredHeaders: { client_id: CLIENT_ID } }, tokenDialect: true },
  { profile: BB, environment: 'sandbox', fake: { basePath: '/pix/v2', createStatus: 200, requiredQuery: { 'gw-dev-app-key': 'app-key-1' } }, extras: { app_key: 'app-key-1' } },
  { profile: ITAU, environment: 'production', fake: { basePath: '/pix_recebimentos/v2' } },
  {
    profile: INTER,
    environment: 'sandbox',
    fake: { basePath: '/pix/v2', tokenPath: '/oauth/v2/token', requiredHeaders: { 'x-conta-corrente': '1234567' } },
    extras: { conta_corrente: '1234567' },
    bareList: true,
  },
  { profile: SANTANDER, environment: 'sandbox', fake: { basePath: '/api/v1', createStatus: 200 }, tokenDialect: true },
  { profile: SICREDI, environment: 'sandbox', fake: { basePath: '/api/v2' } },
];

/** The adapters' clock: the real time, plus what a test moved it by. */
class ShiftedClock {
  private offset = 0;
  now(): Date {
    return new Date(Date.now() + this.offset);
  }
  advance(ms: number): void {
    this.offset += ms;
  }
  reset(): void {
    this.offset = 0;
  }
}

/** The entries of a Pix callback, whichever shape it came in. */
function entriesOf(callback: InboundCallback): Record<string, unknown>[] {
  const body = JSON.parse(callback.rawBody.toString('utf8')) as unknown;
  return (Array.isArray(body) ? body : (body as { pix: Record<string, unknown>[] }).pix) as Record<string, unknown>[];
}

async function startBank(bank: Bank): Promise<ScenarioSetup<PixApiCredentials>> {
  // The fake answers a devolução and a cancel with the status the bank's profile records.
  const answers = { refundStatus: bank.profile.answers.refund, reviseStatus: bank.profile.answers.cancelCharge };
  const psp = await startPixApiPsp({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, ...answers, ...bank.fake });
  const receiver = await new WebhookReceiver().start();
  let proxy: TokenDialectProxy | undefined;
  if (bank.tokenDialect) {
    const client = { id: CLIENT_ID, secret: bank.profile.clientSecret === 'required' ? CLIENT_SECRET : null };
    proxy = await startTokenDialectProxy(psp, pki, bank.profile.token, client, scopesOf(bank.profile));
  }
  const clock = new ShiftedClock();
  // The suite owns the transport, as the gateway does, and closes its kept-alive sockets at the end.
  const transport = new HttpTransport();
  const options = { clock, timeoutMs: TIMEOUT_MS, checkTimeoutMs: TIMEOUT_MS };
  const adapter = new PixApiAdapter(transport, bank.profile, options);
  const impatient = new PixApiAdapter(transport, bank.profile, { ...options, timeoutMs: IMPATIENT_MS });

  const settings = {
    environment: bank.environment,
    // The fake's address stands in for the bank's hosts; the path is the bank's own base path.
    baseUrl: psp.url,
    tokenUrl: proxy?.url ?? psp.tokenUrl,
    pixKey: PIX_KEY,
  };
  const input = (cert: { cert: string; key: string }) => ({
    client_id: CLIENT_ID,
    ...(bank.profile.clientSecret === 'required' ? { client_secret: CLIENT_SECRET } : {}),
    certificate_pem: cert.cert,
    private_key_pem: cert.key,
    ca_pem: pki.ca.cert,
    ...bank.extras,
  });
  const account: Account<PixApiCredentials> = {
    id: `pa_${bank.profile.name}`,
    provider: bank.profile.name,
    ...settings,
    credentials: adapter.parseCredentials(input(pki.client), settings),
  };
  const untrustedAccount = { ...account, id: `pa_${bank.profile.name}_untrusted`, credentials: adapter.parseCredentials(input(pki.untrustedClient), settings) };

  /** The next callback the receiver got, as the gateway's router hands it to the adapter. */
  const received = async (): Promise<InboundCallback> => {
    const hook = await receiver.next();
    let rawBody = hook.rawBody;
    if (bank.bareList) rawBody = Buffer.from(JSON.stringify(entriesOf({ rawBody } as InboundCallback)));
    return { method: 'POST', path: '/pix', query: {}, headers: hook.headers, rawBody };
  };
  const withEntries = (template: InboundCallback | undefined, entries: unknown[]): InboundCallback => ({
    method: 'POST',
    path: '/pix',
    query: {},
    headers: template?.headers ?? { 'content-type': 'application/json' },
    rawBody: Buffer.from(JSON.stringify(bank.bareList ? entries : { pix: entries })),
  });
  const FAILURE_SPECS: Record<ScenarioFailure, Parameters<typeof psp.fail>[0]> = {
    http_503: { kind: 'status', status: 503 },
    problem_400: { kind: 'problem', status: 400 },
    timeout: { kind: 'slow', delayMs: HELD_MS },
    malformed: { kind: 'malformed' },
    // Twice: a connection dropped on a kept-alive socket is sent once more, as a stale socket.
    down: { kind: 'down', times: 2 },
  };

  let stopped = false;
  const driver: ScenarioPsp = {
    async pay(charge, payer, amountCents) {
      const { pix } = await psp.pay(charge.txid, { payer, amountCents });
      return { endToEndId: pix.endToEndId as string, callback: await received() };
    },
    async settleRefund(endToEndId, refund, outcome) {
      await psp.refundSettles(endToEndId, refund.providerRefundId, outcome === 'succeeded' ? 'DEVOLVIDO' : 'NAO_REALIZADO');
      return received();
    },
    async refundOutside(_charge, endToEndId, amountCents, how) {
      await psp.refundOutside(endToEndId, amountCents, how === 'med' ? 'MED_FRAUDE' : 'ORIGINAL');
      return received();
    },
    batch: (callbacks) => withEntries(callbacks[0], callbacks.flatMap(entriesOf)),
    forge(callback, how) {
      const entries = entriesOf(callback).map((entry) => {
        if (how === 'amount') return { ...entry, valor: '9999.99' };
        if (how === 'other txid') return { ...entry, txid: 'forgedtxid0000000000000000000' };
        return { ...entry, endToEndId: `E99999999${String(Date.now()).slice(-12)}forgedxxxxx` };
      });
      return withEntries(callback, entries);
    },
    chargeCount: () => psp.charges.size + psp.dueCharges.size,
    refuseInBatch: (txid) => psp.refuseBatchItem(txid),
    holdBatch: (reads) => psp.holdBatches(reads),
    expireTokens: () => psp.expireTokens(),
    get tokenRequests() {
      return psp.tokenRequests;
    },
    fail: (failure) => psp.fail({ ...FAILURE_SPECS[failure], path: /\/cobv?\// }),
    reset: () => psp.reset(),
    async stop() {
      stopped = true;
      await psp.close();
    },
    assertNoViolations() {
      if (proxy?.violations.length) throw new Error(`token request dialect: ${proxy.violations.splice(0).join('; ')}`);
      if (!stopped) psp.assertNoViolations();
    },
  };

  return {
    adapter,
    impatient,
    account,
    untrustedAccount,
    psp: driver,
    clock,
    webhookUrl: receiver.url,
    async close() {
      adapter.close();
      impatient.close();
      transport.close();
      await proxy?.close();
      await receiver.close();
      if (!stopped) await psp.close();
    },
  };
}

// Adapters touch no database: the scenarios run once, in the embedded project.
describe('the Pix API adapters', () => {
  for (const bank of BANKS) {
    // Due-date charges and batches where the profile declares them (each with the page that says so).
    const features = { ...PIX_API_FEATURES, dueCharges: Boolean(bank.profile.dueCharges), chargeBatches: Boolean(bank.profile.chargeBatches) };
    adapterScenarios(`${bank.profile.name} (${bank.profile.displayName})`, features, () => startBank(bank));
  }
});
