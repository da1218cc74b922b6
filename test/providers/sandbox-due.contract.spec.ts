import { randomBytes } from 'node:crypto';
import { parsePix } from 'pix-utils';
import { Secret } from '../../src/config/app-config';
import type { DueTerms } from '../../src/domain/due-charge';
import { type Account, type ChargeLookup, type CreateChargeRequest, type ProviderCharge, UpstreamError } from '../../src/providers/provider-adapter';
import type { SandboxCredentials } from '../../src/providers/sandbox/credentials';
import { createBatchCall } from '../../src/providers/sandbox/flows/batch';
import { SandboxAdapter } from '../../src/providers/sandbox/sandbox.adapter';
import type { SandboxSettings } from '../../src/providers/sandbox/settings';
import { HttpTransport } from '../../src/providers/transport/http-transport';
import { startSandboxServer } from '../../src/sandbox-psp/standalone';
import { chargeRequest } from '../helpers/factories';
import { WebhookReceiver } from './webhook-receiver';

/** Due-date charges and batches at the simulated PSP (docs/sandbox.md): the adapter against a real sandbox server, its callbacks received over HTTP. */

const SECRET = 'whsec_due_contract_secret';
/** The sandbox's clock: noon in Brasília on Monday 2 March 2026, moved by tests that need days to pass. */
const START = Date.parse('2026-03-02T15:00:00.000Z');
/** Noon in Brasília on `date`. */
const noon = (date: string) => Date.parse(`${date}T15:00:00.000Z`);

/** Due Tuesday 10 March, payable 5 days after (through Monday the 16th, the 15th being a Sunday); R$ 5 off until the 5th; 2% fine, 1% a month of interest. */
const TERMS: DueTerms = {
  date: '2026-03-10',
  daysAfterDue: 5,
  fine: { type: 'percent', value: 2_00 },
  interest: { type: 'percent_per_month', days: 'calendar', value: 1_00 },
  discount: { type: 'fixed_until', until: [{ date: '2026-03-05', value: 5_00 }] },
  abatement: null,
};

const txid = () => randomBytes(16).toString('hex');

