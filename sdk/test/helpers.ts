import { randomBytes } from 'node:crypto';
import { brasiliaDate } from '../../src/domain/recurrence.js';
import { paymentBody } from '../../test/helpers/factories.js';
import { MerchantReceiver } from '../../test/helpers/merchant-receiver.js';
import { startTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { PixGateway, PixGatewayError, type CreatePaymentDto, type CreateRecurrenceDto, type PaymentView, type PixGatewayOptions } from '../src/index.js';

/** A booted gateway for one spec file, a merchant of its own whose events go to `receiver`, and SDK clients for that merchant. */
export interface SdkContext {
  t: TestApp;
  receiver: MerchantReceiver;
  /** The merchant's webhook signing secret (`whsec_…`). */
  secret: string;
  merchantKey: string;
  /** The SDK as the merchant holds it, on this gateway. */
  sdk(options?: Partial<PixGatewayOptions>): PixGateway;
}

/** Boots the gateway and the merchant's receiver before the file's tests and closes them after; read the context inside tests. */
export function sdkContext(): SdkContext {
  const context = { secret: `whsec_${randomBytes(24).toString('base64')}` } as SdkContext;
  beforeAll(async () => {
    [context.t, context.receiver] = await Promise.all([startTestApp(), MerchantReceiver.start({ secret: context.secret })]);
    const merchant = await context.t.admin.newMerchant({ name: 'Loja SDK', webhook_url: context.receiver.url, webhook_signing_secret: context.secret });
    context.merchantKey = merchant.apiKey;
    context.sdk = (options = {}) => new PixGateway({ baseUrl: context.t.url, merchantKey: merchant.apiKey, ...options });
  });
  afterAll(async () => {
    await Promise.all([context.t?.close(), context.receiver?.close()]);
  });
  return context;
}

/** A valid payment body, as the SDK types it. */
export const newPayment = (overrides: Partial<CreatePaymentDto> = {}): CreatePaymentDto => ({ ...paymentBody(), ...overrides });

/** A monthly fixed recurrence starting today in Brasília, QR journey, as the SDK types it. */
export const newRecurrence = (overrides: Partial<CreateRecurrenceDto> = {}): CreateRecurrenceDto => ({
  externalId: `sub-${randomBytes(4).toString('hex')}`,
  payer: { document: '123.456.789-09', name: 'Ana Souza' },
  contract: { id: `plan-${randomBytes(3).toString('hex')}`, description: 'Gym membership' },
  frequency: 'monthly',
  amount: 89.9,
  startDate: brasiliaDate(new Date()),
  ...overrides,
});

/** The payer pays: the simulated PSP confirms the payment (the operator's simulate call, docs/sandbox.md), as no merchant call can. */
export async function payerPays(t: TestApp, payment: Pick<PaymentView, 'id'>): Promise<void> {
  const answer = await t.admin.POST('/admin/api/payments/{id}/simulate', { params: { path: { id: payment.id } }, body: { event: 'payment.confirmed' } });
  if (answer.status !== 200) throw new Error(`simulating the payment failed: ${answer.status} ${answer.text}`);
}

/** The payer authorizes a recurrence at their bank (the simulated PSP, through the operator's simulate call). */
export async function payerAuthorizes(t: TestApp, recurrenceId: string): Promise<void> {
  const answer = await t.admin.POST('/admin/api/recurrences/{id}/simulate', { params: { path: { id: recurrenceId } }, body: { action: 'authorize' } });
  if (answer.status !== 200) throw new Error(`authorizing the recurrence failed: ${answer.status} ${answer.text}`);
}

/** What `call` threw, which the spec expects to be a PixGatewayError. */
export async function failure(call: Promise<unknown>): Promise<PixGatewayError> {
  const error = await call.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof PixGatewayError)) throw new Error(`expected a PixGatewayError, got ${String(error)}`);
  return error;
}

/**
 * A fetch in front of the gateway that records each request's Idempotency-Key and can spoil the
 * first answers: `drop` lets the gateway answer, then loses the answer (a connection cut after the
 * gateway committed); `unavailable` answers 503 with Retry-After itself, the gateway never asked.
 */
export function flakyFetch(spoil: 'drop' | 'unavailable', times = 1): { fetch: typeof fetch; keys: (string | null)[] } {
  const keys: (string | null)[] = [];
  let spoiled = 0;
  const flaky: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    keys.push(request.headers.get('idempotency-key'));
    if (spoiled < times && spoil === 'unavailable') {
      spoiled++;
      return Response.json(
        { success: false, error: { code: 'SERVICE_UNAVAILABLE', message: 'Busy' }, request_id: 'none', provider: 'sandbox' },
        { status: 503, headers: { 'retry-after': '0' } },
      );
    }
    const response = await fetch(request);
    if (spoiled < times) {
      spoiled++;
      await response.arrayBuffer();
      throw new TypeError('fetch failed: the connection was reset');
    }
    return response;
  };
  return { fetch: flaky, keys };
}
