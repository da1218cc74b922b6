import { parsePix } from 'pix-utils';
import { type CreateChargeRequest, UpstreamError } from '../../src/providers/provider-adapter';
import type { InboundCallback, Account } from '../../src/providers/provider-adapter';
import type { PixApiCredentials } from '../../src/providers/pix-api/credentials';
import { PixApiAdapter } from '../../src/providers/pix-api/pix-api.adapter';
import { scopesOf } from '../../src/providers/pix-api/flows/token';
import { PIX_API } from '../../src/providers/pix-api/profile';
import { HttpTransport } from '../../src/providers/transport/http-transport';
import { testPki } from '../../src/testing/certificates';
import { type PixApiPsp, type PixApiPspOptions, startPixApiPsp } from '../fakes/pix-api-psp';
import { chargeRequest as newChargeRequest } from '../helpers/factories';
import { WebhookReceiver } from './webhook-receiver';

/*
 * The standard's adapter (`pix-api`) against PSPs that differ from the fake's defaults only where
 * the Central Bank's document, or the RFCs it builds on, leave room: what another PSP, written
 * independently from the same document, may well do. Each PSP still checks every exchange against
 * the document.
 */

const pki = testPki();
const PIX_KEY = 'recebedor@example.com';

interface Setup {
  psp: PixApiPsp;
  adapter: PixApiAdapter;
  account: Account<PixApiCredentials>;
  receiver: WebhookReceiver;
  close(): Promise<void>;
}

async function start(options: PixApiPspOptions): Promise<Setup> {
  const psp = await startPixApiPsp(options);
  const receiver = await new WebhookReceiver().start();
  const transport = new HttpTransport();
  const adapter = new PixApiAdapter(transport, PIX_API, { timeoutMs: 8_000, checkTimeoutMs: 8_000 });
  const settings = { environment: 'sandbox' as const, baseUrl: psp.url, tokenUrl: psp.tokenUrl, pixKey: PIX_KEY };
  const credentials = adapter.parseCredentials(
    { client_id: psp.clientId, client_secret: psp.clientSecret, certificate_pem: pki.client.cert, private_key_pem: pki.client.key, ca_pem: pki.ca.cert },
    settings,
  );
  const account: Account<PixApiCredentials> = { id: 'pa_conformance', provider: 'pix-api', ...settings, credentials };
  return {
    psp,
    adapter,
    account,
    receiver,
    async close() {
      adapter.close();
      transport.close();
      await receiver.close();
      await psp.close();
    },
  };
}

const request = (setup: Setup, overrides: Partial<CreateChargeRequest> = {}) => newChargeRequest(setup.receiver.url, overrides);
const lookup = (txid: string) => ({ txid, providerPaymentId: txid });

async function callback(setup: Setup): Promise<InboundCallback> {
  const hook = await setup.receiver.next();
  return { method: 'POST', path: '/pix', query: {}, headers: hook.headers, rawBody: hook.rawBody };
}

async function upstreamError(call: Promise<unknown>): Promise<UpstreamError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof UpstreamError)) throw new Error(`expected an UpstreamError, got ${String(error)}`);
  return error;
}

