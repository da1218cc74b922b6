import { randomBytes } from 'node:crypto';
import { parsePix } from 'pix-utils';
import { Secret } from '../../src/config/app-config';
import { brCodeCrc } from '../../src/domain/br-code';
import { addDays } from '../../src/domain/recurrence';
import { type Account, type InboundCallback, UpstreamError, WebhookAuthError } from '../../src/providers/provider-adapter';
import type { CreateRecurrenceRequest, CreateRecurringChargeRequest, ProviderRecurrence, ProviderRecurringCharge, RecurringReport } from '../../src/providers/recurring';
import type { SandboxCredentials } from '../../src/providers/sandbox/credentials';
import { SandboxAdapter } from '../../src/providers/sandbox/sandbox.adapter';
import type { SandboxSettings } from '../../src/providers/sandbox/settings';
import { startSandboxServer } from '../../src/sandbox-psp/standalone';
import { HttpTransport } from '../../src/providers/transport/http-transport';
import { chargeRequest } from '../helpers/factories';
import { type ReceivedWebhook, WebhookReceiver } from './webhook-receiver';

/** Pix Automático at the simulated PSP (docs/sandbox.md, Recurrences): the adapter against a real sandbox server, its callbacks received over HTTP. */

const SECRET = 'whsec_recurring_contract_secret';
/** The sandbox's clock: noon in Brasília on 2 March 2026, moved forward by tests that need days to pass. */
const START = Date.parse('2026-03-02T15:00:00.000Z');
const TODAY = '2026-03-02';
const END_TO_END_ID = /^E99999999\d{12}[a-zA-Z0-9]{11}$/;

const asInbound = (callback: ReceivedWebhook): InboundCallback => ({
  method: 'POST',
  path: callback.path,
  query: {},
  headers: callback.headers,
  rawBody: callback.rawBody,
});

const txid = () => randomBytes(16).toString('hex');

