import { PixGatewayError, PixGatewayNetworkError } from '../src/index.js';
import { retryDelayMs } from '../src/transport.js';
import { failure, flakyFetch, newPayment, payerPays, sdkContext } from './helpers.js';

/** The SDK's retries (sdk/README.md, Retries): one Idempotency-Key per logical request, whatever happens to its answers. */
describe('the SDK: retries', () => {
  const ctx = sdkContext();

  it('retries a creation whose answer was lost with the same Idempotency-Key: the gateway makes one payment', async () => {
    const flaky = flakyFetch('drop');
    const body = newPayment();
    const created = await ctx.sdk({ fetch: flaky.fetch }).payments.create(body);
    expect(flaky.keys).toHaveLength(2);
    expect(flaky.keys[1]).toBe(flaky.keys[0]);
    expect(created).toMatchObject({ replayed: true, data: { externalId: body.externalId } });
    expect((await ctx.sdk().payments.list({ externalId: body.externalId })).data.items.map((payment) => payment.id)).toEqual([created.data.id]);
  });

  it('retries a refund answered 503 with Retry-After, with the key it chose: one refund', async () => {
    const { data: payment } = await ctx.sdk().payments.create(newPayment({ amount: 10 }));
    await payerPays(ctx.t, payment);
    const flaky = flakyFetch('unavailable');
    const refund = await ctx.sdk({ fetch: flaky.fetch }).payments.refund(payment.id, { amount: 1 });
    expect(refund).toMatchObject({ status: 201, replayed: false, data: { amount: 1, status: 'pending' } });
    expect(flaky.keys).toEqual([expect.any(String), flaky.keys[0]]);
    expect((await ctx.sdk().payments.listRefunds(payment.id)).data.map((made) => made.id)).toEqual([refund.data.id]);
  });

  it('gives up after maxRetries, throwing the last answer with its Retry-After', async () => {
    const flaky = flakyFetch('unavailable', 3);
    const error = await failure(ctx.sdk({ fetch: flaky.fetch, maxRetries: 2 }).payments.get('pay_whatever'));
    expect(error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: 0 });
    expect(flaky.keys).toHaveLength(3);
  });

  it('throws PixGatewayNetworkError when no gateway answers', async () => {
    const error = await failure(ctx.sdk({ baseUrl: 'http://127.0.0.1:9', maxRetries: 0 }).apiKeys.current());
    expect(error).toBeInstanceOf(PixGatewayNetworkError);
    expect(error).toMatchObject({ status: 0, code: 'NETWORK_ERROR' });
  });

  it('waits as Retry-After says, or backs off exponentially with jitter up to a cap, and never retries another 4xx', () => {
    const answer = (status: number, code: PixGatewayError['code'], retryAfter?: number) => new PixGatewayError({ status, code, message: code, retryAfter });
    expect(retryDelayMs(answer(429, 'RATE_LIMITED', 7), 0)).toBe(7000);
    expect(retryDelayMs(answer(503, 'SERVICE_UNAVAILABLE', 3600), 0)).toBeUndefined();
    expect([0, 1, 2, 6].map((retry) => retryDelayMs(answer(502, 'UPSTREAM_ERROR'), retry, () => 1))).toEqual([500, 1000, 2000, 8000]);
    expect(retryDelayMs(answer(502, 'UPSTREAM_ERROR'), 2, () => 0)).toBe(1000);
    expect(retryDelayMs(answer(409, 'IDEMPOTENCY_IN_PROGRESS'), 0, () => 0)).toBe(250);
    for (const [status, code] of [
      [409, 'PAYMENT_STATE_CONFLICT'],
      [422, 'IDEMPOTENCY_KEY_REUSED'],
      [404, 'NOT_FOUND'],
      [500, 'INTERNAL_ERROR'],
    ] as const) {
      expect(retryDelayMs(answer(status, code), 0)).toBeUndefined();
    }
  });
});