describe('the sandbox adapter: due-date charges and batches', () => {
  let offset = 0;
  let sandbox: Awaited<ReturnType<typeof startSandboxServer>>;
  let receiver: WebhookReceiver;
  let transport: HttpTransport;
  let adapter: SandboxAdapter;
  let account: Account<SandboxCredentials>;

  beforeAll(async () => {
    sandbox = await startSandboxServer({ port: 0, logLevel: 'silent', now: () => START + offset });
    receiver = await new WebhookReceiver().start('/webhooks/sandbox/pa_due');
    transport = new HttpTransport();
    const settings: SandboxSettings = { enabled: false, baseUrl: sandbox.url, apiToken: new Secret(sandbox.apiToken) };
    adapter = new SandboxAdapter(transport, settings, { isProduction: false, timeoutMs: 8_000 });
    const builtIn = adapter.builtInAccount();
    account = { ...builtIn, id: 'pa_due', credentials: adapter.parseCredentials({ webhook_secret: SECRET }, builtIn) };
  });
  afterAll(async () => {
    transport?.close();
    await receiver?.close();
    await sandbox?.close();
  });
  beforeEach(async () => {
    offset = 0;
    receiver.skipAll();
    await control('DELETE', '/_control/failures');
  });

  const at = (instant: number) => void (offset = instant - START);

  async function control(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sandbox.apiToken}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: res.status === 204 ? {} : ((await res.json()) as Record<string, unknown>) };
  }

  const dueRequest = (overrides: Partial<CreateChargeRequest> = {}): CreateChargeRequest =>
    chargeRequest(receiver.url, { amountCents: 10_000, txid: txid(), due: TERMS, description: 'Mensalidade de março', ...overrides });
  const lookup = (charge: ProviderCharge): ChargeLookup => ({ txid: charge.txid, providerPaymentId: charge.providerPaymentId, due: true });

  async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UpstreamError);
    return error as UpstreamError;
  }

  describe('a due-date charge', () => {
    it('is created pending with a dynamic BR Code, lasts through its last payable day, and shows its terms, address and what is owed today', async () => {
      const request = dueRequest({ payerAddress: { street: 'Rua das Flores, 10', city: 'Recife', state: 'PE', zip: '50000000' } });
      const charge = await adapter.createCharge(account, request);
      expect(charge).toMatchObject({ txid: request.txid, status: 'pending', amountCents: 10_000, expiresAt: new Date('2026-03-17T02:59:59.999Z'), paidAt: null });
      expect(parsePix(charge.copyPaste)).toMatchObject({ type: 'DYNAMIC', url: `pix.sandbox.invalid/cobv/${request.txid}` });
      const wire = (await control('GET', `/charges/${request.txid}`)).body;
      expect(wire).toMatchObject({
        amount: '100.00',
        amountDue: '95.00',
        due: { date: '2026-03-10', daysAfterDue: 5, fine: { type: 'percent', value: '2.00' }, discount: { type: 'fixed_until', until: [{ date: '2026-03-05', value: '5.00' }] } },
        recipientAddress: { street: 'Rua das Flores, 10', city: 'Recife', state: 'PE', zip: '50000000' },
      });
      await expect(adapter.getCharge(account, { txid: request.txid, providerPaymentId: null, due: true })).resolves.toEqual(charge);
    });

    it('answers the same charge for the same txid again, and refuses it for an immediate charge', async () => {
      const request = dueRequest();
      const charge = await adapter.createCharge(account, request);
      await expect(adapter.createCharge(account, request)).resolves.toEqual(charge);
      const conflict = await failure(adapter.createCharge(account, { ...request, due: null }));
      expect(conflict).toMatchObject({ kind: 'http', upstreamStatus: 409, providerCode: 'TXID_CONFLICT' });
    });

    it('refuses a due date in the past, naming it, without making a charge', async () => {
      const request = dueRequest({ due: { ...TERMS, date: '2026-03-01', discount: null } });
      const refused = await failure(adapter.createCharge(account, request));
      expect(refused).toMatchObject({ kind: 'http', upstreamStatus: 400, providerCode: 'INVALID_REQUEST' });
      expect((await control('GET', `/charges/${request.txid}`)).status).toBe(404);
    });

    it('changes amount and terms, keeping its BR Code; answers a change of a closed charge with it unchanged; refuses one of an immediate charge, and a due date before the day it was made', async () => {
      const charge = await adapter.createCharge(account, dueRequest());
      const terms: DueTerms = { ...TERMS, date: '2026-03-20', daysAfterDue: 0, discount: null, abatement: { type: 'fixed', value: 10_00 } };
      const changed = await adapter.updateCharge(account, lookup(charge), { amountCents: 12_000, due: terms });
      expect(changed).toMatchObject({
        providerPaymentId: charge.providerPaymentId,
        status: 'pending',
        amountCents: 12_000,
        copyPaste: charge.copyPaste,
        expiresAt: new Date('2026-03-21T02:59:59.999Z'),
      });
      expect((await control('GET', `/charges/${charge.txid}`)).body).toMatchObject({
        amount: '120.00',
        amountDue: '110.00',
        due: { date: '2026-03-20', abatement: { type: 'fixed', value: '10.00' } },
      });

      const past = await failure(adapter.updateCharge(account, lookup(charge), { amountCents: 12_000, due: { ...terms, date: '2026-03-01' } }));
      expect(past).toMatchObject({ upstreamStatus: 400, providerCode: 'INVALID_REQUEST', providerMessage: expect.stringContaining('2026-03-02') });
      await adapter.cancelCharge(account, lookup(charge));
      await expect(adapter.updateCharge(account, lookup(charge), { amountCents: 13_000, due: terms })).resolves.toMatchObject({ status: 'cancelled', amountCents: 12_000 });
      const immediate = await adapter.createCharge(account, chargeRequest(receiver.url));
      const notDue = await failure(adapter.updateCharge(account, { txid: immediate.txid, providerPaymentId: immediate.providerPaymentId }, { amountCents: 12_000, due: terms }));
      expect(notDue).toMatchObject({ upstreamStatus: 409, providerCode: 'NOT_A_DUE_CHARGE' });
    });

    it('is cancelled while open, and read back cancelled', async () => {
      const charge = await adapter.createCharge(account, dueRequest());
      await expect(adapter.cancelCharge(account, lookup(charge))).resolves.toMatchObject({ status: 'cancelled' });
      await expect(adapter.getCharge(account, lookup(charge))).resolves.toMatchObject({ status: 'cancelled' });
    });

    it('is expired on the first read after its last payable day in Brasília, not before', async () => {
      const charge = await adapter.createCharge(account, dueRequest({ due: { ...TERMS, daysAfterDue: 0 } }));
      // 23:59 on the due date in Brasília: still payable.
      at(Date.parse('2026-03-11T02:59:00.000Z'));
      await expect(adapter.getCharge(account, lookup(charge))).resolves.toMatchObject({ status: 'pending' });
      at(Date.parse('2026-03-11T03:00:00.000Z'));
      await expect(adapter.getCharge(account, lookup(charge))).resolves.toMatchObject({ status: 'expired' });
    });
  });

  describe('simulated events', () => {
    it('pays with what is owed today: the discount early, fine and interest late', async () => {
      const early = await adapter.createCharge(account, dueRequest());
      await adapter.simulateEvent(account, lookup(early), { event: 'payment.confirmed' });
      const [paidEarly] = await adapter.receiveCallback(account, await received());
      expect(paidEarly).toMatchObject({ type: 'payment.confirmed', paymentRef: early.providerPaymentId, amountCents: 9_500, pix: { paidAmountCents: 9_500 } });

      const late = await adapter.createCharge(account, dueRequest());
      // Friday 13 March, 3 days late: R$ 2.00 fine and 1% × 3/30 of R$ 100.00.
      at(noon('2026-03-13'));
      const simulation = await adapter.simulateEvent(account, lookup(late), { event: 'payment.confirmed' });
      expect(simulation.charge).toMatchObject({ status: 'CONCLUIDA', amountDue: '102.10', pix: { amount: '102.10' } });
      const [paidLate] = await adapter.receiveCallback(account, await received());
      expect(paidLate).toMatchObject({ amountCents: 10_210, pix: { paidAmountCents: 10_210 } });
      await expect(adapter.getCharge(account, lookup(late))).resolves.toMatchObject({ status: 'paid', pix: { paidAmountCents: 10_210 } });
    });

    it('pays late with a chosen amount, so a payment short of what is owed can be produced', async () => {
      const charge = await adapter.createCharge(account, dueRequest());
      at(noon('2026-03-13'));
      await adapter.simulateEvent(account, lookup(charge), { event: 'payment.confirmed', amountCents: 10_000 });
      const [paid] = await adapter.receiveCallback(account, await received());
      expect(paid).toMatchObject({ type: 'payment.confirmed', amountCents: 10_000, pix: { paidAmountCents: 10_000 } });
      expect((await control('GET', `/charges/${charge.txid}`)).body).toMatchObject({ status: 'CONCLUIDA', amountDue: '102.10', pix: { amount: '100.00' } });
    });

    it('expires an open charge before its due date, as if past its last payable day, and posts the event', async () => {
      const charge = await adapter.createCharge(account, dueRequest());
      await adapter.simulateEvent(account, lookup(charge), { event: 'payment.expired' });
      const [expired] = await adapter.receiveCallback(account, await received());
      expect(expired).toMatchObject({ type: 'payment.expired', paymentRef: charge.providerPaymentId });
      await expect(adapter.getCharge(account, lookup(charge))).resolves.toMatchObject({ status: 'expired' });
    });

    const received = async () => {
      const hook = await receiver.next();
      return { method: 'POST', path: hook.path, query: {}, headers: hook.headers, rawBody: hook.rawBody };
    };
  });

  describe('batches', () => {
    const batchId = () => `lote_${randomBytes(6).toString('hex')}`;

    it('makes the charges on the second read (the first finds them being made), refuses one marked sandbox:fail with its problem, and never makes that one', async () => {
      const id = batchId();
      const charges = [dueRequest(), dueRequest({ description: 'Aluno 2 sandbox:fail' }), dueRequest({ amountCents: 45_000 })];
      await adapter.createChargeBatch(account, { id, description: 'Mensalidades de março', charges });
      const processing = charges.map((charge) => ({ txid: charge.txid, outcome: 'processing', problem: null }));
      await expect(adapter.getChargeBatch(account, id)).resolves.toEqual(processing);
      expect((await control('GET', `/charges/${charges[0]!.txid}`)).status).toBe(404);

      const settled = await adapter.getChargeBatch(account, id);
      expect(settled).toEqual([
        { txid: charges[0]!.txid, outcome: 'created', problem: null },
        { txid: charges[1]!.txid, outcome: 'refused', problem: expect.stringMatching(/^CHARGE_REFUSED: .*sandbox:fail/) },
        { txid: charges[2]!.txid, outcome: 'created', problem: null },
      ]);
      await expect(adapter.getChargeBatch(account, id)).resolves.toEqual(settled);
      await expect(adapter.getCharge(account, { txid: charges[2]!.txid, providerPaymentId: null, due: true })).resolves.toMatchObject({ status: 'pending', amountCents: 45_000 });
      expect((await control('GET', `/charges/${charges[2]!.txid}`)).body).toMatchObject({ batchId: id, due: { date: '2026-03-10' } });
      expect((await control('GET', `/charges/${charges[1]!.txid}`)).status).toBe(404);

      // The same batch asked for again (an answer lost) is that batch: nothing is made twice.
      await adapter.createChargeBatch(account, { id, description: 'Mensalidades de março', charges });
      await expect(adapter.getChargeBatch(account, id)).resolves.toEqual(settled);
    });

    it('refuses the same id with other charges (409), an unknown id (404), and a batch with a bad charge by its index (400), making nothing', async () => {
      const id = batchId();
      const charges = [dueRequest()];
      await adapter.createChargeBatch(account, { id, description: 'Março', charges });
      const conflict = await failure(adapter.createChargeBatch(account, { id, description: 'Março', charges: [dueRequest()] }));
      expect(conflict).toMatchObject({ kind: 'http', upstreamStatus: 409, providerCode: 'BATCH_ID_CONFLICT' });
      await expect(failure(adapter.getChargeBatch(account, batchId()))).resolves.toMatchObject({ upstreamStatus: 404, providerCode: 'BATCH_NOT_FOUND' });

      const bad = batchId();
      const badCharges = [dueRequest(), dueRequest({ due: { ...TERMS, date: '2026-02-27', discount: null } })];
      // Sent by hand, as the adapter would send it, to read the sandbox's own error body.
      const answer = await control('PUT', `/batches/${bad}`, createBatchCall({ id: bad, description: 'Março', charges: badCharges }, undefined).body);
      expect(answer).toMatchObject({ status: 400, body: { error: { code: 'INVALID_REQUEST', field: 'charges.1.due.date' } } });
      expect((await control('GET', `/batches/${bad}`)).status).toBe(404);
    });

    it('takes the failures queued for batches: refused before acting, then asked for again', async () => {
      const id = batchId();
      const charges = [dueRequest()];
      await control('POST', '/_control/failures', { mode: 'http_503', operation: 'batch' });
      const unavailable = await failure(adapter.createChargeBatch(account, { id, description: 'Março', charges }));
      expect(unavailable).toMatchObject({ upstreamStatus: 503, ambiguous: true });
      await adapter.createChargeBatch(account, { id, description: 'Março', charges });
      await expect(adapter.getChargeBatch(account, id)).resolves.toEqual([{ txid: charges[0]!.txid, outcome: 'processing', problem: null }]);
    });

    it('holds a thousand charges in one batch', async () => {
      const id = batchId();
      const charges = Array.from({ length: 1_000 }, () => dueRequest());
      await adapter.createChargeBatch(account, { id, description: 'Uma escola inteira', charges });
      await adapter.getChargeBatch(account, id);
      const settled = await adapter.getChargeBatch(account, id);
      expect(settled).toHaveLength(1_000);
      expect(settled.every((item) => item.outcome === 'created')).toBe(true);
    });
  });
});
