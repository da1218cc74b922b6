import { randomUUID } from 'node:crypto';
import { PixGatewayError } from '../src/index.js';
import { failure, flakyFetch, newPayment, payerPays, sdkContext } from './helpers.js';

/** The SDK's payment and refund calls against a booted gateway with the simulated PSP (docs/api.md, Payments; Refunds and cancellation). */
describe('the SDK: payments and refunds', () => {
  const ctx = sdkContext();

  it('creates a payment, and a replay with the same Idempotency-Key answers the same payment', async () => {
    const body = newPayment({ amount: 12.34 });
    const idempotencyKey = randomUUID();
    const created = await ctx.sdk().payments.create(body, { idempotencyKey });
    expect(created).toMatchObject({ status: 201, provider: 'sandbox', replayed: false, requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(created.data).toMatchObject({ status: 'pending', amount: 12.34, externalId: body.externalId, pix: { copyPaste: expect.stringMatching(/^000201/) } });

    const replay = await ctx.sdk().payments.create(body, { idempotencyKey });
    expect(replay).toMatchObject({ replayed: true, data: created.data });
  });

  it('reads a payment back and finds it by its externalId in the list', async () => {
    const sdk = ctx.sdk();
    const { data: payment } = await sdk.payments.create(newPayment());
    expect((await sdk.payments.get(payment.id)).data).toEqual(payment);
    const { data: page } = await sdk.payments.list({ externalId: payment.externalId });
    expect(page).toEqual({ items: [payment], next_cursor: null });
  });

  it('refunds part of a paid payment, then lists and reads the refund', async () => {
    const sdk = ctx.sdk();
    const { data: payment } = await sdk.payments.create(newPayment({ amount: 10 }));
    await payerPays(ctx.t, payment);
    const refund = await sdk.payments.refund(payment.id, { amount: 4, reason: 'Item returned' });
    expect(refund).toMatchObject({ status: 201, data: { paymentId: payment.id, amount: 4, status: 'pending', origin: 'merchant' } });
    expect((await sdk.payments.listRefunds(payment.id)).data).toEqual([refund.data]);
    expect((await sdk.refunds.get(refund.data.id)).data).toEqual(refund.data);
  });

  it('cancels a pending payment, and again answers it cancelled', async () => {
    const sdk = ctx.sdk();
    const { data: payment } = await sdk.payments.create(newPayment());
    expect((await sdk.payments.cancel(payment.id)).data).toMatchObject({ id: payment.id, status: 'cancelled' });
    expect((await sdk.payments.cancel(payment.id)).data.status).toBe('cancelled');
  });

  it('throws a typed 404 for a payment that is not the merchant’s', async () => {
    const error = await failure(ctx.sdk().payments.get(`pay_${'x'.repeat(24)}`));
    expect(error).toBeInstanceOf(PixGatewayError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', provider: 'sandbox', requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
  });

  it('throws a typed 400 VALIDATION_ERROR naming the bad field, without retrying it', async () => {
    const recording = flakyFetch('drop', 0);
    const error = await failure(ctx.sdk({ fetch: recording.fetch }).payments.create(newPayment({ recipientName: '' })));
    expect(error).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ field: 'recipientName' })] } });
    expect(error.fieldErrors.map((field) => field.field)).toEqual(['recipientName']);
    expect(recording.keys).toHaveLength(1);
  });

  it('answers a refund beyond what is left with REFUND_EXCEEDS_AVAILABLE and its details', async () => {
    const sdk = ctx.sdk();
    const { data: payment } = await sdk.payments.create(newPayment({ amount: 5 }));
    await payerPays(ctx.t, payment);
    const error = await failure(sdk.payments.refund(payment.id, { amount: 6 }));
    expect(error).toMatchObject({ status: 422, code: 'REFUND_EXCEEDS_AVAILABLE', details: { available: 5 } });
  });

  it('reads the calling key', async () => {
    const { data } = await ctx.sdk().apiKeys.current();
    expect(data).toMatchObject({ id: expect.stringMatching(/^key_/), prefix: ctx.merchantKey.slice(0, data.prefix.length) });
  });
});
