import { randomBytes } from 'node:crypto';
import { parsePix } from 'pix-utils';
import type { PaymentStatus } from '../../src/payments/payment-status';
import {
  type CreateChargeRequest,
  type PaymentProvider,
  type ProviderCharge,
  type ProviderEventType,
  UpstreamError,
  type UpstreamFailureKind,
  type WebhookRequest,
} from '../../src/providers/payment-provider';
import { hasValidCrc } from './emv';
import { WebhookReceiver } from './webhook-receiver';
import { chargeRequest as newChargeRequest } from '../helpers/factories';

/** Failures every fake provider can be told to produce (the sandbox's `_control/failures` modes). */
export type ContractFailureMode = 'timeout' | 'reset' | 'http_500' | 'http_503' | 'http_400' | 'http_422' | 'malformed';

/** A fake of one provider running as a real HTTP server, and the adapter under test pointed at it. */
export interface ProviderFake {
  provider: PaymentProvider;
  /** Whether the fake signs its events, so verifyWebhook must refuse unsigned or altered ones. */
  signs: boolean;
  /** Makes `type` happen to the charge; the fake posts the event to the charge's notification URL. */
  simulate(charge: ProviderCharge, type: ProviderEventType): Promise<void>;
  /** Queues `count` failures of `mode` for the next calls of `operation`. */
  injectFailure(mode: ContractFailureMode, operation: 'create' | 'get', count?: number): Promise<void>;
  clearFailures(): Promise<void>;
  /** Stops the fake's server (calls afterwards find nobody listening). */
  stop(): Promise<void>;
  /** Releases everything the fake holds. */
  close(): Promise<void>;
}

const EXPECTED: Record<ContractFailureMode, { kind: UpstreamFailureKind; status?: number; ambiguous: boolean }> = {
  timeout: { kind: 'timeout', ambiguous: true },
  reset: { kind: 'network', ambiguous: true },
  http_500: { kind: 'http', status: 500, ambiguous: true },
  http_503: { kind: 'http', status: 503, ambiguous: true },
  http_400: { kind: 'http', status: 400, ambiguous: false },
  http_422: { kind: 'http', status: 422, ambiguous: false },
  malformed: { kind: 'malformed', ambiguous: false },
};

const STATUS_AFTER: Record<Exclude<ProviderEventType, 'payment.refunded'>, PaymentStatus> = {
  'payment.confirmed': 'paid',
  'payment.expired': 'expired',
  'payment.cancelled': 'cancelled',
  'payment.failed': 'failed',
};

async function upstreamFailure(call: Promise<unknown>): Promise<UpstreamError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof UpstreamError)) throw new Error(`expected an UpstreamError, got ${error === undefined ? 'success' : JSON.stringify(error)}`);
  return error;
}

/**
 * The behaviour every PaymentProvider adapter owes the gateway, checked over real HTTP against a
 * fake of its provider. Call it from a spec with a factory that starts the fake.
 */
