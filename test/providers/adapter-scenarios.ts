import { randomBytes } from 'node:crypto';
import { parsePix } from 'pix-utils';
import { type CreateChargeRequest, type ProviderCharge, UpstreamError, type UpstreamFailureKind, WebhookParseError } from '../../src/providers/provider-adapter';
import { type InboundCallback, type Account, type ProviderAdapter, type ProviderRefund, WebhookAuthError } from '../../src/providers/provider-adapter';
import { hasValidCrc } from '../../src/testing/emv';
import { type DueTerms, lastPayableDate } from '../../src/domain/due-charge';
import { BRAZIL_CALENDAR } from '../../src/common/calendar/brazil-calendar';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import { chargeRequest as newChargeRequest } from '../helpers/factories';

/** Failures a PSP fake can be told to produce on the next charge call. */
export type ScenarioFailure = 'http_503' | 'problem_400' | 'timeout' | 'malformed' | 'down';

/** A fake PSP as the scenarios drive it: the payer's side, the PSP's own doings, and failure injection. */
export interface ScenarioPsp {
  /**
   * The payer pays the charge in full; resolves with the callback the PSP posted, as the gateway
   * received it, and the paying Pix's endToEndId when the PSP reports one. `amountCents`, for a
   * due-date charge: what the payer pays (late, with fine and interest; early, with a discount).
   */
  pay(charge: ProviderCharge, payer?: { name: string; cpf: string }, amountCents?: number): Promise<{ endToEndId: string | null; callback: InboundCallback }>;
  /** A refund reaches its final status at the PSP; resolves with the callback the PSP posted about it (PSPs that refund). */
  settleRefund?(endToEndId: string, refund: ProviderRefund, outcome: 'succeeded' | 'failed'): Promise<InboundCallback>;
  /**
   * Money goes back without the gateway asking: the receiver at the PSP's own portal (`portal`), or a
   * MED return (`med`, PSPs with features.medReturns). The refund settles as succeeded; resolves with
   * the callback the PSP posted about it.
   */
  refundOutside?(charge: ProviderCharge, endToEndId: string, amountCents: number, how: 'portal' | 'med'): Promise<InboundCallback>;
  /** One callback carrying the entries of `callbacks` in order, as the PSP batches them (PSPs that batch). */
  batch?(callbacks: InboundCallback[]): InboundCallback;
  /** `callback` with its claims changed: another amount, a payment the PSP never saw, another charge. */
  forge(callback: InboundCallback, how: 'amount' | 'unknown pix' | 'other txid'): InboundCallback;
  /** How many charges the PSP holds. */
  chargeCount(): Promise<number> | number;
  /** Revokes every token issued so far (PSPs with OAuth2 tokens). */
  expireTokens?(): void;
  /** Token requests so far (PSPs with OAuth2 tokens). */
  readonly tokenRequests?: number;
  /** The next charge call (create or read, `PUT`/`GET /cob/{txid}`) meets `failure`. */
  fail(failure: ScenarioFailure): Promise<void> | void;
  /** The next batch holding `txid` refuses that charge (PSPs with features.chargeBatches). */
  refuseInBatch?(txid: string): void;
  /** The next batch made is still processing for `reads` reads (PSPs with features.chargeBatches). */
  holdBatch?(reads: number): void;
  /** Forgets queued failures. */
  reset(): Promise<void> | void;
  /** Stops the PSP: nobody answers afterwards. */
  stop(): Promise<void>;
  /** Throws if anything the adapter sent (or the fake answered) broke the PSP's API document. */
  assertNoViolations(): void;
}

export interface ScenarioSetup<C> {
  adapter: ProviderAdapter<C>;
  /** The same adapter with a timeout well under the PSP's held answers. */
  impatient: ProviderAdapter<C>;
  account: Account<C>;
  /** The account with a client certificate the PSP does not trust (PSPs with mutual TLS). */
  untrustedAccount?: Account<C>;
  psp: ScenarioPsp;
  /** Moves the adapters' clock; reset() puts it back. */
  clock: { advance(ms: number): void; reset(): void };
  /** Where callbacks go: the suite registers it with the PSP first. */
  webhookUrl: string;
  close(): Promise<void>;
}

/**
 * What a PSP does that not every PSP does, declared when the suite is defined (the scenarios about
 * the rest are not run for it). The first three must equal the adapter's own `capabilities`.
 */
