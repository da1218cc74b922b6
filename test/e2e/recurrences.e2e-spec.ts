import { randomBytes } from 'node:crypto';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import { recurrenceBody } from '../helpers/factories';
import { http as send } from '../helpers/http';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * Pix Automático over HTTP against the built-in simulated PSP (docs/recurrences.md): a subscription
 * from authorization to its second paid cycle, retries, cancellations by either side, the merchant's
 * signed events each once, and every bad input a 4xx envelope that stores nothing.
 */
describe('recurrences with the sandbox PSP', () => {
  let t: TestApp;
  let receiver: MerchantReceiver;
  let key: string;
  const secret = `whsec_${randomBytes(24).toString('base64')}`;
  const today = brasiliaDate(new Date());
  beforeAll(async () => {
    [t, receiver] = await Promise.all([startTestApp(), MerchantReceiver.start({ secret })]);
    key = (await t.admin.newMerchant({ name: 'Academia', webhook_url: receiver.url, webhook_signing_secret: secret })).apiKey;
  });
  afterAll(async () => {
    await Promise.all([t?.close(), receiver?.close()]);
  });

  const http = (method: string, path: string, body?: unknown, idempotencyKey: string | null = randomBytes(8).toString('hex')) =>
    send(t.url, method, path, { headers: { 'x-merchant-key': key, ...(idempotencyKey && method === 'POST' ? { 'idempotency-key': idempotencyKey } : {}) }, body });
  const simulate = (what: 'recurrences' | 'recurring-charges', id: string, action: string) =>
    send(t.url, 'POST', `/admin/api/${what}/${id}/simulate`, { headers: { authorization: `Bearer ${t.config.adminApiToken.reveal()}` }, body: { action } });
  const authorized = async (overrides: Record<string, unknown> = {}) => {
    const created = await http('POST', '/v1/recurrences', recurrenceBody(overrides));
    expect(created.status).toBe(201);
    const id = created.body.data.id as string;
    expect((await simulate('recurrences', id, 'authorize')).status).toBe(200);
    return id;
  };
  const eventsFor = (id: string) => receiver.received.filter((r) => r.body?.data?.id === id || r.body?.data?.recurrenceId === id);

  it('takes a subscription from the QR to its second paid cycle, telling the merchant each step once, signed', async () => {
    const created = await http('POST', '/v1/recurrences', recurrenceBody({ frequency: 'weekly' }));
    expect(created.status).toBe(201);
    const recurrence = created.body.data;
    expect(recurrence).toMatchObject({ status: 'pending_authorization', frequency: 'weekly', amount: 89.9, provider: 'sandbox' });
    expect(recurrence.authorization.copyPaste).toMatch(/^000201/);
    expect(recurrence.authorization.qrCodePng).toMatch(/^data:image\/png;base64,/);

    expect((await simulate('recurrences', recurrence.id, 'authorize')).status).toBe(200);
    expect((await http('GET', `/v1/recurrences/${recurrence.id}`)).body.data).toMatchObject({ status: 'active', authorization: null });

    for (const dueDate of [addDays(today, 3), addDays(today, 10)]) {
      const charge = (await http('POST', `/v1/recurrences/${recurrence.id}/charges`, { dueDate })).body.data;
      expect(charge).toMatchObject({ status: 'scheduled', amount: 89.9, dueDate, recurrenceId: recurrence.id });
      expect((await simulate('recurring-charges', charge.id, 'settle')).status).toBe(200);
      expect((await http('GET', `/v1/recurring-charges/${charge.id}`)).body.data).toMatchObject({ status: 'paid', endToEndId: expect.stringMatching(/^E99999999/) });
    }
    const charges = (await http('GET', `/v1/recurrences/${recurrence.id}/charges`)).body.data.items;
    expect(charges.map((c: { status: string }) => c.status)).toEqual(['paid', 'paid']);

    await receiver.waitUntil(() => eventsFor(recurrence.id).length >= 3, 15_000, 'three events');
    const events = eventsFor(recurrence.id);
    expect(events.map((e) => e.body.event).sort()).toEqual(['recurrence.authorized', 'recurring_charge.paid', 'recurring_charge.paid']);
    expect(events.every((e) => e.verified)).toBe(true);
  });

  it('pays a first payment with the composite QR, and asks the payer’s bank directly in the request journey', async () => {
    const composite = (await http('POST', '/v1/recurrences', recurrenceBody({ journey: 'qr_with_first_payment', firstPayment: { amount: 49.9 } }))).body.data;
    expect(composite).toMatchObject({ journey: 'qr_with_first_payment', firstPaymentId: expect.stringMatching(/^pay_/) });
    expect((await http('GET', `/v1/payments/${composite.firstPaymentId}`)).body.data).toMatchObject({ status: 'pending', amount: 49.9 });
    await simulate('recurrences', composite.id, 'authorize');
    expect((await http('GET', `/v1/recurrences/${composite.id}`)).body.data.status).toBe('active');
    expect((await http('GET', `/v1/payments/${composite.firstPaymentId}`)).body.data.status).toBe('paid');

    const account = { ispbParticipante: '60701190', agencia: '2569', conta: '550689' };
    const asked = (await http('POST', '/v1/recurrences', recurrenceBody({ journey: 'request', payer: { document: '123.456.789-09', name: 'Ana Souza', account } }))).body.data;
    expect(asked).toMatchObject({ journey: 'request', status: 'pending_authorization', authorization: null });
    await simulate('recurrences', asked.id, 'authorize');
    expect((await http('GET', `/v1/recurrences/${asked.id}`)).body.data.status).toBe('active');
  });

  it('pays a due-date charge with the composite QR (qr_with_due_payment): a payment with due, changed before the payer scans, paid what is due that day', async () => {
    const dueDate = addDays(today, 5);
    const firstPayment = { amount: 100, due: { date: dueDate, daysAfterDue: 10, discount: { type: 'fixed_until', until: [{ date: dueDate, value: 10 }] } } };
    const created = await http('POST', '/v1/recurrences', recurrenceBody({ journey: 'qr_with_due_payment', firstPayment }));
    expect(created.status).toBe(201);
    const recurrence = created.body.data;
    expect(recurrence).toMatchObject({ journey: 'qr_with_due_payment', status: 'pending_authorization', firstPaymentId: expect.stringMatching(/^pay_/) });
    const payment = (await http('GET', `/v1/payments/${recurrence.firstPaymentId}`)).body.data;
    expect(payment).toMatchObject({ status: 'pending', amount: 100, amountDue: 90, due: { date: dueDate, daysAfterDue: 10 } });
    // One scan pays the due-date charge and authorizes: the code names both the charge's location and the recurrence's.
    expect(recurrence.authorization.copyPaste).toContain(`pix.sandbox.invalid/cobv/${payment.pix.txid}`);
    expect(recurrence.authorization.copyPaste).toContain('pix.sandbox.invalid/rec/');

    const changed = await send(t.url, 'PATCH', `/v1/payments/${payment.id}`, {
      headers: { 'x-merchant-key': key, 'idempotency-key': randomBytes(8).toString('hex') },
      body: { amount: 120, due: firstPayment.due },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ amount: 120, amountDue: 110 });

    expect((await simulate('recurrences', recurrence.id, 'authorize')).status).toBe(200);
    expect((await http('GET', `/v1/recurrences/${recurrence.id}`)).body.data).toMatchObject({ status: 'active', authorization: null, firstPaymentId: payment.id });
    expect((await http('GET', `/v1/payments/${payment.id}`)).body.data).toMatchObject({ status: 'paid', paidAmount: 110, amount: 120 });
    await receiver.waitUntil(() => eventsFor(recurrence.id).length >= 1 && eventsFor(payment.id).some((e) => e.body.event === 'payment.confirmed'), 15_000, 'authorized and paid');
    expect(
      eventsFor(payment.id)
        .map((e) => e.body.event)
        .sort(),
    ).toEqual(['payment.confirmed', 'payment.updated']);
  });

  it('retries a failed debit under three_in_seven_days, and fails it after the third retry', async () => {
    const id = await authorized({ retryPolicy: 'three_in_seven_days' });
    const charge = (await http('POST', `/v1/recurrences/${id}/charges`, { dueDate: addDays(today, 2) })).body.data;
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect((await simulate('recurring-charges', charge.id, 'fail')).status).toBe(200);
      const read = (await http('GET', `/v1/recurring-charges/${charge.id}`)).body.data;
      expect(read).toMatchObject({ status: 'retrying' });
      expect(read.attempts).toHaveLength(attempt + 1);
    }
    expect((await simulate('recurring-charges', charge.id, 'fail')).status).toBe(200);
    expect((await http('GET', `/v1/recurring-charges/${charge.id}`)).body.data).toMatchObject({ status: 'failed', failureReason: expect.any(String) });
    await receiver.waitUntil(() => eventsFor(charge.id).length >= 4, 15_000, 'retrying ×3 and failed');
    expect(eventsFor(charge.id).map((e) => e.body.event)).toEqual([
      'recurring_charge.retrying',
      'recurring_charge.retrying',
      'recurring_charge.retrying',
      'recurring_charge.failed',
    ]);
  });

  it('cancels at the merchant’s word, with its charges not yet attempted; a payer’s cancel is seen as theirs', async () => {
    const id = await authorized();
    const charge = (await http('POST', `/v1/recurrences/${id}/charges`, { dueDate: addDays(today, 4) })).body.data;
    const cancelled = await http('POST', `/v1/recurrences/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', cancelledBy: 'merchant' });
    expect((await http('GET', `/v1/recurring-charges/${charge.id}`)).body.data.status).toBe('cancelled');
    expect((await http('POST', `/v1/recurrences/${id}/charges`, { dueDate: addDays(today, 5) })).status).toBe(409);

    const other = await authorized();
    expect((await simulate('recurrences', other, 'payer_cancel')).status).toBe(200);
    expect((await http('GET', `/v1/recurrences/${other}`)).body.data).toMatchObject({ status: 'cancelled', cancelledBy: 'payer' });
    await receiver.waitUntil(() => eventsFor(other).some((e) => e.body.event === 'recurrence.cancelled'), 15_000, 'recurrence.cancelled');
  });

  it('keeps one charge per cycle, frees it when cancelled, and cancels a charge only before its due date', async () => {
    const id = await authorized();
    const first = (await http('POST', `/v1/recurrences/${id}/charges`, { dueDate: addDays(today, 3) })).body.data;
    const second = await http('POST', `/v1/recurrences/${id}/charges`, { dueDate: addDays(today, 4) });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe('PAYMENT_STATE_CONFLICT');
    expect((await http('POST', `/v1/recurring-charges/${first.id}/cancel`)).body.data.status).toBe('cancelled');
    expect((await http('POST', `/v1/recurrences/${id}/charges`, { dueDate: addDays(today, 4) })).status).toBe(201);
  });

  it('replays a create for the same Idempotency-Key and refuses the key with another body', async () => {
    const body = recurrenceBody();
    const first = await http('POST', '/v1/recurrences', body, 'same-key-1');
    const again = await http('POST', '/v1/recurrences', body, 'same-key-1');
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.data.id).toBe(first.body.data.id);
    expect((await http('POST', '/v1/recurrences', { ...body, amount: 1 }, 'same-key-1')).status).toBe(422);
  });

  it.each([
    ['both amounts', { minimumAmount: 10 }, 'amount'],
    ['neither amount', { amount: undefined }, 'amount'],
    ['a start in the past', { startDate: addDays(today, -1) }, 'startDate'],
    ['an end before the start', { endDate: today }, 'endDate'],
    ['an unknown frequency', { frequency: 'daily' }, 'frequency'],
    ['a date that does not exist', { startDate: '2026-02-30' }, 'startDate'],
    ['a request journey without the payer’s account', { journey: 'request' }, 'payer.account'],
    ['a bad CPF', { payer: { document: '123.456.789-00', name: 'Ana' } }, 'payer.document'],
    ['a due-date first payment without its terms', { journey: 'qr_with_due_payment', firstPayment: { amount: 10 } }, 'firstPayment.due'],
    ['due-date terms for an immediate first payment', { journey: 'qr_with_first_payment', firstPayment: { amount: 10, due: { date: addDays(today, 3) } } }, 'firstPayment.due'],
    ['a first payment due before today', { journey: 'qr_with_due_payment', firstPayment: { amount: 10, due: { date: addDays(today, -1) } } }, 'firstPayment.due.date'],
    [
      'a first payment’s unknown fine',
      { journey: 'qr_with_due_payment', firstPayment: { amount: 10, due: { date: addDays(today, 3), fine: { type: 'daily', value: 1 } } } },
      'firstPayment.due.fine.type',
    ],
    [
      'a first payment’s discount after its due date',
      {
        journey: 'qr_with_due_payment',
        firstPayment: { amount: 10, due: { date: addDays(today, 3), discount: { type: 'fixed_until', until: [{ date: addDays(today, 4), value: 1 }] } } },
      },
      'firstPayment.due.discount.until.0.date',
    ],
  ])('refuses a recurrence with %s (400 naming the field, nothing stored)', async (_, overrides, field) => {
    const externalId = `bad-${randomBytes(4).toString('hex')}`;
    const answer = await http('POST', '/v1/recurrences', recurrenceBody({ ...overrides, externalId }));
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    expect(answer.body.error.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect((await http('GET', `/v1/recurrences?externalId=${externalId}`)).body.data.items).toEqual([]);
  });

  it('refuses charges for a recurrence not active, a wrong amount, or a due date outside the window, calling no PSP', async () => {
    const pending = (await http('POST', '/v1/recurrences', recurrenceBody())).body.data.id;
    expect((await http('POST', `/v1/recurrences/${pending}/charges`, { dueDate: addDays(today, 3) })).status).toBe(409);
    const fixed = await authorized();
    const variable = await authorized({ amount: undefined, minimumAmount: 20 });
    const refused = async (id: string, body: Record<string, unknown>, field: string) => {
      const answer = await http('POST', `/v1/recurrences/${id}/charges`, body);
      expect([answer.status, answer.body.error.details.fields[0].field]).toEqual([400, field]);
    };
    await refused(fixed, { dueDate: addDays(today, 3), amount: 10 }, 'amount');
    await refused(variable, { dueDate: addDays(today, 3) }, 'amount');
    await refused(variable, { dueDate: addDays(today, 3), amount: 19.99 }, 'amount');
    for (const dueDate of [addDays(today, -1), today, addDays(today, 1), addDays(today, 11), '2026-02-30']) await refused(fixed, { dueDate }, 'dueDate');
    expect((await http('GET', `/v1/recurrences/${fixed}/charges`)).body.data.items).toEqual([]);
  });

  it('counts recurrences by status and charges by outcome in /metrics', async () => {
    const id = await authorized();
    const charge = (await http('POST', `/v1/recurrences/${id}/charges`, { dueDate: addDays(today, 3) })).body.data;
    await simulate('recurring-charges', charge.id, 'settle');
    const metrics = (await send(t.url, 'GET', '/metrics', { headers: { authorization: `Bearer ${t.config.adminApiToken.reveal()}` } })).text;
    const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}]/g, '\\$&')} (\\d+)`, 'm').exec(metrics)?.[1] ?? NaN);
    expect(value('recurrences{status="active"}')).toBeGreaterThanOrEqual(1);
    expect(value('recurring_charge_outcomes_total{provider="sandbox",outcome="paid"}')).toBeGreaterThanOrEqual(1);
  });

  it('shows a merchant only its own recurrences', async () => {
    const id = (await http('POST', '/v1/recurrences', recurrenceBody())).body.data.id;
    const otherKey = (await t.admin.newMerchant({ name: 'Outra' })).apiKey;
    const answer = await send(t.url, 'GET', `/v1/recurrences/${id}`, { headers: { 'x-merchant-key': otherKey } });
    expect(answer.status).toBe(404);
    expect((await http('GET', '/v1/recurrences/rec_doesnotexist')).status).toBe(404);
  });
});