export function providerContract(label: string, startFake: () => Promise<ProviderFake>): void {
  describe(`provider contract: ${label}`, () => {
    let fake: ProviderFake;
    let receiver: WebhookReceiver;
    let provider: PaymentProvider;

    const chargeRequest = (overrides: Partial<CreateChargeRequest> = {}) => newChargeRequest(receiver.url, overrides);

    const eventFor = async (charge: ProviderCharge, type: ProviderEventType): Promise<WebhookRequest> => {
      await fake.simulate(charge, type);
      const hook = await receiver.next();
      return { headers: hook.headers, rawBody: hook.rawBody, body: hook.body };
    };

    beforeAll(async () => {
      receiver = await new WebhookReceiver().start();
      fake = await startFake();
      provider = fake.provider;
    });
    afterEach(() => fake.clearFailures());
    afterAll(async () => {
      await fake?.close();
      await receiver?.close();
    });

    it('creates a pending charge with a valid BR Code for the amount', async () => {
      const request = chargeRequest({ amountCents: 123456 });
      const charge = await provider.createCharge(request);
      expect(charge).toMatchObject({ txid: request.txid, status: 'pending', amountCents: 123456, paidAt: null });
      expect(charge.providerPaymentId).toEqual(expect.any(String));
      expect(charge.expiresAt!.getTime()).toBeGreaterThan(Date.now());
      expect(hasValidCrc(charge.copyPaste)).toBe(true);
      expect(parsePix(charge.copyPaste)).toMatchObject({ transactionAmount: 1234.56 });
    });

    it('returns the same charge for the same txid, never a second one', async () => {
      const request = chargeRequest();
      const first = await provider.createCharge(request);
      const again = await provider.createCharge({ ...request, paymentId: `pay_${randomBytes(8).toString('hex')}` });
      expect(again).toEqual(first);
    });

    it('reads a charge back by provider id and by txid alone', async () => {
      const charge = await provider.createCharge(chargeRequest());
      await expect(provider.getCharge({ providerPaymentId: charge.providerPaymentId, txid: charge.txid })).resolves.toEqual(charge);
      await expect(provider.getCharge({ providerPaymentId: null, txid: charge.txid })).resolves.toEqual(charge);
    });

    it('refuses a txid reused with another amount', async () => {
      const request = chargeRequest();
      await provider.createCharge(request);
      const error = await upstreamFailure(provider.createCharge({ ...request, amountCents: 999 }));
      expect(error).toMatchObject({ kind: 'http', upstreamStatus: 409 });
    });

    it('reports an unknown charge as an http failure with the provider status', async () => {
      const error = await upstreamFailure(provider.getCharge({ providerPaymentId: null, txid: randomBytes(16).toString('hex') }));
      expect(error).toMatchObject({ kind: 'http', upstreamStatus: 404 });
    });

    it.each(Object.entries(STATUS_AFTER))('maps the status after %s to %s', async (type, status) => {
      const charge = await provider.createCharge(chargeRequest());
      await eventFor(charge, type as ProviderEventType);
      const after = await provider.getCharge({ providerPaymentId: charge.providerPaymentId, txid: charge.txid });
      expect(after.status).toBe(status);
      if (status === 'paid') expect(after.paidAt).toBeInstanceOf(Date);
    });

    it('maps a refunded charge to refunded', async () => {
      const charge = await provider.createCharge(chargeRequest());
      await eventFor(charge, 'payment.confirmed');
      await eventFor(charge, 'payment.refunded');
      await expect(provider.getCharge({ providerPaymentId: charge.providerPaymentId, txid: charge.txid })).resolves.toMatchObject({ status: 'refunded' });
    });

    it.each(['payment.confirmed', 'payment.expired', 'payment.cancelled', 'payment.failed', 'payment.refunded'] as const)('verifies and parses its own %s event', async (type) => {
      const charge = await provider.createCharge(chargeRequest({ amountCents: 2599 }));
      const request = await eventFor(charge, type);
      expect(provider.verifyWebhook(request)).toBe(true);
      const event = provider.parseEvent(request);
      expect(event).toMatchObject({ type, paymentRef: charge.providerPaymentId, amountCents: 2599 });
      expect(event.eventId).toEqual(expect.any(String));
      expect(event.occurredAt).toBeInstanceOf(Date);
    });

    it('gives each event its own id', async () => {
      const charge = await provider.createCharge(chargeRequest());
      const first = provider.parseEvent(await eventFor(charge, 'payment.confirmed'));
      const second = provider.parseEvent(await eventFor(charge, 'payment.confirmed'));
      expect(second.eventId).not.toBe(first.eventId);
    });

    it('refuses an altered or unsigned event when the provider signs', async () => {
      const charge = await provider.createCharge(chargeRequest());
      const request = await eventFor(charge, 'payment.confirmed');
      // The same JSON to a parser, other bytes to a signature: verification must be over the raw body.
      const altered = Buffer.concat([request.rawBody, Buffer.from(' ')]);
      const unsigned = Object.fromEntries(Object.entries(request.headers).filter(([name]) => !/signature/i.test(name)));
      expect(provider.verifyWebhook({ ...request, rawBody: altered })).toBe(!fake.signs);
      expect(provider.verifyWebhook({ ...request, headers: unsigned })).toBe(!fake.signs);
    });

    describe.each(['create', 'get'] as const)('failures on %s', (operation) => {
      /** Queues the failure and returns the call that will meet it (a get needs a charge first). */
      const failingCall = async (mode: ContractFailureMode, count = 1): Promise<() => Promise<ProviderCharge>> => {
        if (operation === 'create') {
          await fake.injectFailure(mode, 'create', count);
          return () => provider.createCharge(chargeRequest());
        }
        const charge = await provider.createCharge(chargeRequest());
        await fake.injectFailure(mode, 'get', count);
        return () => provider.getCharge({ providerPaymentId: charge.providerPaymentId, txid: charge.txid });
      };

      it.each(Object.keys(EXPECTED) as ContractFailureMode[])('%s becomes an UpstreamError of the right kind', async (mode) => {
        const call = await failingCall(mode);
        const error = await upstreamFailure(call());
        const expected = EXPECTED[mode];
        expect(error.kind).toBe(expected.kind);
        expect(error.ambiguous).toBe(expected.ambiguous);
        if (expected.status !== undefined) expect(error.upstreamStatus).toBe(expected.status);
        if (expected.kind === 'http') expect(error.providerCode).toEqual(expect.any(String));
        if (expected.kind === 'timeout' || expected.kind === 'network') expect(error.upstreamStatus).toBeUndefined();
      });

      it('every variant of a malformed answer is malformed', async () => {
        const call = await failingCall('malformed', 2);
        await expect(upstreamFailure(call())).resolves.toMatchObject({ kind: 'malformed' });
        await expect(upstreamFailure(call())).resolves.toMatchObject({ kind: 'malformed' });
      });

      it('the next call after the queued failures succeeds', async () => {
        const call = await failingCall('http_503');
        await upstreamFailure(call());
        await expect(call()).resolves.toMatchObject({ status: 'pending' });
      });
    });

    it('after a lost answer, a retry with the same txid gets the one charge', async () => {
      const request = chargeRequest();
      await fake.injectFailure('timeout', 'create');
      await expect(upstreamFailure(provider.createCharge(request))).resolves.toMatchObject({ kind: 'timeout' });
      const retried = await provider.createCharge(request);
      await expect(provider.getCharge({ providerPaymentId: null, txid: request.txid })).resolves.toEqual(retried);
    });

    it('reports itself healthy', async () => {
      const health = await provider.health();
      expect(health.ok).toBe(true);
      expect(health.latencyMs).toBeGreaterThanOrEqual(0);
    });

    // Last: it stops the fake.
    it('once the provider is gone: unhealthy, and calls fail as network errors', async () => {
      const charge = await provider.createCharge(chargeRequest());
      await fake.stop();
      await expect(provider.health()).resolves.toMatchObject({ ok: false });
      await expect(upstreamFailure(provider.createCharge(chargeRequest()))).resolves.toMatchObject({ kind: 'network' });
      await expect(upstreamFailure(provider.getCharge({ providerPaymentId: charge.providerPaymentId, txid: charge.txid }))).resolves.toMatchObject({
        kind: 'network',
      });
    });
  });
}