describe('the sandbox adapter: Pix Automático', () => {
  let offset = 0;
  let sandbox: Awaited<ReturnType<typeof startSandboxServer>>;
  let receiver: WebhookReceiver;
  let transport: HttpTransport;
  let adapter: SandboxAdapter;
  let account: Account<SandboxCredentials>;
  let recurring: SandboxAdapter['recurring'];

  beforeAll(async () => {
    sandbox = await startSandboxServer({ port: 0, logLevel: 'silent', now: () => START + offset });
    receiver = await new WebhookReceiver().start('/webhooks/sandbox/pa_rec');
    transport = new HttpTransport();
    const settings: SandboxSettings = { enabled: false, baseUrl: sandbox.url, apiToken: new Secret(sandbox.apiToken) };
    adapter = new SandboxAdapter(transport, settings, { isProduction: false, timeoutMs: 8_000 });
    const builtIn = adapter.builtInAccount();
    // A stored account with its own secret: the sandbox signs its callbacks with it.
    account = { ...builtIn, id: 'pa_rec', credentials: adapter.parseCredentials({ webhook_secret: SECRET }, builtIn) };
    recurring = adapter.recurring;
  });
  afterAll(async () => {
    transport?.close();
    await receiver?.close();
    await sandbox?.close();
  });
  beforeEach(() => {
    offset = 0;
    receiver.skipAll();
  });

  const days = (n: number) => void (offset += n * 86_400_000);

  const recurrenceRequest = (overrides: Partial<CreateRecurrenceRequest> = {}): CreateRecurrenceRequest => ({
    recurrenceId: `rec_${randomBytes(8).toString('hex')}`,
    contract: { id: `contract${randomBytes(4).toString('hex')}`, description: 'Plano mensal' },
    payer: { document: '12345678909', name: 'Ana Souza' },
    frequency: 'monthly',
    amountCents: 4990,
    minimumAmountCents: null,
    startDate: TODAY,
    endDate: null,
    retryPolicy: 'none',
    journey: 'qr',
    firstPayment: null,
    payerAccount: null,
    expiresInSeconds: 86_400,
    notificationUrl: receiver.url,
    ...overrides,
  });

  const chargeOf = (recurrence: ProviderRecurrence, overrides: Partial<CreateRecurringChargeRequest> = {}): CreateRecurringChargeRequest => ({
    chargeId: `rch_${randomBytes(8).toString('hex')}`,
    txid: txid(),
    providerRecurrenceId: recurrence.providerRecurrenceId,
    dueDate: addDays(TODAY, 5),
    amountCents: 4990,
    description: 'Março',
    receiverAccount: { agencia: '0001', conta: '123456', tipoConta: 'CORRENTE' },
    notificationUrl: receiver.url,
    ...overrides,
  });

  /** Makes the simulation happen and answers the report its callback (at `path`) reads back to. */
  async function simulated(
    simulation: Parameters<NonNullable<typeof recurring.simulate>>[1],
    path: '/rec' | '/cobr',
  ): Promise<{ reports: RecurringReport[]; callback: ReceivedWebhook }> {
    const result = await recurring.simulate(account, simulation);
    expect(result).toMatchObject({ delivered: true, status: 200 });
    const callback = await receiver.next();
    expect(callback.path).toBe(path);
    expect(callback.headers['x-sandbox-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect((callback.body as { id: string }).id).toBe(result.eventId);
    return { reports: await recurring.receiveCallback(account, asInbound(callback)), callback };
  }

  async function authorized(overrides: Partial<CreateRecurrenceRequest> = {}): Promise<ProviderRecurrence> {
    const recurrence = await recurring.createRecurrence(account, recurrenceRequest(overrides));
    await simulated({ subject: 'recurrence', ref: recurrence, action: 'authorize' }, '/rec');
    return recurring.getRecurrence(account, recurrence);
  }

  async function refusal(promise: Promise<unknown>): Promise<UpstreamError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UpstreamError);
    return error as UpstreamError;
  }

  describe('declares the capability', () => {
    it('with the 2-to-10-day lead time the sandbox enforces, citing its docs', () => {
      expect(adapter.descriptor.capabilities.recurring).toEqual({ leadTime: { minDays: 2, maxDays: 10 }, source: 'docs/sandbox.md' });
    });
  });

  describe('journeys', () => {
    it('qr: pending authorization, with a dynamic Pix Automático BR Code naming the recurrence, valid CRC, and its expiry', async () => {
      const recurrence = await recurring.createRecurrence(account, recurrenceRequest());
      expect(recurrence).toEqual({
        providerRecurrenceId: expect.stringMatching(/^sbxrec_[0-9a-f]{32}$/),
        status: 'pending_authorization',
        cancelledBy: null,
        copyPaste: expect.stringMatching(/^000201/),
        authorizationExpiresAt: new Date(START + 86_400_000),
        updatedAt: new Date(START),
      });
      const code = recurrence.copyPaste!;
      expect(code.slice(-4)).toBe(brCodeCrc(code.slice(0, -4)));
      expect(parsePix(code)).toMatchObject({ type: 'RECURRENCE', urlRec: `pix.sandbox.invalid/rec/${recurrence.providerRecurrenceId}` });
    });

    it('qr: the same recurrenceId again is the same recurrence (a lost answer retried)', async () => {
      const request = recurrenceRequest({ expiresInSeconds: 3 * 86_400 });
      const first = await recurring.createRecurrence(account, request);
      days(1);
      await expect(recurring.createRecurrence(account, request)).resolves.toEqual(first);
      const other = await refusal(recurring.createRecurrence(account, { ...request, amountCents: 100 }));
      expect(other).toMatchObject({ upstreamStatus: 409, providerCode: 'RECURRENCE_ID_CONFLICT' });
    });

    it('qr_with_first_payment: a composite code naming the first payment and the recurrence; authorizing also pays that charge', async () => {
      const payment = await adapter.createCharge(account, chargeRequest(receiver.url, { amountCents: 4990 }));
      const recurrence = await recurring.createRecurrence(account, recurrenceRequest({ journey: 'qr_with_first_payment', firstPayment: { txid: payment.txid } }));
      const code = recurrence.copyPaste!;
      expect(code.slice(-4)).toBe(brCodeCrc(code.slice(0, -4)));
      expect(parsePix(code)).toMatchObject({
        type: 'DYNAMIC',
        url: `pix.sandbox.invalid/cob/${payment.txid}`,
        urlRec: `pix.sandbox.invalid/rec/${recurrence.providerRecurrenceId}`,
      });

      const { reports } = await simulated({ subject: 'recurrence', ref: recurrence, action: 'authorize' }, '/rec');
      expect(reports).toEqual([{ kind: 'recurrence', eventId: expect.any(String), recurrence: expect.objectContaining({ status: 'active', copyPaste: null }) }]);
      // The first payment's own confirmation, at the notification URL as every payment event.
      const confirmation = await receiver.next();
      expect(confirmation.path).toBe('');
      const [event] = await adapter.receiveCallback(account, asInbound(confirmation));
      expect(event).toMatchObject({ type: 'payment.confirmed', paymentRef: payment.providerPaymentId, amountCents: 4990 });
      await expect(adapter.getCharge(account, payment)).resolves.toMatchObject({ status: 'paid', pix: { endToEndId: expect.stringMatching(END_TO_END_ID) } });
    });

    it('qr_with_due_payment: a composite code naming the due-date charge’s location; authorizing pays what is due that day', async () => {
      const due = {
        date: addDays(TODAY, 5),
        daysAfterDue: 10,
        fine: null,
        interest: null,
        discount: { type: 'fixed_until' as const, until: [{ date: addDays(TODAY, 5), value: 500 }] },
        abatement: null,
      };
      const payment = await adapter.createCharge(account, chargeRequest(receiver.url, { amountCents: 10_000, due }));
      const recurrence = await recurring.createRecurrence(account, recurrenceRequest({ journey: 'qr_with_due_payment', firstPayment: { txid: payment.txid } }));
      expect(parsePix(recurrence.copyPaste!)).toMatchObject({
        type: 'DYNAMIC',
        url: `pix.sandbox.invalid/cobv/${payment.txid}`,
        urlRec: `pix.sandbox.invalid/rec/${recurrence.providerRecurrenceId}`,
      });

      await simulated({ subject: 'recurrence', ref: recurrence, action: 'authorize' }, '/rec');
      const [event] = await adapter.receiveCallback(account, asInbound(await receiver.next()));
      expect(event).toMatchObject({ type: 'payment.confirmed', paymentRef: payment.providerPaymentId, amountCents: 9_500 });
      await expect(adapter.getCharge(account, { ...payment, due: true })).resolves.toMatchObject({ status: 'paid', pix: { paidAmountCents: 9_500 } });
    });

    it('refuses a composite QR over a charge of the other kind: an immediate one for qr_with_due_payment, a due-date one for qr_with_first_payment', async () => {
      const immediate = await adapter.createCharge(account, chargeRequest(receiver.url));
      const due = { date: addDays(TODAY, 5), daysAfterDue: 10, fine: null, interest: null, discount: null, abatement: null };
      const dueCharge = await adapter.createCharge(account, chargeRequest(receiver.url, { due }));
      for (const [journey, charge] of [
        ['qr_with_due_payment', immediate],
        ['qr_with_first_payment', dueCharge],
      ] as const) {
        const error = await refusal(recurring.createRecurrence(account, recurrenceRequest({ journey, firstPayment: { txid: charge.txid } })));
        expect(error).toMatchObject({ upstreamStatus: 400, providerCode: 'INVALID_REQUEST' });
      }
    });

    it('qr_with_first_payment: refused without a sandbox charge to pay', async () => {
      const error = await refusal(recurring.createRecurrence(account, recurrenceRequest({ journey: 'qr_with_first_payment', firstPayment: { txid: txid() } })));
      expect(error).toMatchObject({ upstreamStatus: 400, providerCode: 'INVALID_REQUEST' });
    });

    it('request: no QR, the payer account asked; refused without one', async () => {
      const payerAccount = { ispbParticipante: '12345678', agencia: '0001', conta: '998877', cidadeCodigo: '3550308' };
      const recurrence = await recurring.createRecurrence(account, recurrenceRequest({ journey: 'request', payerAccount }));
      expect(recurrence).toMatchObject({ status: 'pending_authorization', copyPaste: null });
      const error = await refusal(recurring.createRecurrence(account, recurrenceRequest({ journey: 'request' })));
      expect(error).toMatchObject({ upstreamStatus: 400, providerCode: 'INVALID_REQUEST' });
    });

    it('refuses both or neither amount, a start in the past and an end before the start', async () => {
      for (const overrides of [
        { amountCents: 100, minimumAmountCents: 100 },
        { amountCents: null, minimumAmountCents: null },
        { startDate: addDays(TODAY, -1) },
        { endDate: TODAY },
      ]) {
        await expect(refusal(recurring.createRecurrence(account, recurrenceRequest(overrides)))).resolves.toMatchObject({ upstreamStatus: 400 });
      }
    });
  });

  describe('read and cancel', () => {
    it('reads a recurrence back; an unknown one is a 404', async () => {
      const recurrence = await recurring.createRecurrence(account, recurrenceRequest());
      await expect(recurring.getRecurrence(account, recurrence)).resolves.toEqual(recurrence);
      await expect(refusal(recurring.getRecurrence(account, { providerRecurrenceId: 'sbxrec_unknown' }))).resolves.toMatchObject({
        upstreamStatus: 404,
        providerCode: 'RECURRENCE_NOT_FOUND',
      });
    });

    it('expires one the payer left waiting past its expiry', async () => {
      const recurrence = await recurring.createRecurrence(account, recurrenceRequest({ expiresInSeconds: 60 }));
      offset += 61_000;
      await expect(recurring.getRecurrence(account, recurrence)).resolves.toMatchObject({ status: 'expired', copyPaste: null });
    });

    it('cancels as the merchant, with its charges not yet attempted; an ended one stays as it is', async () => {
      const recurrence = await authorized();
      const charge = await recurring.createCharge(account, chargeOf(recurrence));
      const cancelled = await recurring.cancelRecurrence(account, recurrence);
      expect(cancelled).toMatchObject({ status: 'cancelled', cancelledBy: 'merchant' });
      await expect(recurring.getCharge(account, charge)).resolves.toMatchObject({ status: 'cancelled', open: false, attempts: [{ status: 'cancelled' }] });
      await expect(recurring.cancelRecurrence(account, recurrence)).resolves.toMatchObject({ status: 'cancelled', cancelledBy: 'merchant' });
    });
  });

  describe('charges', () => {
    it('creates one per cycle, scheduled on its due date; the same txid again is the same charge', async () => {
      const recurrence = await authorized();
      const request = chargeOf(recurrence);
      const charge = await recurring.createCharge(account, request);
      expect(charge).toEqual({
        txid: request.txid,
        providerRecurrenceId: recurrence.providerRecurrenceId,
        status: 'scheduled',
        open: true,
        amountCents: 4990,
        dueDate: request.dueDate,
        attempts: [{ date: request.dueDate, status: 'scheduled', endToEndId: null, reason: null }],
        endToEndId: null,
        paidAt: null,
        failureReason: null,
        updatedAt: new Date(START),
      });
      await expect(recurring.createCharge(account, request)).resolves.toEqual(charge);
      await expect(recurring.getCharge(account, charge)).resolves.toEqual(charge);
      const conflict = await refusal(recurring.createCharge(account, { ...request, amountCents: 5000 }));
      expect(conflict).toMatchObject({ upstreamStatus: 409, providerCode: 'TXID_CONFLICT' });
    });

    it('refuses a second charge in the cycle, until the first is cancelled', async () => {
      const recurrence = await authorized();
      const first = await recurring.createCharge(account, chargeOf(recurrence, { dueDate: addDays(TODAY, 3) }));
      const second = chargeOf(recurrence, { dueDate: addDays(TODAY, 6) });
      await expect(refusal(recurring.createCharge(account, second))).resolves.toMatchObject({ upstreamStatus: 409, providerCode: 'CYCLE_TAKEN' });
      await recurring.cancelCharge(account, first);
      await expect(recurring.createCharge(account, second)).resolves.toMatchObject({ status: 'scheduled' });
    });

    it.each([
      ['1 day ahead (under the lead time)', 1],
      ['11 days ahead (over it)', 11],
      ['before today', -1],
    ])('refuses a due date %s: 400 DUE_DATE_REFUSED', async (_, ahead) => {
      const recurrence = await authorized();
      const error = await refusal(recurring.createCharge(account, chargeOf(recurrence, { dueDate: addDays(TODAY, ahead) })));
      expect(error).toMatchObject({ kind: 'http', upstreamStatus: 400, providerCode: 'DUE_DATE_REFUSED' });
    });

    it('takes due dates 2 and 10 days ahead, the edges of the lead time', async () => {
      const weekly = await authorized({ frequency: 'weekly' });
      await expect(recurring.createCharge(account, chargeOf(weekly, { dueDate: addDays(TODAY, 2) }))).resolves.toMatchObject({ status: 'scheduled' });
      await expect(recurring.createCharge(account, chargeOf(weekly, { dueDate: addDays(TODAY, 10) }))).resolves.toMatchObject({ status: 'scheduled' });
    });

    it('refuses a charge for a recurrence not yet authorized, and a fixed amount other than its own', async () => {
      const pending = await recurring.createRecurrence(account, recurrenceRequest());
      await expect(refusal(recurring.createCharge(account, chargeOf(pending)))).resolves.toMatchObject({ upstreamStatus: 400, providerCode: 'RECURRENCE_NOT_ACTIVE' });
      const active = await authorized();
      await expect(refusal(recurring.createCharge(account, chargeOf(active, { amountCents: 5000 })))).resolves.toMatchObject({
        upstreamStatus: 400,
        providerCode: 'AMOUNT_MISMATCH',
      });
    });

    it('takes any amount from the minimum of a variable recurrence', async () => {
      const variable = await authorized({ amountCents: null, minimumAmountCents: 1000 });
      await expect(refusal(recurring.createCharge(account, chargeOf(variable, { amountCents: 999 })))).resolves.toMatchObject({ providerCode: 'AMOUNT_BELOW_MINIMUM' });
      await expect(recurring.createCharge(account, chargeOf(variable, { amountCents: 12345 }))).resolves.toMatchObject({ amountCents: 12345 });
    });

    it('cancels a charge only before its due date', async () => {
      const recurrence = await authorized({ frequency: 'weekly' });
      const early = await recurring.createCharge(account, chargeOf(recurrence, { dueDate: addDays(TODAY, 3) }));
      await expect(recurring.cancelCharge(account, early)).resolves.toMatchObject({ status: 'cancelled', open: false });
      const late = await recurring.createCharge(account, chargeOf(recurrence, { dueDate: addDays(TODAY, 10) }));
      days(10);
      await expect(refusal(recurring.cancelCharge(account, late))).resolves.toMatchObject({ upstreamStatus: 400, providerCode: 'CANCEL_WINDOW_CLOSED' });
      await expect(recurring.getCharge(account, late)).resolves.toMatchObject({ status: 'scheduled' });
    });
  });

  describe('retries', () => {
    async function failedCharge(retryPolicy: CreateRecurrenceRequest['retryPolicy']): Promise<ProviderRecurringCharge> {
      const recurrence = await authorized({ retryPolicy });
      const charge = await recurring.createCharge(account, chargeOf(recurrence));
      days(5);
      const { reports } = await simulated({ subject: 'charge', ref: charge, action: 'fail' }, '/cobr');
      return (reports[0] as Extract<RecurringReport, { kind: 'charge' }>).charge;
    }

    it('none: a failed attempt fails the charge for good, and no retry is taken', async () => {
      const charge = await failedCharge('none');
      expect(charge).toMatchObject({ status: 'failed', open: false, failureReason: expect.any(String), attempts: [{ status: 'failed', reason: expect.any(String) }] });
      await expect(refusal(recurring.retryCharge(account, charge, addDays(charge.dueDate, 1)))).resolves.toMatchObject({ upstreamStatus: 400, providerCode: 'RETRY_NOT_ALLOWED' });
    });

    it('three_in_seven_days: open after a failed attempt; up to 3 retries, each after the last, none after the due date + 7', async () => {
      const charge = await failedCharge('three_in_seven_days');
      expect(charge).toMatchObject({ status: 'failed', open: true });
      const due = charge.dueDate;
      await expect(refusal(recurring.retryCharge(account, charge, due))).resolves.toMatchObject({ providerCode: 'RETRY_DATE_REFUSED' });
      await expect(refusal(recurring.retryCharge(account, charge, addDays(due, 8)))).resolves.toMatchObject({ providerCode: 'RETRY_DATE_REFUSED' });

      for (const [retry, date] of [addDays(due, 1), addDays(due, 3), addDays(due, 7)].entries()) {
        const retried = await recurring.retryCharge(account, charge, date);
        expect(retried).toMatchObject({ status: 'scheduled', open: true });
        expect(retried.attempts).toHaveLength(retry + 2);
        expect(retried.attempts.at(-1)).toEqual({ date, status: 'scheduled', endToEndId: null, reason: null });
        // Asked again (its answer lost): the same attempt, not another.
        await expect(recurring.retryCharge(account, charge, date)).resolves.toEqual(retried);
        // Only after a failed attempt.
        await expect(refusal(recurring.retryCharge(account, charge, addDays(date, 1)))).resolves.toMatchObject({ providerCode: 'ATTEMPT_NOT_FAILED' });
        days(daysUntil(date));
        await simulated({ subject: 'charge', ref: charge, action: 'fail' }, '/cobr');
      }
      // The third retry failed: the charge has failed for good.
      const ended = await recurring.getCharge(account, charge);
      expect(ended).toMatchObject({ status: 'failed', open: false });
      expect(ended.attempts.map((attempt) => attempt.status)).toEqual(['failed', 'failed', 'failed', 'failed']);
      await expect(refusal(recurring.retryCharge(account, charge, addDays(due, 7)))).resolves.toMatchObject({ upstreamStatus: 400 });
    });

    it('a retry that settles pays the charge', async () => {
      const charge = await failedCharge('three_in_seven_days');
      await recurring.retryCharge(account, charge, addDays(charge.dueDate, 2));
      const { reports } = await simulated({ subject: 'charge', ref: charge, action: 'settle' }, '/cobr');
      expect(reports[0]).toMatchObject({
        kind: 'charge',
        charge: { status: 'paid', open: false, attempts: [{ status: 'failed' }, { status: 'paid', endToEndId: expect.stringMatching(END_TO_END_ID) }] },
      });
    });

    /** Days from the sandbox's today to `date`. */
    function daysUntil(date: string): number {
      return Math.round((Date.parse(`${date}T15:00:00Z`) - (START + offset)) / 86_400_000);
    }
  });

  describe('simulations and their callbacks', () => {
    it.each([
      ['authorize', 'active'],
      ['reject', 'rejected'],
      ['expire', 'expired'],
    ] as const)('%s: a signed callback at /rec, read back as %s', async (action, status) => {
      const recurrence = await recurring.createRecurrence(account, recurrenceRequest());
      const { reports, callback } = await simulated({ subject: 'recurrence', ref: recurrence, action }, '/rec');
      expect(callback.body).toEqual({ id: expect.any(String), recurrences: [{ id: recurrence.providerRecurrenceId, status: expect.any(String), updatedAt: expect.any(String) }] });
      expect(reports).toEqual([{ kind: 'recurrence', eventId: `sandbox:rec:${recurrence.providerRecurrenceId}:${status}`, recurrence: expect.objectContaining({ status }) }]);
      // The same callback again is the same report.
      await expect(recurring.receiveCallback(account, asInbound(callback))).resolves.toEqual(reports);
      // A recurrence that has left pending_authorization cannot be authorized again.
      await expect(refusal(recurring.simulate(account, { subject: 'recurrence', ref: recurrence, action: 'authorize' }))).resolves.toMatchObject({
        upstreamStatus: 409,
        providerCode: 'RECURRENCE_STATE_CONFLICT',
      });
    });

    it('payer_cancel: cancelled by the payer at /rec, and its charges not yet attempted cancelled at /cobr', async () => {
      const recurrence = await authorized({ frequency: 'weekly' });
      const attempted = await recurring.createCharge(account, chargeOf(recurrence, { dueDate: addDays(TODAY, 2) }));
      const waiting = await recurring.createCharge(account, chargeOf(recurrence, { dueDate: addDays(TODAY, 9) }));
      await simulated({ subject: 'charge', ref: attempted, action: 'settle' }, '/cobr');

      const { reports } = await simulated({ subject: 'recurrence', ref: recurrence, action: 'payer_cancel' }, '/rec');
      expect(reports).toEqual([{ kind: 'recurrence', eventId: expect.any(String), recurrence: expect.objectContaining({ status: 'cancelled', cancelledBy: 'payer' }) }]);
      const cobr = await receiver.next();
      expect(cobr.path).toBe('/cobr');
      const charges = await recurring.receiveCallback(account, asInbound(cobr));
      expect(charges).toEqual([{ kind: 'charge', eventId: expect.any(String), charge: expect.objectContaining({ txid: waiting.txid, status: 'cancelled' }) }]);
      await expect(recurring.getCharge(account, attempted)).resolves.toMatchObject({ status: 'paid' });
    });

    it('settle: paid, with an end-to-end id in the BCB format (ISPB 99999999), at /cobr', async () => {
      const recurrence = await authorized();
      const charge = await recurring.createCharge(account, chargeOf(recurrence));
      const { reports, callback } = await simulated({ subject: 'charge', ref: charge, action: 'settle' }, '/cobr');
      expect(callback.body).toEqual({
        id: expect.any(String),
        recurringCharges: [{ txid: charge.txid, recurrenceId: recurrence.providerRecurrenceId, status: 'CONCLUIDA', updatedAt: expect.any(String) }],
      });
      const paid = (reports[0] as Extract<RecurringReport, { kind: 'charge' }>).charge;
      expect(paid).toMatchObject({ status: 'paid', open: false, endToEndId: expect.stringMatching(END_TO_END_ID), paidAt: new Date(START) });
      expect(paid.attempts).toEqual([{ date: charge.dueDate, status: 'paid', endToEndId: paid.endToEndId, reason: null }]);
      // Nothing is scheduled any more.
      await expect(refusal(recurring.simulate(account, { subject: 'charge', ref: charge, action: 'fail' }))).resolves.toMatchObject({
        upstreamStatus: 409,
        providerCode: 'NO_ATTEMPT_SCHEDULED',
      });
    });

    it('reports ids: one per state, the same state read twice being the same report', async () => {
      const recurrence = await authorized({ retryPolicy: 'three_in_seven_days' });
      const charge = await recurring.createCharge(account, chargeOf(recurrence));
      const failed = await simulated({ subject: 'charge', ref: charge, action: 'fail' }, '/cobr');
      await expect(recurring.receiveCallback(account, asInbound(failed.callback))).resolves.toEqual(failed.reports);
      days(5);
      await recurring.retryCharge(account, charge, addDays(charge.dueDate, 1));
      days(1);
      const again = await simulated({ subject: 'charge', ref: charge, action: 'fail' }, '/cobr');
      expect(again.reports[0]!.eventId).not.toBe(failed.reports[0]!.eventId);
    });
  });

  describe('callbacks refused', () => {
    it('a forged body under a real signature is refused, as is an unsigned one', async () => {
      const recurrence = await recurring.createRecurrence(account, recurrenceRequest());
      const { callback } = await simulated({ subject: 'recurrence', ref: recurrence, action: 'authorize' }, '/rec');
      const forged = { ...asInbound(callback), rawBody: Buffer.from(callback.rawBody.toString('utf8').replace(recurrence.providerRecurrenceId, 'sbxrec_forged')) };
      await expect(recurring.receiveCallback(account, forged)).rejects.toBeInstanceOf(WebhookAuthError);
      const unsigned = { ...asInbound(callback), headers: {} };
      await expect(recurring.receiveCallback(account, unsigned)).rejects.toBeInstanceOf(WebhookAuthError);
    });

    it('a signed callback naming nothing the sandbox knows confirms nothing', async () => {
      const unsignedAccount = { ...account, credentials: { webhookSecret: null } };
      const inbound: InboundCallback = {
        method: 'POST',
        path: '/rec',
        query: {},
        headers: {},
        rawBody: Buffer.from(JSON.stringify({ id: 'x', recurrences: [{ id: 'sbxrec_nobody' }] })),
      };
      // Outside production an account without a secret takes unsigned callbacks, but still reads each back.
      await expect(recurring.receiveCallback(unsignedAccount, inbound)).rejects.toBeInstanceOf(WebhookAuthError);
    });

    it('in production, an account without a secret takes no unsigned callback', async () => {
      const production = new SandboxAdapter(transport, { enabled: false, baseUrl: sandbox.url, apiToken: new Secret(sandbox.apiToken) }, { isProduction: true, timeoutMs: 8_000 });
      const recurrence = await recurring.createRecurrence(account, recurrenceRequest());
      const inbound: InboundCallback = {
        method: 'POST',
        path: '/rec',
        query: {},
        headers: {},
        rawBody: Buffer.from(JSON.stringify({ id: 'x', recurrences: [{ id: recurrence.providerRecurrenceId }] })),
      };
      await expect(production.recurring.receiveCallback({ ...account, credentials: { webhookSecret: null } }, inbound)).rejects.toBeInstanceOf(WebhookAuthError);
    });
  });
});