export interface ScenarioFeatures {
  refund: boolean;
  cancel: boolean;
  registerWebhook: boolean;
  /** Mutual TLS: calls with a certificate the PSP does not trust get nowhere. */
  mutualTls: boolean;
  /** The charge's provider id is its txid (the Pix API), rather than an id of the PSP's. */
  providerIdIsTxid: boolean;
  /** Its BR Code is dynamic (the amount behind the PSP's location) rather than carrying the amount. */
  dynamicBrCode: boolean;
  /** It reports the paying Pix: endToEndId, paid amount, payer. */
  payerDetails: boolean;
  /** One callback may carry several payments. */
  batches: boolean;
  /** OAuth2 tokens, cached per account and refreshed once when revoked. */
  tokens: boolean;
  /**
   * It finds a charge by the gateway's txid alone (default true). Mercado Pago finds a payment by its
   * own id only: the txid is the X-Idempotency-Key it was created with, and a create retried with it
   * is how its charge is found again.
   */
  readsByTxid?: boolean;
  /** It reports the paying Pix, but of a payer of its own choosing (the sandbox: the charge's recipient), so `pay()`'s payer is not it. */
  ownPayer?: boolean;
  /** Returns made under the MED (Mecanismo Especial de Devolução) are told apart from the receiver's own. */
  medReturns?: boolean;
  /** Its refund records name the gateway's own refund (`gatewayRefundId`), so a lost answer is recognised by id. */
  namesGatewayRefunds?: boolean;
  /** The shortest lifetime it gives a charge (Mercado Pago: 5 minutes), when longer than the scenarios' 60 s. */
  minLifetimeSeconds?: number;
  /**
   * Due-date charges (`capabilities.dueCharges`): created, read, changed, cancelled, expired and
   * paid late (pay()'s amount). Given, it must equal the descriptor's; left out, their scenarios are
   * skipped (an adapter whose suite does not drive them yet).
   */
  dueCharges?: boolean;
  /** Batches of due-date charges (`capabilities.chargeBatches`), with the PSP's refuseInBatch and holdBatch. As dueCharges. */
  chargeBatches?: boolean;
}

const FAILURES: Record<ScenarioFailure, { kind: UpstreamFailureKind; status?: number; ambiguous: boolean; providerCode?: boolean }> = {
  http_503: { kind: 'http', status: 503, ambiguous: true },
  problem_400: { kind: 'http', status: 400, ambiguous: false, providerCode: true },
  timeout: { kind: 'timeout', ambiguous: true },
  malformed: { kind: 'malformed', ambiguous: false },
  down: { kind: 'network', ambiguous: true },
};

async function rejection<T extends Error>(call: Promise<unknown>, type: new (...args: never[]) => T): Promise<T> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof type)) throw new Error(`expected a ${type.name}, got ${error === undefined ? 'success' : JSON.stringify(error)}`);
  return error;
}

/**
 * What every account-based adapter owes the gateway, over real HTTPS against a fake of its PSP:
 * charges (created once per txid, read, cancelled, expired), refunds in full and in part,
 * callbacks confirmed by reading back (batches, duplicates, forgeries), tokens (one per burst, one
 * refresh when revoked), failures as UpstreamError kinds, and the health check. The fake checks
 * every exchange against the PSP's API document; each test ends by asserting it found nothing.
 */
