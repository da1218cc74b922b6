import { randomBytes } from 'node:crypto';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import { type Account, type InboundCallback, UpstreamError, WebhookAuthError, WebhookParseError } from '../../src/providers/provider-adapter';
import type { PixApiCredentials } from '../../src/providers/pix-api/credentials';
import { PixApiAdapter } from '../../src/providers/pix-api/pix-api.adapter';
import { PIX_API } from '../../src/providers/pix-api/profile';
import { RECURRING_SCOPES, STANDARD_SCOPES, type PixApiProfile } from '../../src/providers/pix-api/profile';
import type { CreateRecurrenceRequest, CreateRecurringChargeRequest, ProviderRecurrence, RecurringProvider } from '../../src/providers/recurring';
import { HttpTransport } from '../../src/providers/transport/http-transport';
import { emvFields, hasValidCrc } from '../../src/testing/emv';
import { testPki } from '../../src/testing/certificates';
import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { chargeRequest } from '../helpers/factories';
import { WebhookReceiver } from './webhook-receiver';

/*
 * The Pix API adapter's Pix Automático against the fake PSP, over real HTTPS with mutual TLS:
 * every request and answer is checked against the Central Bank's document (assertNoViolations
 * after each test).
 */

const pki = testPki();
const CLIENT_ID = 'fake-psp-client-id';
const CLIENT_SECRET = 'fake-psp-client-secret';
const PIX_KEY = 'recebedor@example.com';
/** A profile that offers Pix Automático (the banks' own declarations are their profiles'). */
const RECURRING_PROFILE: PixApiProfile = { ...PIX_API, recurring: { leadTime: { minDays: 2, maxDays: 10 }, source: 'https://example.com/pix-automatico' } };
const RECEIVER = { agencia: '0001', conta: '123456', tipoConta: 'CORRENTE' } as const;

let psp: PixApiPsp;
let receiver: WebhookReceiver;
let transport: HttpTransport;
let adapter: PixApiAdapter;
let recurring: RecurringProvider<PixApiCredentials>;
let account: Account<PixApiCredentials>;

const today = () => brasiliaDate(new Date());
const contractId = () => `CT-${randomBytes(6).toString('hex')}`;
const txid = () => randomBytes(16).toString('hex');

function recurrenceRequest(overrides: Partial<CreateRecurrenceRequest> = {}): CreateRecurrenceRequest {
  return {
    recurrenceId: `rec_${randomBytes(8).toString('hex')}`,
    contract: { id: contractId(), description: 'Plano mensal' },
    payer: { document: '12345678909', name: 'Ana Souza' },
    frequency: 'monthly',
    amountCents: 4990,
    minimumAmountCents: null,
    startDate: addDays(today(), 3),
    endDate: null,
    retryPolicy: 'three_in_seven_days',
    journey: 'qr',
    firstPayment: null,
    payerAccount: null,
    expiresInSeconds: 86_400,
    notificationUrl: receiver.url,
    ...overrides,
  };
}

function chargeOf(recurrence: ProviderRecurrence, overrides: Partial<CreateRecurringChargeRequest> = {}): CreateRecurringChargeRequest {
  return {
    chargeId: `rch_${randomBytes(8).toString('hex')}`,
    txid: txid(),
    providerRecurrenceId: recurrence.providerRecurrenceId,
    dueDate: addDays(today(), 5),
    amountCents: 4990,
    description: 'Mensalidade',
    receiverAccount: RECEIVER,
    notificationUrl: receiver.url,
    ...overrides,
  };
}

/** The next callback the receiver got, as the gateway's router hands it to the adapter (`/rec` or `/cobr`). */
async function received(): Promise<InboundCallback> {
  const hook = await receiver.next();
  // The path after the registered URL is where the fake posted it (`<url>/rec` or `<url>/cobr`).
  const sent = psp.callbacks.find((callback) => callback.body === hook.rawBody.toString('utf8'));
  const path = sent ? new URL(sent.url).pathname.slice(new URL(receiver.url).pathname.length) : '';
  return { method: 'POST', path, query: {}, headers: hook.headers, rawBody: hook.rawBody };
}

async function activeRecurrence(overrides: Partial<CreateRecurrenceRequest> = {}): Promise<ProviderRecurrence> {
  const created = await recurring.createRecurrence(account, recurrenceRequest(overrides));
  await psp.approveRecurrence(created.providerRecurrenceId);
  await received();
  return recurring.getRecurrence(account, { providerRecurrenceId: created.providerRecurrenceId });
}

