import { randomBytes } from 'node:crypto';
import { ReconciliationService } from '../../src/payments/payment-reconciliation.service';
import { FakeClock } from '../../src/testing/fake-clock';
import { paymentBody } from '../helpers/factories';
import { http } from '../helpers/http';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { startTestApp, TestApp } from '../helpers/test-app';

const DAY = 24 * 3600_000;
/** Thursday 2026-12-10, noon in Brasília: a business day with business days around it. */
const START = '2026-12-10T15:00:00.000Z';

/**
 * Due-date charges end to end at the simulated PSP (docs/due-charges.md): created with their terms,
 * `amountDue` as the days pass, paid late with another amount (paid, and the difference in the
 * history), expired by reading it back past its last day, cancelled, changed (the same BR Code,
 * `payment.updated`), and every bad term a 400 naming it before any PSP is asked.
 */
describe('due-date charges at the simulated PSP', () => {
  const clock = new FakeClock(START);
  let t: TestApp;
  let receiver: MerchantReceiver;
  let key: string;
  beforeAll(async () => {
    [t, receiver] = await Promise.all([startTestApp({ clock }), MerchantReceiver.start()]);
    key = (await t.admin.newMerchant({ name: 'Escola Vencimento', webhook_url: receiver.url })).apiKey;
  });
  afterAll(async () => {
    await Promise.all([t?.close(), receiver?.close()]);
  });
  beforeEach(() => clock.set(START));

  const due = (overrides: Record<string, unknown> = {}) => ({ date: '2026-12-15', daysAfterDue: 10, ...overrides });
  const send = (method: 'POST' | 'PATCH', path: string, body: unknown, idempotencyKey = randomBytes(8).toString('hex')) =>
    http(t.url, method, path, { body, headers: { 'x-merchant-key': key, 'idempotency-key': idempotencyKey } });
  const create = async (body: Record<string, unknown>) => {
    const res = await send('POST', '/v1/payments/create', paymentBody({ amount: 100, ...body }));
    expect(res.status).toBe(201);
    return res.body.data;
  };
  const read = async (id: string) => (await http(t.url, 'GET', `/v1/payments/${id}`, { headers: { 'x-merchant-key': key } })).body.data;
  const simulate = (id: string, body: Record<string, unknown>) => t.admin.POST('/admin/api/payments/{id}/simulate', { params: { path: { id } }, body: body as never });
  const detail = async (id: string) => (await t.admin.GET('/admin/api/payments/{id}', { params: { path: { id } } })).data!;
  const forwardsOf = (id: string) => receiver.received.filter((r) => r.body?.data?.id === id).map((r) => r.body);

  it('creates one with every kind of term, shows them, and answers what is due as the days pass', async () => {
    const payment = await create({
      due: due({
        fine: { type: 'percent', value: 2 },
        interest: { type: 'percent_per_month', value: 3 },
        discount: { type: 'fixed_until', until: [{ date: '2026-12-11', value: 5 }] },
        abatement: { type: 'fixed', value: 1 },
      }),
      recipientAddress: { street: 'Rua das Flores, 80', city: 'Recife', state: 'PE', zip: '50050-000' },
    });
    expect(payment).toMatchObject({ status: 'pending', amount: 100, amountDue: 94, recipient: { address: { zip: '50050000', state: 'PE' } } });
    expect(payment.due).toEqual({
      date: '2026-12-15',
      daysAfterDue: 10,
      fine: { type: 'percent', value: 2 },
      interest: { type: 'percent_per_month', days: 'calendar', value: 3 },
      discount: { type: 'fixed_until', until: [{ date: '2026-12-11', value: 5 }] },
      abatement: { type: 'fixed', value: 1 },
    });
    expect(payment.pix.copyPaste).toMatch(/^000201/);
    clock.set('2026-12-14T15:00:00.000Z'); // past the discount's date, before the due date: original − abatement
    expect((await read(payment.id)).amountDue).toBe(99);
    clock.set('2026-12-17T15:00:00.000Z'); // two days late: 99 + 2% fine (1.98) + 3%/30 a day × 2 of 99 (0.198 → 0.20)
    expect((await read(payment.id)).amountDue).toBe(101.18);
  });

  it('is paid late with another amount: paid anyway, the difference in its history, the merchant told', async () => {
    const payment = await create({ due: due({ fine: { type: 'fixed', value: 2 } }) });
    clock.set('2026-12-16T15:00:00.000Z');
    expect((await read(payment.id)).amountDue).toBe(102);
    expect((await simulate(payment.id, { event: 'payment.confirmed', amount: 100 })).status).toBe(200);
    expect(await read(payment.id)).toMatchObject({ status: 'paid', paidAmount: 100 });
    const events = (await detail(payment.id)).events.map((e) => [e.outcome, e.to_status, e.note]);
    expect(events).toContainEqual(['applied', 'paid', null]);
    expect(events).toContainEqual(['amount_mismatch', 'paid', 'Paid 100.00 on 2026-12-16, when 102.00 was due; recorded as paid (the money has moved).']);
    await receiver.waitUntil(() => forwardsOf(payment.id).length >= 1, 15_000, 'payment.confirmed');
    expect(forwardsOf(payment.id)).toEqual([expect.objectContaining({ event: 'payment.confirmed', data: expect.objectContaining({ status: 'paid', amount: 100 }) })]);
  });

  it('pays on time for what is due that day, with nothing in its history but the payment', async () => {
    const payment = await create({ due: due({ discount: { type: 'fixed_until', until: [{ date: '2026-12-15', value: 10 }] } }) });
    expect((await simulate(payment.id, { event: 'payment.confirmed' })).status).toBe(200);
    expect(await read(payment.id)).toMatchObject({ status: 'paid', paidAmount: 90 });
    expect((await detail(payment.id)).events.map((e) => e.outcome)).toEqual(['applied']);
  });

  it('expires when read back past its last payable day, and not before', async () => {
    const payment = await create({ due: due({ daysAfterDue: 1 }) });
    const reconciliation = t.app.get(ReconciliationService);
    clock.set('2026-12-16T15:00:00.000Z'); // the last payable day: still pending
    await reconciliation.runOnce();
    expect((await read(payment.id)).status).toBe('pending');
    clock.advance(2 * DAY);
    await reconciliation.runOnce();
    expect((await read(payment.id)).status).toBe('expired');
  });

  it('is cancelled at the PSP', async () => {
    const payment = await create({ due: due() });
    const res = await http(t.url, 'POST', `/v1/payments/${payment.id}/cancel`, { headers: { 'x-merchant-key': key } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'cancelled', due: { date: '2026-12-15' } });
  });

  it('is changed while pending (the same BR Code, payment.updated), and a paid or immediate charge is 409', async () => {
    const payment = await create({ due: due() });
    const changed = await send('PATCH', `/v1/payments/${payment.id}`, { amount: 150, due: due({ date: '2026-12-20', fine: { type: 'percent', value: 2 } }) });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ amount: 150, amountDue: 150, due: { date: '2026-12-20', fine: { type: 'percent', value: 2 } } });
    expect(changed.body.data.pix.copyPaste).toBe(payment.pix.copyPaste);
    await receiver.waitUntil(() => forwardsOf(payment.id).length >= 1, 15_000, 'payment.updated');
    expect(forwardsOf(payment.id)[0]).toMatchObject({ event: 'payment.updated', data: { amount: 150, status: 'pending' } });

    await simulate(payment.id, { event: 'payment.confirmed' });
    const paid = await send('PATCH', `/v1/payments/${payment.id}`, { amount: 200 });
    expect(paid.status).toBe(409);
    expect(paid.body.error.code).toBe('PAYMENT_STATE_CONFLICT');
    // null is not "left out": the document does not make these members nullable.
    const nulls = await send('PATCH', `/v1/payments/${payment.id}`, { amount: null, due: null });
    expect(nulls.status).toBe(400);
    expect(nulls.body.error.details.fields.map((f: { field: string }) => f.field)).toEqual(expect.arrayContaining(['amount', 'due']));
    const immediate = await create({});
    expect((await send('PATCH', `/v1/payments/${immediate.id}`, { amount: 200 })).status).toBe(409);
  });

  it.each([
    ['due.date', { date: '2026-12-09' }],
    ['due.discount.until.0.date', { discount: { type: 'fixed_until', until: [{ date: '2026-12-16', value: 1 }] } }],
    ['due.discount.until', { discount: { type: 'fixed_until', until: ['2026-12-11', '2026-12-12', '2026-12-13', '2026-12-14'].map((date) => ({ date, value: 1 })) } }],
    ['due.fine.value', { fine: { type: 'percent', value: 100.01 } }],
    ['due.interest.type', { interest: { type: 'percent_per_week', value: 1 } }],
    ['due.abatement.value', { abatement: { type: 'fixed', value: -1 } }],
    ['due.fine.value', { fine: { type: 'fixed', value: 1.234 } }],
    ['due.daysAfterDue', { daysAfterDue: 3651 }],
    ['due.daysAfterDue', { daysAfterDue: -1 }],
    ['due.fine', { fine: null }],
  ])('refuses a bad %s with a 400 naming it, and stores nothing', async (field, terms) => {
    const externalId = `bad-${randomBytes(4).toString('hex')}`;
    const res = await send('POST', '/v1/payments/create', paymentBody({ externalId, due: due(terms) }));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await t.dataSource.query('SELECT 1 FROM payments WHERE external_id = $1', [externalId])).toEqual([]);
  });

  it('refuses an address without due terms', async () => {
    const res = await send('POST', '/v1/payments/create', paymentBody({ recipientAddress: { street: 'Rua A', city: 'Recife', state: 'PE', zip: '50050000' } }));
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields).toEqual([{ field: 'recipientAddress', message: 'recipientAddress is only for a due-date charge (with due)' }]);
  });
});
