import { PixGatewayWebhookError, verifyWebhook, type WebhookEvent } from '../src/index.js';
import { newPayment, payerPays, sdkContext } from './helpers.js';

/** verifyWebhook on the deliveries the gateway really sends (docs/webhooks.md), as the merchant's endpoint received them. */
describe('the SDK: webhook verification', () => {
  const ctx = sdkContext();

  /** The delivery of `event` about `id` the merchant's receiver got, once it has. */
  const delivery = async (event: string, id: string) => {
    const match = () => ctx.receiver.received.find((request) => request.body?.event === event && request.body?.data?.id === id);
    await ctx.receiver.waitUntil(() => match() !== undefined, 15_000, `${event} for ${id}`);
    return match()!;
  };

  it('verifies a real payment.confirmed delivery and returns the typed event', async () => {
    const { data: payment } = await ctx.sdk().payments.create(newPayment());
    await payerPays(ctx.t, payment);
    const received = await delivery('payment.confirmed', payment.id);
    const event: WebhookEvent = verifyWebhook(received.raw, received.headers, ctx.secret);
    if (event.event !== 'payment.confirmed') throw new Error(`unexpected ${event.event}`);
    // Narrowed by `event`: data is the payment's summary.
    expect(event.data).toMatchObject({ id: payment.id, status: 'paid', amount: payment.amount, externalId: payment.externalId });
    expect(event.id).toMatch(/^evt_/);
  });

  it('refuses a delivery whose body was changed, one signed with another secret, and one without a signature', async () => {
    const { data: payment } = await ctx.sdk().payments.create(newPayment({ amount: 7 }));
    await payerPays(ctx.t, payment);
    const { raw, headers } = await delivery('payment.confirmed', payment.id);
    expect(() => verifyWebhook(raw.replace('"amount":7', '"amount":700'), headers, ctx.secret)).toThrow(PixGatewayWebhookError);
    expect(() => verifyWebhook(raw, headers, `whsec_${Buffer.from('another secret of 24 bytes').toString('base64')}`)).toThrow(PixGatewayWebhookError);
    expect(() => verifyWebhook(raw, { ...headers, 'webhook-signature': undefined }, ctx.secret)).toThrow(/no webhook-signature header/);
  });
});
