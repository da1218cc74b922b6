import { randomUUID } from 'node:crypto';
import { PaymentLinkPagesService } from '../../src/payment-links/payment-link-pages.service.js';
import { PixGatewayError } from '../src/index.js';
import { failure, sdkContext } from './helpers.js';

/** The SDK's payment-link calls against a booted gateway with the simulated PSP (docs/api.md, Payment links). */
describe('the SDK: payment links', () => {
  const ctx = sdkContext();

  it('creates a link once per Idempotency-Key, reads it, finds it in the list, lists its payments, and deactivates it', async () => {
    const sdk = ctx.sdk();
    const idempotencyKey = randomUUID();
    const created = await sdk.paymentLinks.create({ title: 'Camiseta azul', amount: 59.9, maxPayments: 10, collect: { email: false } }, { idempotencyKey });
    expect(created).toMatchObject({
      status: 201,
      replayed: false,
      data: { id: expect.stringMatching(/^plink_/), url: expect.stringContaining('/l/'), amount: 59.9, amountRange: null, state: 'open', paymentsCount: 0 },
    });
    const link = created.data;
    expect(await sdk.paymentLinks.create({ title: 'Camiseta azul', amount: 59.9, maxPayments: 10, collect: { email: false } }, { idempotencyKey })).toMatchObject({
      replayed: true,
      data: link,
    });
    expect((await sdk.paymentLinks.get(link.id)).data).toEqual(link);
    expect((await sdk.paymentLinks.list({ active: 'true', limit: 5 })).data.items.map((l) => l.id)).toContain(link.id);

    // A payer opens a payment from its page: the merchant finds it by the link.
    const slug = link.url.split('/l/')[1]!;
    const opened = await ctx.t.app.get(PaymentLinkPagesService).openPayment(slug, { name: 'Ana Souza', document: '123.456.789-09' }, '203.0.113.50', randomUUID());
    expect(opened.kind).toBe('created');
    const { data: payments } = await sdk.payments.list({ paymentLinkId: link.id });
    expect(payments.items).toEqual([expect.objectContaining({ paymentLinkId: link.id, amount: 59.9, externalId: `${link.id}-1` })]);
    expect((await sdk.paymentLinks.get(link.id)).data.paymentsCount).toBe(1);

    const { data: off } = await sdk.paymentLinks.deactivate(link.id);
    expect(off).toMatchObject({ id: link.id, active: false, state: 'inactive' });
    expect((await sdk.paymentLinks.deactivate(link.id)).data).toEqual(off);
  });

  it('throws a typed 400 naming the field, and a 404 for an unknown link', async () => {
    const sdk = ctx.sdk();
    const invalid = await failure(sdk.paymentLinks.create({ title: 'Doação', amountRange: { min: 50, max: 10 } }));
    expect(invalid).toBeInstanceOf(PixGatewayError);
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(invalid.fieldErrors.map((error) => error.field)).toEqual(['amountRange.max']);
    expect(await failure(sdk.paymentLinks.get('plink_000000000000000000000000'))).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
