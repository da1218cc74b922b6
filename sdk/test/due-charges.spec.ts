import { randomUUID } from 'node:crypto';
import { PixGatewayError } from '../src/index.js';
import { failure, newPayment, sdkContext } from './helpers.js';

/** The SDK's due-date charge and batch calls against a booted gateway with the simulated PSP (docs/due-charges.md). */
describe('the SDK: due-date charges and batches', () => {
  const ctx = sdkContext();
  const farDue = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

  it('creates a due-date charge, changes it with the same Idempotency-Key once, and keeps its BR Code', async () => {
    const sdk = ctx.sdk();
    const { data: bill } = await sdk.payments.create(newPayment({ amount: 100, due: { date: farDue(20), fine: { type: 'percent', value: 2 } } }));
    expect(bill).toMatchObject({ status: 'pending', amountDue: 100, due: { daysAfterDue: 30, fine: { type: 'percent', value: 2 } } });
    const idempotencyKey = randomUUID();
    const changed = await sdk.payments.update(bill.id, { amount: 120 }, { idempotencyKey });
    expect(changed).toMatchObject({ status: 200, replayed: false, data: { amount: 120, amountDue: 120, pix: { copyPaste: bill.pix.copyPaste } } });
    expect(await sdk.payments.update(bill.id, { amount: 120 }, { idempotencyKey })).toMatchObject({ replayed: true, data: changed.data });
  });

  it('throws a typed 409 for a change of an immediate charge', async () => {
    const sdk = ctx.sdk();
    const { data: payment } = await sdk.payments.create(newPayment());
    const error = await failure(sdk.payments.update(payment.id, { amount: 20 }));
    expect(error).toBeInstanceOf(PixGatewayError);
    expect(error).toMatchObject({ status: 409, code: 'PAYMENT_STATE_CONFLICT' });
  });

  it('creates a batch, reads it back, and finds it in the list', async () => {
    const sdk = ctx.sdk();
    const payments = [1, 2].map((n) => ({ ...newPayment({ amount: 50 + n }), due: { date: farDue(15) } }));
    const created = await sdk.paymentBatches.create({ description: 'Mensalidades', payments });
    expect(created).toMatchObject({ status: 202, data: { id: expect.stringMatching(/^bat_/), description: 'Mensalidades', items: [{ index: 0 }, { index: 1 }] } });
    expect((await sdk.paymentBatches.get(created.data.id)).data.id).toBe(created.data.id);
    const { data: page } = await sdk.paymentBatches.list({ limit: 5 });
    expect(page.items.map((batch) => batch.id)).toContain(created.data.id);
  });
});