beforeAll(async () => {
  psp = await startPixApiPsp({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, grantableScopes: [...STANDARD_SCOPES, ...RECURRING_SCOPES] });
  receiver = await new WebhookReceiver().start();
  transport = new HttpTransport();
  adapter = new PixApiAdapter(transport, RECURRING_PROFILE, { timeoutMs: 8_000 });
  recurring = adapter.recurring!;
  const settings = { environment: 'sandbox' as const, baseUrl: psp.url, tokenUrl: psp.tokenUrl, pixKey: PIX_KEY };
  const credentials = adapter.parseCredentials(
    { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, certificate_pem: pki.client.cert, private_key_pem: pki.client.key, ca_pem: pki.ca.cert },
    settings,
  );
  account = { id: 'pa_recurring', provider: RECURRING_PROFILE.name, ...settings, credentials };
  await adapter.registerWebhook(account, receiver.url);
});

afterEach(() => {
  psp.reset();
  psp.assertNoViolations();
});

afterAll(async () => {
  adapter.close();
  transport.close();
  await receiver.close();
  await psp.close();
});

describe('the Pix API adapter, Pix Automático', () => {
  it('is offered exactly when the profile declares it', () => {
    expect(adapter.descriptor.capabilities.recurring).toEqual(RECURRING_PROFILE.recurring);
    const { recurring: _declared, ...withoutRecurring } = PIX_API;
    const plain = new PixApiAdapter(transport, withoutRecurring);
    expect(plain.recurring).toBeUndefined();
    expect(plain.descriptor.capabilities.recurring).toBeUndefined();
  });

  it('asks for the recurring scopes with the standard ones', () => {
    const token = psp.requests.find((request) => request.path === '/oauth/token');
    const scopes = String((token?.body as { scope?: string }).scope).split(' ');
    expect(scopes).toEqual(expect.arrayContaining([...STANDARD_SCOPES, ...RECURRING_SCOPES]));
  });

  it('registers the Pix, recurrence and recurring charge webhooks at the same URL', () => {
    expect(psp.webhooks.get(PIX_KEY)?.webhookUrl).toBe(receiver.url);
    expect(psp.recurringWebhooks.rec?.webhookUrl).toBe(receiver.url);
    expect(psp.recurringWebhooks.cobr?.webhookUrl).toBe(receiver.url);
  });

  it('keeps the Pix webhook of an account its PSP gives no Pix Automático (AcessoNegado on the recurring ones)', async () => {
    psp.fail({ kind: 'problem', status: 403, path: /\/webhook(rec|cobr)$/, times: 2 });
    await expect(adapter.registerWebhook(account, `${receiver.url}/other`)).resolves.toBeUndefined();
    expect(psp.webhooks.get(PIX_KEY)?.webhookUrl).toBe(`${receiver.url}/other`);
    expect(psp.recurringWebhooks.rec?.webhookUrl).toBe(receiver.url);
    await adapter.registerWebhook(account, receiver.url);
    psp.fail({ kind: 'problem', status: 400, path: /\/webhookrec$/ });
    await expect(adapter.registerWebhook(account, receiver.url)).rejects.toMatchObject({ upstreamStatus: 400 });
  });

  describe('creating a recurrence', () => {
    it('qr: a location, the recurrence with it, and its QR read back (JORNADA_2)', async () => {
      const request = recurrenceRequest({ endDate: addDays(today(), 400) });
      const created = await recurring.createRecurrence(account, request);
      expect(created).toEqual(expect.objectContaining({ status: 'pending_authorization', cancelledBy: null }));
      expect(created.providerRecurrenceId).toMatch(/^RR[0-9A-Za-z]{27}$/);
      expect(hasValidCrc(created.copyPaste!)).toBe(true);
      expect(emvFields(created.copyPaste!).get('80')).toContain('/rec/');
      const held = psp.recurrences.get(created.providerRecurrenceId);
      expect(held).toEqual(
        expect.objectContaining({
          vinculo: { contrato: request.contract.id, objeto: 'Plano mensal', devedor: { cpf: '12345678909', nome: 'Ana Souza' } },
          calendario: { dataInicial: request.startDate, dataFinal: request.endDate, periodicidade: 'MENSAL' },
          valor: { valorRec: '49.90' },
          politicaRetentativa: 'PERMITE_3R_7D',
        }),
      );
      expect(held.loc.id).toEqual(expect.any(Number));
    });

    it('qr_with_first_payment: the recurrence names the first payment, and the composite QR pays both (JORNADA_3)', async () => {
      const first = await adapter.createCharge(account, chargeRequest(receiver.url, { amountCents: 4990 }));
      const created = await recurring.createRecurrence(account, recurrenceRequest({ journey: 'qr_with_first_payment', firstPayment: { txid: first.txid } }));
      expect(psp.recurrences.get(created.providerRecurrenceId).ativacao.dadosJornada).toEqual({ txid: first.txid });
      expect(created.copyPaste!.startsWith(first.copyPaste.slice(0, -8))).toBe(true);
      expect(emvFields(created.copyPaste!).get('80')).toContain('/rec/');
      expect(hasValidCrc(created.copyPaste!)).toBe(true);
      const read = psp.requests.filter((request) => request.method === 'GET' && request.path.endsWith(`/rec/${created.providerRecurrenceId}`)).at(-1);
      expect(read?.query).toEqual({ txid: first.txid });
    });

    it('request: the recurrence, then the payer asked through their bank (JORNADA_1), a variable amount and no retries', async () => {
      const created = await recurring.createRecurrence(
        account,
        recurrenceRequest({
          journey: 'request',
          amountCents: null,
          minimumAmountCents: 1000,
          retryPolicy: 'none',
          frequency: 'weekly',
          payer: { document: '12.345.678/0001-95', name: 'Empresa Pagadora' },
          payerAccount: { ispbParticipante: '60701190', agencia: '1234', conta: '998877' },
        }),
      );
      expect(created.providerRecurrenceId).toMatch(/^RN/);
      expect(created.copyPaste).toBeNull();
      expect(created.authorizationExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 86_000_000);
      const held = psp.recurrences.get(created.providerRecurrenceId);
      expect(held.valor).toEqual({ valorMinimoRecebedor: '10.00' });
      expect(held.vinculo.devedor).toEqual({ cnpj: '12345678000195', nome: 'Empresa Pagadora' });
      expect(held.calendario.periodicidade).toBe('SEMANAL');
      expect(held.solicitacao).toEqual([
        expect.objectContaining({ status: 'CRIADA', destinatario: { ispbParticipante: '60701190', agencia: '1234', conta: '998877', cnpj: '12345678000195' } }),
      ]);
    });

    it('a retry after a lost answer to POST /rec finds the recurrence made rather than making a second', async () => {
      const request = recurrenceRequest();
      psp.fail({ kind: 'status', status: 503, path: /\/rec$/, method: 'POST', afterHandling: true });
      await expect(recurring.createRecurrence(account, request)).rejects.toBeInstanceOf(UpstreamError);
      const made = [...psp.recurrences.values()].filter((rec) => rec.vinculo.contrato === request.contract.id);
      expect(made).toHaveLength(1);
      const retried = await recurring.createRecurrence(account, request);
      expect(retried.providerRecurrenceId).toBe(made[0].idRec);
      expect([...psp.recurrences.values()].filter((rec) => rec.vinculo.contrato === request.contract.id)).toHaveLength(1);
      expect(retried.copyPaste).not.toBeNull();
    });

    it('a refusal is the PSP’s code', async () => {
      const refused = recurring.createRecurrence(account, recurrenceRequest({ startDate: addDays(today(), -1) }));
      await expect(refused).rejects.toMatchObject({ upstreamStatus: 400, providerCode: 'RecOperacaoInvalida' });
    });
  });

  describe('reading and cancelling', () => {
    it('reads the payer’s answer, and cancels as the merchant', async () => {
      const created = await recurring.createRecurrence(account, recurrenceRequest());
      await psp.approveRecurrence(created.providerRecurrenceId);
      await received();
      expect(await recurring.getRecurrence(account, { providerRecurrenceId: created.providerRecurrenceId })).toEqual(
        expect.objectContaining({ status: 'active', copyPaste: null }),
      );
      const cancelled = await recurring.cancelRecurrence(account, { providerRecurrenceId: created.providerRecurrenceId });
      expect(cancelled).toEqual(expect.objectContaining({ status: 'cancelled', cancelledBy: 'merchant' }));
    });

    it('a cancel the PSP refuses because the payer cancelled first answers the recurrence as it is', async () => {
      const created = await recurring.createRecurrence(account, recurrenceRequest());
      await psp.payerCancelsRecurrence(created.providerRecurrenceId);
      await received();
      expect(await recurring.cancelRecurrence(account, { providerRecurrenceId: created.providerRecurrenceId })).toEqual(
        expect.objectContaining({ status: 'cancelled', cancelledBy: 'payer' }),
      );
    });
  });

  describe('recurring charges', () => {
    it('creates, reads and cancels one; a retried PUT of its txid finds the same charge', async () => {
      const recurrence = await activeRecurrence();
      const request = chargeOf(recurrence);
      const created = await recurring.createCharge(account, request);
      expect(created).toEqual(
        expect.objectContaining({
          txid: request.txid,
          providerRecurrenceId: recurrence.providerRecurrenceId,
          status: 'scheduled',
          open: true,
          amountCents: 4990,
          dueDate: request.dueDate,
        }),
      );
      expect(created.attempts).toEqual([expect.objectContaining({ date: request.dueDate, status: 'scheduled' })]);
      expect(psp.recurringCharges.get(request.txid)).toEqual(
        expect.objectContaining({ recebedor: expect.objectContaining(RECEIVER), infoAdicional: 'Mensalidade', ajusteDiaUtil: true }),
      );
      expect(await recurring.createCharge(account, request)).toEqual(expect.objectContaining({ txid: request.txid, status: 'scheduled' }));
      expect(await recurring.getCharge(account, { txid: request.txid })).toEqual(expect.objectContaining({ status: 'scheduled', open: true }));
      const cancelled = await recurring.cancelCharge(account, { txid: request.txid });
      expect(cancelled).toEqual(expect.objectContaining({ status: 'cancelled', open: false }));
      expect(cancelled.attempts[0]?.status).toBe('cancelled');
    });

    it('a retry after a lost answer to PUT /cobr gets the charge the PSP made', async () => {
      const recurrence = await activeRecurrence();
      const request = chargeOf(recurrence);
      psp.fail({ kind: 'status', status: 503, path: /\/cobr\//, method: 'PUT', afterHandling: true });
      await expect(recurring.createCharge(account, request)).rejects.toMatchObject({ upstreamStatus: 503 });
      expect(await recurring.createCharge(account, request)).toEqual(expect.objectContaining({ txid: request.txid, status: 'scheduled' }));
      // Another charge under the same txid is not this one: the PSP's refusal stands.
      await expect(recurring.createCharge(account, { ...request, amountCents: 100 })).rejects.toMatchObject({ upstreamStatus: 400, providerCode: 'CobROperacaoInvalida' });
    });

    it('a cancel on the day of the first attempt is the PSP’s refusal, the charge staying scheduled', async () => {
      const recurrence = await activeRecurrence({ startDate: today() });
      const request = chargeOf(recurrence, { dueDate: today() });
      await recurring.createCharge(account, request);
      await expect(recurring.cancelCharge(account, { txid: request.txid })).rejects.toMatchObject({ upstreamStatus: 400, providerCode: 'CobROperacaoInvalida' });
      expect((await recurring.getCharge(account, { txid: request.txid })).status).toBe('scheduled');
    });

    it('a refused due date is the PSP’s 400 and code; so is a second charge in the same cycle', async () => {
      const recurrence = await activeRecurrence();
      await expect(recurring.createCharge(account, chargeOf(recurrence, { dueDate: addDays(today(), -1) }))).rejects.toMatchObject({
        upstreamStatus: 400,
        providerCode: 'CobROperacaoInvalida',
      });
      await recurring.createCharge(account, chargeOf(recurrence, { dueDate: addDays(today(), 5) }));
      await expect(recurring.createCharge(account, chargeOf(recurrence, { dueDate: addDays(today(), 6) }))).rejects.toMatchObject({
        upstreamStatus: 400,
        providerCode: 'CobROperacaoInvalida',
      });
    });

    it('a failed attempt leaves the charge open for a retry, which the PSP schedules; the retry settles it', async () => {
      const recurrence = await activeRecurrence();
      const request = chargeOf(recurrence);
      await recurring.createCharge(account, request);
      await psp.failRecurringCharge(request.txid);
      const [reports] = await recurring.receiveCallback(account, await received());
      expect(reports).toEqual(expect.objectContaining({ kind: 'charge' }));
      const failed = reports!.kind === 'charge' ? reports!.charge : undefined;
      expect(failed).toEqual(expect.objectContaining({ status: 'failed', open: true, failureReason: 'AM02: Pagamento recusado pelo PSP pagador.' }));
      const retryDate = addDays(request.dueDate, 2);
      const retried = await recurring.retryCharge(account, { txid: request.txid }, retryDate);
      expect(retried.status).toBe('scheduled');
      expect(retried.attempts.map((a) => [a.date, a.status])).toEqual([
        [request.dueDate, 'failed'],
        [retryDate, 'scheduled'],
      ]);
      // Asked again (its answer lost): the PSP refuses a second attempt under way, and the one held is the answer.
      expect((await recurring.retryCharge(account, { txid: request.txid }, retryDate)).attempts).toHaveLength(2);
      await psp.settleRecurringCharge(request.txid);
      const [paid] = await recurring.receiveCallback(account, await received());
      const charge = paid!.kind === 'charge' ? paid!.charge : undefined;
      expect(charge).toEqual(expect.objectContaining({ status: 'paid', open: false, endToEndId: expect.stringMatching(/^E/), paidAt: expect.any(Date) }));
    });

    it('a retry the policy does not allow is the PSP’s refusal', async () => {
      const recurrence = await activeRecurrence({ retryPolicy: 'none' });
      const request = chargeOf(recurrence);
      await recurring.createCharge(account, request);
      await psp.failRecurringCharge(request.txid);
      const [reports] = await recurring.receiveCallback(account, await received());
      expect(reports!.kind === 'charge' && reports!.charge).toEqual(expect.objectContaining({ status: 'failed', open: false }));
      await expect(recurring.retryCharge(account, { txid: request.txid }, addDays(request.dueDate, 1))).rejects.toMatchObject({
        upstreamStatus: 400,
        providerCode: 'CobROperacaoInvalida',
      });
    });
  });

  describe('callbacks', () => {
    it('confirms each recurrence by reading it back, with a stable event id per reports', async () => {
      const created = await recurring.createRecurrence(account, recurrenceRequest());
      await psp.approveRecurrence(created.providerRecurrenceId);
      const callback = await received();
      expect(callback.path).toBe('/rec');
      const reports = await recurring.receiveCallback(account, callback);
      expect(reports).toEqual([{ kind: 'recurrence', eventId: expect.stringContaining(created.providerRecurrenceId), recurrence: expect.objectContaining({ status: 'active' }) }]);
      expect(await recurring.receiveCallback(account, callback)).toEqual(reports);
      await psp.payerCancelsRecurrence(created.providerRecurrenceId);
      const [cancelled] = await recurring.receiveCallback(account, await received());
      expect(cancelled!.eventId).not.toBe(reports[0]!.eventId);
      expect(cancelled!.kind === 'recurrence' && cancelled!.recurrence).toEqual(expect.objectContaining({ status: 'cancelled', cancelledBy: 'payer' }));
    });

    it('reads what the PSP holds, never the body: a rejection and an expiry', async () => {
      const rejected = await recurring.createRecurrence(account, recurrenceRequest());
      await psp.rejectRecurrence(rejected.providerRecurrenceId);
      const hook = await received();
      const claimed = { ...hook, rawBody: Buffer.from(hook.rawBody.toString().replace('"REJEITADA"', '"APROVADA"')) };
      const [reports] = await recurring.receiveCallback(account, claimed);
      expect(reports!.kind === 'recurrence' && reports!.recurrence.status).toBe('rejected');
      const expired = await recurring.createRecurrence(account, recurrenceRequest());
      await psp.expireRecurrence(expired.providerRecurrenceId);
      const [expiry] = await recurring.receiveCallback(account, await received());
      expect(expiry!.kind === 'recurrence' && expiry!.recurrence.status).toBe('expired');
    });

    it('refuses a callback the PSP does not confirm, and a body that is not one', async () => {
      const forged = (path: string, body: unknown): InboundCallback => ({ method: 'POST', path, query: {}, headers: {}, rawBody: Buffer.from(JSON.stringify(body)) });
      await expect(
        recurring.receiveCallback(account, forged('/rec', { recs: [{ idRec: 'RR1234567820240115abcdefghijk', status: 'APROVADA', atualizacao: [] }] })),
      ).rejects.toBeInstanceOf(WebhookAuthError);
      await expect(
        recurring.receiveCallback(account, forged('/cobr', { cobsr: [{ idRec: 'RR1234567820240115abcdefghijk', txid: txid(), status: 'CONCLUIDA' }] })),
      ).rejects.toBeInstanceOf(WebhookAuthError);
      await expect(recurring.receiveCallback(account, forged('/rec', { pix: [] }))).rejects.toBeInstanceOf(WebhookParseError);
      await expect(recurring.receiveCallback(account, forged('/pix', { recs: [] }))).rejects.toBeInstanceOf(WebhookParseError);
    });
  });
});