export function adapterScenarios<C>(label: string, features: ScenarioFeatures, start: () => Promise<ScenarioSetup<C>>): void {
  const when = (feature: boolean) => (feature ? it : it.skip);
  const describeWhen = (feature: boolean) => (feature ? describe : describe.skip);
  describe(`adapter scenarios: ${label}`, () => {
    let setup: ScenarioSetup<C>;
    let adapter: ProviderAdapter<C>;
    let account: Account<C>;
    let psp: ScenarioPsp;

    const chargeRequest = (overrides: Partial<CreateChargeRequest> = {}) => newChargeRequest(setup.webhookUrl, overrides);
    const lookup = (charge: ProviderCharge) => ({ txid: charge.txid, providerPaymentId: charge.providerPaymentId });
    const refundId = () => `ref_${randomBytes(12).toString('hex')}`;
    const paidCharge = async (amountCents = 1050) => {
      const charge = await adapter.createCharge(account, chargeRequest({ amountCents }));
      const { endToEndId, callback } = await psp.pay(charge, { name: 'Bruno Lima', cpf: '98765432100' });
      return { charge, endToEndId: endToEndId!, callback };
    };

    beforeAll(async () => {
      setup = await start();
      ({ adapter, account, psp } = setup);
      const { refund, cancel, registerWebhook } = features;
      const { capabilities } = adapter.descriptor;
      expect({ refund, cancel, registerWebhook }).toEqual({
        refund: capabilities.refund,
        cancel: capabilities.cancel,
        registerWebhook: capabilities.registerWebhook,
      });
      // Due-date charges and batches: a suite that says whether it runs them says what the descriptor declares; one that does not say skips them.
      for (const name of ['dueCharges', 'chargeBatches'] as const) {
        if (features[name] !== undefined) expect({ [name]: features[name] }).toEqual({ [name]: Boolean(capabilities[name]) });
      }
      // Callbacks of the PSP go to the suite's receiver (registering is also a scenario below).
      if (features.registerWebhook) await adapter.registerWebhook!(account, setup.webhookUrl);
    });
    afterEach(async () => {
      await psp.reset();
      setup.clock.reset();
      psp.assertNoViolations();
    });
    afterAll(async () => {
      await setup?.close();
    });

    when(features.registerWebhook)('registers where the PSP posts its callbacks', async () => {
      await expect(adapter.registerWebhook!(account, setup.webhookUrl)).resolves.toBeUndefined();
    });

    describe('charges', () => {
      it("creates a pending charge whose BR Code is the PSP's own, valid, for the amount", async () => {
        const request = chargeRequest({ amountCents: 123456 });
        const charge = await adapter.createCharge(account, request);
        expect(charge).toMatchObject({ txid: request.txid, status: 'pending', amountCents: 123456, paidAt: null });
        expect(charge.providerPaymentId).toEqual(features.providerIdIsTxid ? request.txid : expect.any(String));
        expect(charge.expiresAt!.getTime()).toBeGreaterThan(Date.now() + 3500_000);
        expect(hasValidCrc(charge.copyPaste)).toBe(true);
        // A dynamic BR Code has the amount in the PSP's payload behind its location; a static one carries it.
        expect(parsePix(charge.copyPaste)).toMatchObject(features.dynamicBrCode ? { type: 'DYNAMIC' } : { type: 'STATIC', transactionAmount: 1234.56 });
      });

      it('reads a charge back', async () => {
        const charge = await adapter.createCharge(account, chargeRequest());
        await expect(adapter.getCharge(account, lookup(charge))).resolves.toEqual(charge);
        if (features.readsByTxid !== false) await expect(adapter.getCharge(account, { txid: charge.txid, providerPaymentId: null })).resolves.toEqual(charge);
      });

      it('creates with the same txid again: the same charge, never a second one', async () => {
        const request = chargeRequest();
        const before = await psp.chargeCount();
        const first = await adapter.createCharge(account, request);
        const again = await adapter.createCharge(account, { ...request, paymentId: `pay_${randomBytes(8).toString('hex')}` });
        expect(again).toEqual(first);
        expect(await psp.chargeCount()).toBe(before + 1);
      });

      it('creates with the txid of a charge already paid: that charge, paid', async () => {
        const { charge } = await paidCharge();
        const again = await adapter.createCharge(account, chargeRequest({ txid: charge.txid }));
        expect(again).toMatchObject({ txid: charge.txid, status: 'paid' });
      });

      it('after a lost answer, a retry with the same txid gets the one charge', async () => {
        const request = chargeRequest();
        await psp.fail('timeout');
        await expect(rejection(setup.impatient.createCharge(account, request), UpstreamError)).resolves.toMatchObject({ kind: 'timeout' });
        const retried = await adapter.createCharge(account, request);
        await expect(adapter.getCharge(account, lookup(retried))).resolves.toEqual(retried);
      });

      it("reports an unknown charge as http 404 with the PSP's code", async () => {
        const unknown =
          features.readsByTxid === false
            ? { txid: randomBytes(16).toString('hex'), providerPaymentId: '999999999999' }
            : { txid: randomBytes(16).toString('hex'), providerPaymentId: null };
        const error = await rejection(adapter.getCharge(account, unknown), UpstreamError);
        expect(error).toMatchObject({ kind: 'http', upstreamStatus: 404 });
        expect(error.providerCode).toEqual(expect.any(String));
      });

      it('computes expiry: a charge past its lifetime reads as expired', async () => {
        const charge = await adapter.createCharge(account, chargeRequest({ expiresInSeconds: 60 }));
        const lifetime = Math.max(60, features.minLifetimeSeconds ?? 0);
        setup.clock.advance((lifetime + 1) * 1000);
        await expect(adapter.getCharge(account, lookup(charge))).resolves.toMatchObject({ status: 'expired' });
      });

      when(features.cancel)('cancels an open charge', async () => {
        const charge = await adapter.createCharge(account, chargeRequest());
        await expect(adapter.cancelCharge!(account, lookup(charge))).resolves.toMatchObject({ txid: charge.txid, status: 'cancelled' });
        await expect(adapter.getCharge(account, lookup(charge))).resolves.toMatchObject({ status: 'cancelled' });
      });

      when(features.cancel)('answers a cancel of a charge paid meanwhile with the charge, paid', async () => {
        const { charge } = await paidCharge();
        await expect(adapter.cancelCharge!(account, lookup(charge))).resolves.toMatchObject({ txid: charge.txid, status: 'paid' });
      });

      it('reports a paid charge as paid, and when', async () => {
        const { charge } = await paidCharge();
        await expect(adapter.getCharge(account, lookup(charge))).resolves.toMatchObject({ status: 'paid', paidAt: expect.any(Date), amountCents: 1050 });
      });

      when(features.payerDetails)('reports what a paid charge has: when, how much, by whom (the document masked)', async () => {
        const { charge, endToEndId } = await paidCharge();
        const paid = await adapter.getCharge(account, lookup(charge));
        expect(paid).toMatchObject({
          status: 'paid',
          paidAt: expect.any(Date),
          pix: { endToEndId, paidAmountCents: 1050, payer: { name: 'Bruno Lima', documentMasked: '***.654.321-**' } },
        });
      });
    });

    describeWhen(features.dueCharges ?? false)('due-date charges', () => {
      // The PSP takes a due date from today on, in Brasília: the scenarios' are ahead of it.
      const dueIn = (days: number) => addDays(brasiliaDate(new Date()), days);
      const terms = (overrides: Partial<DueTerms> = {}): DueTerms => ({
        date: dueIn(10),
        daysAfterDue: 5,
        fine: { type: 'percent', value: 200 },
        interest: { type: 'percent_per_month', days: 'calendar', value: 100 },
        discount: { type: 'fixed_until', until: [{ date: dueIn(5), value: 500 }] },
        abatement: null,
        ...overrides,
      });
      const dueRequest = (overrides: Partial<CreateChargeRequest> = {}) =>
        chargeRequest({ amountCents: 100_000, due: terms(), payerAddress: { street: 'Rua das Flores, 10', city: 'Recife', state: 'PE', zip: '50030-230' }, ...overrides });
      const dueLookup = (charge: ProviderCharge) => ({ ...lookup(charge), due: true });
      /** The end of `date` plus `days` in Brasília (UTC−3): the instant a due-date charge stops being payable. */
      // The end, in Brasília, of the last payable day: a weekend or holiday moves to the next business day.
      const endOf = (date: string, days: number) => new Date(Date.parse(`${addDays(lastPayableDate({ date, daysAfterDue: days }, BRAZIL_CALENDAR), 1)}T03:00:00Z`) - 1);

      it('creates a pending due-date charge with its BR Code, payable until the end of its due date plus the days after it', async () => {
        const request = dueRequest();
        const charge = await adapter.createCharge(account, request);
        expect(charge).toMatchObject({ txid: request.txid, status: 'pending', amountCents: 100_000, paidAt: null, expiresAt: endOf(request.due!.date, 5) });
        expect(hasValidCrc(charge.copyPaste)).toBe(true);
        // Dynamic whatever the PSP's immediate charges are: a cobv is shown at a location of its own kind, whose payload has what is owed on the day paid
        // (https://github.com/bacen/pix-api/blob/1f1b568f6adf5b55a6268efbaf62802a14b01941/openapi.yaml, `cobv.loc.id`).
        expect(parsePix(charge.copyPaste)).toMatchObject({ type: 'DYNAMIC' });
      });

      it('reads it back, and creates with the same txid again: the same charge, never a second one', async () => {
        const request = dueRequest();
        const before = await psp.chargeCount();
        const charge = await adapter.createCharge(account, request);
        await expect(adapter.getCharge(account, dueLookup(charge))).resolves.toEqual(charge);
        await expect(adapter.createCharge(account, { ...request, paymentId: `pay_${randomBytes(8).toString('hex')}` })).resolves.toEqual(charge);
        expect(await psp.chargeCount()).toBe(before + 1);
      });

      it('changes its amount and terms: the same BR Code, the new amount and expiry, read back so', async () => {
        const charge = await adapter.createCharge(account, dueRequest());
        const due = terms({ date: dueIn(20), daysAfterDue: 0, fine: null, discount: null, abatement: { type: 'fixed', value: 1000 } });
        const changed = await adapter.updateCharge!(account, dueLookup(charge), { amountCents: 120_000, due });
        expect(changed).toMatchObject({ txid: charge.txid, status: 'pending', amountCents: 120_000, expiresAt: endOf(due.date, 0) });
        if (changed.copyPaste !== '') expect(changed.copyPaste).toBe(charge.copyPaste);
        await expect(adapter.getCharge(account, dueLookup(charge))).resolves.toMatchObject({ amountCents: 120_000, expiresAt: endOf(due.date, 0) });
      });

      it('answers a change of a charge paid meanwhile with the charge, paid: nothing changed', async () => {
        const charge = await adapter.createCharge(account, dueRequest());
        await psp.pay(charge, { name: 'Bruno Lima', cpf: '98765432100' });
        await expect(adapter.updateCharge!(account, dueLookup(charge), { amountCents: 1, due: terms() })).resolves.toMatchObject({ status: 'paid', amountCents: 100_000 });
      });

      when(features.cancel)('cancels it', async () => {
        const charge = await adapter.createCharge(account, dueRequest());
        await expect(adapter.cancelCharge!(account, dueLookup(charge))).resolves.toMatchObject({ txid: charge.txid, status: 'cancelled' });
        await expect(adapter.getCharge(account, dueLookup(charge))).resolves.toMatchObject({ status: 'cancelled' });
      });

      it('reads as expired once past the end of its due date plus the days after it, not a moment before', async () => {
        const request = dueRequest({ due: terms({ date: dueIn(1), daysAfterDue: 2, discount: null }) });
        const charge = await adapter.createCharge(account, request);
        const end = endOf(request.due!.date, 2).getTime();
        setup.clock.advance(end - 5_000 - Date.now());
        await expect(adapter.getCharge(account, dueLookup(charge))).resolves.toMatchObject({ status: 'pending' });
        setup.clock.advance(10_000);
        await expect(adapter.getCharge(account, dueLookup(charge))).resolves.toMatchObject({ status: 'expired' });
      });

      it('confirms a late payment for more than the original value, for what was paid, and reads it paid', async () => {
        const charge = await adapter.createCharge(account, dueRequest());
        const { endToEndId, callback } = await psp.pay(charge, { name: 'Bruno Lima', cpf: '98765432100' }, 103_600);
        const events = await adapter.receiveCallback(account, callback);
        expect(events).toEqual([
          expect.objectContaining({ type: 'payment.confirmed', paymentRef: features.providerIdIsTxid ? charge.txid : charge.providerPaymentId, amountCents: 103_600 }),
        ]);
        const paid = await adapter.getCharge(account, dueLookup(charge));
        expect(paid).toMatchObject({ status: 'paid', amountCents: 100_000, paidAt: expect.any(Date) });
        if (features.payerDetails) expect(paid.pix).toMatchObject({ endToEndId, paidAmountCents: 103_600 });
      });

      it('confirms an early payment for less than the original value, for what was paid', async () => {
        const charge = await adapter.createCharge(account, dueRequest());
        const { callback } = await psp.pay(charge, { name: 'Bruno Lima', cpf: '98765432100' }, 95_000);
        await expect(adapter.receiveCallback(account, callback)).resolves.toEqual([expect.objectContaining({ type: 'payment.confirmed', amountCents: 95_000 })]);
      });

      describeWhen(features.chargeBatches ?? false)('batches', () => {
        it("asks for many at once; each charge's outcome is read back: processing, then created or refused with the PSP's reason", async () => {
          const requests = [dueRequest(), dueRequest({ amountCents: 50_000 }), dueRequest({ amountCents: 75_000 })];
          const id = `bat_${randomBytes(8).toString('hex')}`;
          psp.holdBatch!(1);
          psp.refuseInBatch!(requests[1]!.txid);
          await adapter.createChargeBatch!(account, { id, description: 'Mensalidades', charges: requests });
          await expect(adapter.getChargeBatch!(account, id)).resolves.toEqual(requests.map((request) => ({ txid: request.txid, outcome: 'processing', problem: null })));
          await expect(adapter.getChargeBatch!(account, id)).resolves.toEqual([
            { txid: requests[0]!.txid, outcome: 'created', problem: null },
            { txid: requests[1]!.txid, outcome: 'refused', problem: expect.any(String) },
            { txid: requests[2]!.txid, outcome: 'created', problem: null },
          ]);
          const created = await adapter.getCharge(account, { txid: requests[2]!.txid, providerPaymentId: null, due: true });
          expect(created).toMatchObject({ status: 'pending', amountCents: 75_000, expiresAt: endOf(requests[2]!.due!.date, 5) });
          await expect(rejection(adapter.getCharge(account, { txid: requests[1]!.txid, providerPaymentId: null, due: true }), UpstreamError)).resolves.toMatchObject({
            kind: 'http',
            upstreamStatus: 404,
          });
        });

        it('asks for the same batch again after a lost answer: the same charges, no second of any', async () => {
          const requests = [dueRequest(), dueRequest()];
          const id = `bat_${randomBytes(8).toString('hex')}`;
          const before = await psp.chargeCount();
          await adapter.createChargeBatch!(account, { id, description: 'Mensalidades', charges: requests });
          await adapter.createChargeBatch!(account, { id, description: 'Mensalidades', charges: requests });
          await expect(adapter.getChargeBatch!(account, id)).resolves.toEqual(requests.map((request) => ({ txid: request.txid, outcome: 'created', problem: null })));
          expect(await psp.chargeCount()).toBe(before + 2);
        });
      });
    });

    describe('callbacks', () => {
      it("turns a callback into the payment it confirms, with the PSP's values", async () => {
        const { charge, endToEndId, callback } = await paidCharge(2599);
        const events = await adapter.receiveCallback(account, callback);
        expect(events).toEqual([
          {
            eventId: features.payerDetails ? `pix:${endToEndId}` : expect.any(String),
            type: 'payment.confirmed',
            paymentRef: features.providerIdIsTxid ? charge.txid : charge.providerPaymentId,
            amountCents: 2599,
            occurredAt: expect.any(Date),
            ...(features.payerDetails || features.ownPayer ? { pix: { endToEndId: endToEndId ?? expect.any(String), paidAmountCents: 2599, payer: expect.anything() } } : {}),
          },
        ]);
      });

      when(features.batches)('gives one event per Pix in a batch, duplicates included once', async () => {
        const first = await paidCharge(1000);
        const second = await paidCharge(2000);
        const events = await adapter.receiveCallback(account, psp.batch!([first.callback, first.callback, second.callback, first.callback]));
        expect(events.map((event) => [event.paymentRef, event.amountCents])).toEqual([
          [first.charge.txid, 1000],
          [second.charge.txid, 2000],
        ]);
      });

      it.each(['unknown pix', 'amount', 'other txid'] as const)('refuses a forged callback (%s): nothing confirmed, WebhookAuthError', async (how) => {
        const { callback } = await paidCharge();
        await rejection(adapter.receiveCallback(account, psp.forge(callback, how)), WebhookAuthError);
      });

      when(features.batches)('drops the forged entries of a batch and keeps what the PSP confirms', async () => {
        const genuine = await paidCharge(1000);
        const other = await paidCharge(3000);
        const events = await adapter.receiveCallback(account, psp.batch!([psp.forge(other.callback, 'amount'), genuine.callback]));
        expect(events).toEqual([expect.objectContaining({ paymentRef: genuine.charge.txid, amountCents: 1000 })]);
      });

      when(features.batches)('answers a callback with no Pix with no event, and one that is not a Pix callback with WebhookParseError', async () => {
        const { callback } = await paidCharge();
        const empty = psp.batch!([]);
        await expect(adapter.receiveCallback(account, empty)).resolves.toEqual([]);
        await rejection(adapter.receiveCallback(account, { ...callback, rawBody: Buffer.from('{"hello":"world"}') }), WebhookParseError);
        await rejection(adapter.receiveCallback(account, { ...callback, rawBody: Buffer.from('not json') }), WebhookParseError);
      });
    });

    describeWhen(features.refund)('refunds', () => {
      const paymentRef = (charge: ProviderCharge) => (features.providerIdIsTxid ? charge.txid : charge.providerPaymentId);
      const report = (
        refund: Pick<ProviderRefund, 'providerRefundId' | 'amountCents'> & { refundId?: string },
        status: 'pending' | 'succeeded' | 'failed',
        externalOrigin: 'psp' | 'med' = 'psp',
      ) => ({
        providerRefundId: refund.providerRefundId,
        status,
        amountCents: refund.amountCents,
        externalOrigin,
        failureReason: status === 'failed' ? expect.any(String) : null,
        // The gateway's refund when the PSP names it (null for one made outside), absent when it cannot say.
        gatewayRefundId: features.namesGatewayRefunds ? (refund.refundId ?? null) : undefined,
      });

      it('returns part, then the rest: pending until the PSP settles, then succeeded, and the charge refunded', async () => {
        const { charge, endToEndId } = await paidCharge(1050);
        const part = await adapter.refund!(account, { refundId: refundId(), charge: lookup(charge), endToEndId, amountCents: 300, reason: 'Item devolvido' });
        expect(part).toMatchObject({ status: 'pending', amountCents: 300, failureReason: null });
        const settled = await psp.settleRefund!(endToEndId, part, 'succeeded');
        // The callback for a settled refund becomes a refund event carrying what the PSP confirmed.
        const events = await adapter.receiveCallback(account, settled);
        expect(events).toContainEqual(expect.objectContaining({ type: 'refund.succeeded', paymentRef: paymentRef(charge), amountCents: 300, refund: report(part, 'succeeded') }));
        expect(events.filter((event) => event.type === 'payment.refunded')).toEqual([]);
        await expect(adapter.getRefund!(account, { refundId: part.refundId, endToEndId, providerRefundId: part.providerRefundId })).resolves.toMatchObject({
          status: 'succeeded',
          amountCents: 300,
        });
        // A partly refunded charge is still paid at the PSP, and lists its refunds.
        const read = await adapter.getCharge(account, lookup(charge));
        expect(read).toMatchObject({ status: 'paid' });
        expect(read.refunds).toEqual([report(part, 'succeeded')]);

        // The rest, asked for by charge alone: the adapter finds the Pix.
        const rest = await adapter.refund!(account, { refundId: refundId(), charge: lookup(charge), endToEndId: null, amountCents: 750, reason: null });
        await psp.settleRefund!(endToEndId, rest, 'succeeded');
        await expect(adapter.getRefund!(account, { refundId: rest.refundId, endToEndId, providerRefundId: rest.providerRefundId })).resolves.toMatchObject({
          status: 'succeeded',
          amountCents: 750,
        });
        await expect(adapter.getCharge(account, lookup(charge))).resolves.toMatchObject({ status: 'refunded' });
      });

      it('finds a refund whose answer was lost by the refund id alone', async () => {
        const { charge, endToEndId } = await paidCharge(1050);
        const refund = await adapter.refund!(account, { refundId: refundId(), charge: lookup(charge), endToEndId, amountCents: 400, reason: null });
        await expect(adapter.getRefund!(account, { refundId: refund.refundId, endToEndId, providerRefundId: null, charge: lookup(charge) })).resolves.toMatchObject({
          providerRefundId: refund.providerRefundId,
          status: 'pending',
          amountCents: 400,
        });
      });

      it('returns the same refund for the same refund id, never a second one', async () => {
        const { charge, endToEndId } = await paidCharge(1050);
        const request = { refundId: refundId(), charge: lookup(charge), endToEndId, amountCents: 1050, reason: null };
        const first = await adapter.refund!(account, request);
        await expect(adapter.refund!(account, request)).resolves.toEqual(first);
        expect((await adapter.getCharge(account, lookup(charge))).refunds).toHaveLength(1);
      });

      it('reports a refund the PSP could not carry out as failed, with its reason, by callback and by reading it', async () => {
        const { charge, endToEndId } = await paidCharge(1050);
        const refund = await adapter.refund!(account, { refundId: refundId(), charge: lookup(charge), endToEndId, amountCents: 1050, reason: null });
        const callback = await psp.settleRefund!(endToEndId, refund, 'failed');
        await expect(adapter.receiveCallback(account, callback)).resolves.toContainEqual(
          expect.objectContaining({ type: 'refund.failed', paymentRef: paymentRef(charge), refund: report(refund, 'failed') }),
        );
        await expect(adapter.getRefund!(account, { refundId: refund.refundId, endToEndId, providerRefundId: refund.providerRefundId })).resolves.toMatchObject({
          status: 'failed',
          failureReason: expect.any(String),
        });
      });

      it("refuses a refund over what was paid as http 400 with the PSP's words", async () => {
        const { charge, endToEndId } = await paidCharge(1050);
        const error = await rejection(adapter.refund!(account, { refundId: refundId(), charge: lookup(charge), endToEndId, amountCents: 5000, reason: null }), UpstreamError);
        expect(error).toMatchObject({ kind: 'http', upstreamStatus: 400, providerMessage: expect.any(String) });
        expect(error.ambiguous).toBe(false);
      });

      it("reports a refund made at the PSP's portal as one the gateway did not make", async () => {
        const { charge, endToEndId } = await paidCharge(1050);
        const callback = await psp.refundOutside!(charge, endToEndId, 200, 'portal');
        const events = await adapter.receiveCallback(account, callback);
        const event = events.find((candidate) => candidate.type === 'refund.succeeded');
        expect(event).toMatchObject({ paymentRef: paymentRef(charge), amountCents: 200, refund: { status: 'succeeded', amountCents: 200, externalOrigin: 'psp' } });
        expect((await adapter.getCharge(account, lookup(charge))).refunds).toEqual([report({ ...event!.refund!, refundId: undefined }, 'succeeded')]);
      });

      when(features.medReturns ?? false)('tells a MED return apart', async () => {
        const { charge, endToEndId } = await paidCharge(1050);
        const callback = await psp.refundOutside!(charge, endToEndId, 1050, 'med');
        await expect(adapter.receiveCallback(account, callback)).resolves.toContainEqual(
          expect.objectContaining({ type: 'refund.succeeded', refund: expect.objectContaining({ externalOrigin: 'med', amountCents: 1050 }) }),
        );
      });
    });

    describeWhen(features.tokens)('tokens', () => {
      it('fetches one token for a burst of calls of a new account', async () => {
        const charge = await adapter.createCharge(account, chargeRequest());
        const fresh = { ...account, id: `pa_burst_${randomBytes(4).toString('hex')}` };
        const before = psp.tokenRequests!;
        await Promise.all(Array.from({ length: 8 }, () => adapter.getCharge(fresh, lookup(charge))));
        expect(psp.tokenRequests! - before).toBe(1);
      });

      it('refreshes a revoked token once, and the call succeeds', async () => {
        const charge = await adapter.createCharge(account, chargeRequest());
        psp.expireTokens!();
        const before = psp.tokenRequests!;
        await expect(Promise.all([adapter.getCharge(account, lookup(charge)), adapter.getCharge(account, lookup(charge))])).resolves.toHaveLength(2);
        expect(psp.tokenRequests! - before).toBe(1);
      });
    });

    when(features.mutualTls)("presents the account's certificate on every call, token calls included: an untrusted one gets nowhere", async () => {
      await expect(rejection(adapter.createCharge(setup.untrustedAccount!, chargeRequest()), UpstreamError)).resolves.toMatchObject({ kind: 'network' });
    });

    describe('failures', () => {
      describe.each(['create', 'read'] as const)('on %s', (operation) => {
        it.each(Object.keys(FAILURES) as ScenarioFailure[])('%s becomes an UpstreamError of the right kind', async (failure) => {
          const charge = operation === 'read' ? await adapter.createCharge(account, chargeRequest()) : undefined;
          await psp.fail(failure);
          const client = failure === 'timeout' ? setup.impatient : adapter;
          const call = charge ? client.getCharge(account, lookup(charge)) : client.createCharge(account, chargeRequest());
          const error = await rejection(call, UpstreamError);
          const expected = FAILURES[failure];
          expect(error.kind).toBe(expected.kind);
          expect(error.ambiguous).toBe(expected.ambiguous);
          expect(error.upstreamStatus).toBe(expected.kind === 'http' ? expected.status : error.upstreamStatus);
          if (expected.kind === 'timeout' || expected.kind === 'network') expect(error.upstreamStatus).toBeUndefined();
          if (expected.providerCode) expect(error).toMatchObject({ providerCode: expect.any(String), providerMessage: expect.any(String) });
          // No secret, token or URL in what gets logged.
          expect(error.message).not.toMatch(/Bearer|secret|https?:\/\//i);
        });
      });

      it('the next call after a failure succeeds', async () => {
        await psp.fail('http_503');
        await rejection(adapter.createCharge(account, chargeRequest()), UpstreamError);
        await expect(adapter.createCharge(account, chargeRequest())).resolves.toMatchObject({ status: 'pending' });
      });
    });

    it('reports itself healthy', async () => {
      const health = await adapter.check(account);
      expect(health).toMatchObject({ ok: true });
      expect(health.latencyMs).toBeGreaterThanOrEqual(0);
    });

    // Last: it stops the PSP.
    it('once the PSP is gone: unhealthy without throwing, and calls fail as network errors', async () => {
      const charge = await adapter.createCharge(account, chargeRequest());
      await psp.stop();
      await expect(adapter.check(account)).resolves.toMatchObject({ ok: false, detail: expect.any(String) });
      await expect(rejection(adapter.getCharge(account, lookup(charge)), UpstreamError)).resolves.toMatchObject({ kind: 'network' });
    });
  });
}
