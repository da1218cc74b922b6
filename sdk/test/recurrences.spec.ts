import { addDays, brasiliaDate } from '../../src/domain/recurrence.js';
import { failure, newRecurrence, payerAuthorizes, sdkContext } from './helpers.js';

/** The SDK's Pix Automático calls against a booted gateway with the simulated PSP (docs/recurrences.md). */
describe('the SDK: recurrences and their charges', () => {
  const ctx = sdkContext();
  const inDays = (days: number) => addDays(brasiliaDate(new Date()), days);

  it('creates a recurrence, reads it and finds it by its externalId', async () => {
    const sdk = ctx.sdk();
    const created = await sdk.recurrences.create(newRecurrence({ frequency: 'weekly' }));
    expect(created).toMatchObject({
      status: 201,
      data: { status: 'pending_authorization', frequency: 'weekly', amount: 89.9, authorization: { copyPaste: expect.stringMatching(/^000201/) } },
    });
    expect((await sdk.recurrences.get(created.data.id)).data).toEqual(created.data);
    const { data: page } = await sdk.recurrences.list({ externalId: created.data.externalId });
    expect(page.items.map((recurrence) => recurrence.id)).toEqual([created.data.id]);
  });

  it('charges a cycle of an authorized recurrence, lists and reads the charge, and cancels it before its due date', async () => {
    const sdk = ctx.sdk();
    const { data: recurrence } = await sdk.recurrences.create(newRecurrence({ frequency: 'weekly' }));
    await payerAuthorizes(ctx.t, recurrence.id);
    const { data: charge } = await sdk.recurrences.createCharge(recurrence.id, { dueDate: inDays(3) });
    expect(charge).toMatchObject({ recurrenceId: recurrence.id, status: 'scheduled', amount: 89.9, dueDate: inDays(3) });
    expect((await sdk.recurrences.listCharges(recurrence.id)).data.items).toEqual([charge]);
    expect((await sdk.recurringCharges.get(charge.id)).data).toEqual(charge);
    expect((await sdk.recurringCharges.cancel(charge.id)).data.status).toBe('cancelled');
  });

  it('cancels a recurrence, and refuses a charge for it with PAYMENT_STATE_CONFLICT', async () => {
    const sdk = ctx.sdk();
    const { data: recurrence } = await sdk.recurrences.create(newRecurrence());
    expect((await sdk.recurrences.cancel(recurrence.id)).data).toMatchObject({ status: 'cancelled', cancelledBy: 'merchant' });
    const error = await failure(sdk.recurrences.createCharge(recurrence.id, { dueDate: inDays(3) }));
    expect(error).toMatchObject({ status: 409, code: 'PAYMENT_STATE_CONFLICT' });
  });
});