describe('the pix-api adapter against PSPs that use the room the standard leaves', () => {
  const running: Setup[] = [];
  /** A PSP with `options`, the adapter's account at it, and its webhook registered (the PSP's callbacks go to the receiver). */
  const use = async (options: PixApiPspOptions) => {
    const setup = await start(options);
    running.push(setup);
    await setup.adapter.registerWebhook(setup.account, setup.receiver.url);
    return setup;
  };
  afterEach(async () => {
    const stopped = running.splice(0);
    const violations = stopped.flatMap((setup) => setup.psp.takeViolations());
    await Promise.all(stopped.map((setup) => setup.close()));
    expect(violations).toEqual([]);
  });

  it('a PSP that answers a problem only to a client whose Accept admits application/problem+json: the problem, not 406', async () => {
    const setup = await use({});
    const error = await upstreamError(setup.adapter.getCharge(setup.account, lookup('unknownunknownunknownunknown0')));
    expect(error).toMatchObject({ kind: 'http', upstreamStatus: 404, providerCode: 'CobNaoEncontrado' });
  });

  it.each(['gzip', 'deflate', 'br'] as const)('a PSP that compresses its answers (%s): charges, callbacks, refunds and the check all read', async (coding) => {
    const setup = await use({ contentEncoding: coding });
    const charge = await setup.adapter.createCharge(setup.account, request(setup));
    expect(parsePix(charge.copyPaste)).toMatchObject({ type: 'DYNAMIC' });
    const { pix } = await setup.psp.pay(charge.txid);
    await expect(setup.adapter.receiveCallback(setup.account, await callback(setup))).resolves.toEqual([expect.objectContaining({ paymentRef: charge.txid })]);
    await expect(
      setup.adapter.refund(setup.account, { refundId: 'ref_1', charge: lookup(charge.txid), endToEndId: pix.endToEndId, amountCents: 100, reason: null }),
    ).resolves.toMatchObject({
      status: 'pending',
    });
    await expect(setup.adapter.check(setup.account)).resolves.toMatchObject({ ok: true });
    expect(setup.psp.requests.every((logged) => logged.headers['accept-encoding'] === 'gzip, deflate, br')).toBe(true);
  });

  it('a PSP whose PUT /cob answer has no pixCopiaECola (optional in CobGerada): the BR Code is read back with GET /cob/{txid}', async () => {
    const setup = await use({ copyPasteOn: 'read' });
    const charge = await setup.adapter.createCharge(setup.account, request(setup));
    expect(charge.copyPaste).toBe(setup.psp.charges.get(charge.txid).pixCopiaECola);
    expect(setup.psp.requests.filter((logged) => logged.path.endsWith(`/cob/${charge.txid}`)).map((logged) => logged.method)).toEqual(['PUT', 'GET']);
  });

  it('a PSP that gives the BR Code only when creating: reads, callbacks, refunds and cancels still work', async () => {
    const setup = await use({ copyPasteOn: 'create' });
    const charge = await setup.adapter.createCharge(setup.account, request(setup, { amountCents: 2500 }));
    expect(parsePix(charge.copyPaste)).toMatchObject({ type: 'DYNAMIC' });
    await expect(setup.adapter.getCharge(setup.account, lookup(charge.txid))).resolves.toMatchObject({ status: 'pending', amountCents: 2500, copyPaste: '' });

    const { pix } = await setup.psp.pay(charge.txid);
    const events = await setup.adapter.receiveCallback(setup.account, await callback(setup));
    expect(events).toEqual([expect.objectContaining({ type: 'payment.confirmed', paymentRef: charge.txid, amountCents: 2500 })]);
    await expect(setup.adapter.getCharge(setup.account, lookup(charge.txid))).resolves.toMatchObject({ status: 'paid' });
    await expect(setup.adapter.refund(setup.account, { refundId: 'ref_2', charge: lookup(charge.txid), endToEndId: null, amountCents: 500, reason: null })).resolves.toMatchObject({
      status: 'pending',
      endToEndId: pix.endToEndId,
    });

    const open = await setup.adapter.createCharge(setup.account, request(setup));
    await expect(setup.adapter.cancelCharge(setup.account, lookup(open.txid))).resolves.toMatchObject({ status: 'cancelled' });
  });

  it('a PSP that gives the BR Code nowhere: creating is malformed, naming what is missing', async () => {
    const setup = await use({ copyPasteOn: 'read', copyPasteField: 'brcode' });
    const error = await upstreamError(setup.adapter.createCharge(setup.account, request(setup)));
    expect(error).toMatchObject({ kind: 'malformed', message: expect.stringContaining('no BR Code (pixCopiaECola)') });
  });

  it('a PSP whose client lacks a scope the adapter asks for (invalid_scope): the token is asked for again without scope', async () => {
    const granted = ['cob.read', 'cob.write', 'pix.read', 'pix.write', 'webhook.write'];
    const setup = await use({ grantableScopes: granted });
    await expect(setup.adapter.createCharge(setup.account, request(setup))).resolves.toMatchObject({ status: 'pending' });
    const tokenCalls = setup.psp.requests.filter((logged) => logged.path === '/oauth/token').map((logged) => (logged.body as Record<string, string>).scope);
    expect(tokenCalls).toEqual([scopesOf(PIX_API)!.join(' '), undefined]);
  });

  it('a PSP whose token answer is written loosely (token_type "bearer", expires_in a string, no scope): the token is used', async () => {
    const setup = await use({ tokenAnswer: 'loose', tokenTtlSeconds: 600 });
    const charge = await setup.adapter.createCharge(setup.account, request(setup));
    expect(charge).toMatchObject({ status: 'pending' });
    await expect(setup.adapter.getCharge(setup.account, { txid: charge.txid, providerPaymentId: charge.providerPaymentId })).resolves.toMatchObject({ status: 'pending' });
    expect(setup.psp.tokenRequests).toBe(1);
    // The check asks for a token of its own, always, and that loose one works too.
    await expect(setup.adapter.check(setup.account)).resolves.toMatchObject({ ok: true });
    expect(setup.psp.tokenRequests).toBe(2);
  });

  it('a PSP that validates with the CPF pattern as published ("/^\\d{11}$/"): the charge is made without devedor, and a CNPJ payer is kept', async () => {
    const setup = await use({ literalPatterns: true });
    const charge = await setup.adapter.createCharge(setup.account, request(setup, { payer: { document: '123.456.789-09', name: 'Ana Souza' } }));
    expect(charge.status).toBe('pending');
    expect(setup.psp.charges.get(charge.txid).devedor).toBeUndefined();
    // The refused first attempt: what the published document finds wrong with any CPF, and nothing else.
    const refused = setup.psp.takeViolations();
    expect(refused).toContainEqual(expect.stringMatching(/body\/devedor\/cpf must match pattern/));
    expect(refused.every((violation) => violation.startsWith('PUT /cob/{txid}: body/devedor'))).toBe(true);

    const company = await setup.adapter.createCharge(setup.account, request(setup, { payer: { document: '12.345.678/0001-95', name: 'Loja da Ana' } }));
    expect(setup.psp.charges.get(company.txid).devedor).toEqual({ cnpj: '12345678000195', nome: 'Loja da Ana' });
  });
});
