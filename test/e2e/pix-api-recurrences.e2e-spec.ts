import { randomBytes } from 'node:crypto';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { RecurrenceReconciliation } from '../../src/recurrences/recurrence-reconciliation';
import { pixApiAccountBody, recurrenceBody } from '../helpers/factories';
import { http } from '../helpers/http';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * Pix Automático over HTTP through a Pix API account at the fake PSP, which checks every request
 * and answer against the Central Bank's document: the webhook registration of all three URLs, the
 * PSP's own authorization BR Code (journey 4's composite of a due-date charge and the recurrence),
 * callbacks at `/rec` and `/cobr` believed only once read back, retries asked of the PSP, and the
 * payer's cancel seen as theirs.
 */
describe('recurrences through a Pix API account', () => {
  let t: TestApp;
  let psp: PixApiPsp;
  let receiver: MerchantReceiver;
  let key: string;
  let accountId: string;
  const today = brasiliaDate(new Date());
  beforeAll(async () => {
    [t, psp, receiver] = await Promise.all([startTestApp(), startPixApiPsp(), MerchantReceiver.start()]);
    const account = await t.admin.POST('/admin/api/provider-accounts', {
      body: pixApiAccountBody(psp, { receiver_account: { agencia: '0001', conta: '123456', tipoConta: 'CORRENTE' } }),
    });
    accountId = account.data!.id;
    expect((await t.admin.POST('/admin/api/provider-accounts/{id}/webhook', { params: { path: { id: accountId } } })).status).toBe(200);
    key = (await t.admin.newMerchant({ name: 'Escola', webhook_url: receiver.url, provider_accounts: [accountId] })).apiKey;
  });
  afterAll(async () => {
    await Promise.all([t?.close(), psp?.close(), receiver?.close()]);
  });
  afterEach(() => {
    psp.reset();
    psp.assertNoViolations();
  });

  const call = (method: string, path: string, body?: unknown, merchantKey = key) =>
    http(t.url, method, path, { headers: { 'x-merchant-key': merchantKey, ...(method === 'POST' ? { 'idempotency-key': randomBytes(8).toString('hex') } : {}) }, body });
  const idRecOf = (contractId: string) => [...psp.recurrences.values()].find((rec) => rec.vinculo?.contrato === contractId)?.idRec as string;
  const created = async (overrides: Record<string, unknown> = {}) => {
    const body = recurrenceBody(overrides);
    const answer = await call('POST', '/v1/recurrences', body);
    expect(answer.status).toBe(201);
    return { recurrence: answer.body.data, idRec: idRecOf((body.contract as { id: string }).id) };
  };
  const authorized = async (overrides: Record<string, unknown> = {}) => {
    const made = await created(overrides);
    expect((await psp.approveRecurrence(made.idRec))?.status).toBe(200);
    return made;
  };
  const read = async (path: string) => (await call('GET', path)).body.data;

  it('registers the Pix, recurrence and recurring-charge webhooks at one URL', () => {
    const url = `${t.config.publicBaseUrl}/webhooks/pix-api/${accountId}`;
    expect(psp.recurringWebhooks.rec?.webhookUrl).toBe(url);
    expect(psp.recurringWebhooks.cobr?.webhookUrl).toBe(url);
    expect([...psp.webhooks.values()].map((w) => w.webhookUrl)).toContain(url);
  });

  it("answers the PSP's authorization BR Code, and is active once the PSP confirms the payer's yes", async () => {
    const { recurrence, idRec } = await created();
    expect(recurrence).toMatchObject({ status: 'pending_authorization', provider: 'pix-api', environment: 'sandbox' });
    // The PSP's code, never one the gateway builds: it carries the location the PSP made for this recurrence.
    expect(recurrence.authorization.copyPaste).toMatch(/^000201/);
    expect(recurrence.authorization.copyPaste).toContain(psp.recurrences.get(idRec).loc.location);
    await psp.approveRecurrence(idRec);
    expect(await read(`/v1/recurrences/${recurrence.id}`)).toMatchObject({ status: 'active', authorization: null });
    await receiver.waitUntil(() => receiver.received.some((r) => r.body?.event === 'recurrence.authorized' && r.body.data.id === recurrence.id));
  });

  it('pays a due-date charge with the composite QR (qr_with_due_payment): JORNADA_4 read with the cobv, authorized and paid what is due that day', async () => {
    const dueDate = addDays(today, 5);
    const firstPayment = { amount: 100, due: { date: dueDate, daysAfterDue: 10, discount: { type: 'fixed_until', until: [{ date: dueDate, value: 10 }] } } };
    const { recurrence, idRec } = await created({ journey: 'qr_with_due_payment', firstPayment });
    expect(recurrence).toMatchObject({ journey: 'qr_with_due_payment', status: 'pending_authorization', firstPaymentId: expect.stringMatching(/^pay_/) });
    const payment = await read(`/v1/payments/${recurrence.firstPaymentId}`);
    expect(payment).toMatchObject({ status: 'pending', amount: 100, amountDue: 90, due: { date: dueDate, daysAfterDue: 10 } });

    // The first payment is the PSP's due-date charge, with its terms; the recurrence names no charge (only JORNADA_3's does).
    const cobv = psp.dueCharges.get(payment.pix.txid);
    expect(cobv).toMatchObject({
      calendario: { dataDeVencimento: dueDate, validadeAposVencimento: 10 },
      valor: { original: '100.00', desconto: { modalidade: 1, descontoDataFixa: [{ data: dueDate, valorPerc: '10.00' }] } },
    });
    expect(payment.pix.copyPaste).toBe(cobv.pixCopiaECola);
    const rec = psp.recurrences.get(idRec);
    expect(rec.ativacao.dadosJornada).toBeUndefined();
    // The composite code, read from the PSP with the cobv's txid: the charge's code, then field 80 with the recurrence's location.
    const read4 = psp.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/rec/${idRec}`)).at(-1);
    expect(read4?.query).toEqual({ txid: payment.pix.txid });
    const copyPaste: string = recurrence.authorization.copyPaste;
    expect(copyPaste.startsWith(cobv.pixCopiaECola.slice(0, -8))).toBe(true);
    expect(copyPaste).toContain(cobv.location);
    expect(copyPaste).toContain(rec.loc.location);
    expect(copyPaste).not.toBe(cobv.pixCopiaECola);

    // One scan: the payer's bank authorizes the recurrence and pays the charge what is due today.
    expect((await psp.approveRecurrence(idRec))?.status).toBe(200);
    expect(psp.recurrences.get(idRec).ativacao).toEqual({ tipoJornada: 'JORNADA_4' });
    expect((await psp.pay(payment.pix.txid, { amountCents: 9000 })).callback?.status).toBe(200);
    expect(await read(`/v1/recurrences/${recurrence.id}`)).toMatchObject({ status: 'active', authorization: null, firstPaymentId: payment.id });
    expect(await read(`/v1/payments/${payment.id}`)).toMatchObject({ status: 'paid', paidAmount: 90, amount: 100 });
    const detail = (await t.admin.GET('/admin/api/payments/{id}', { params: { path: { id: payment.id } } })).data!;
    expect(detail.events.map((e) => e.outcome)).toEqual(['applied']);
    await receiver.waitUntil(
      () =>
        receiver.received.some((r) => r.body?.event === 'recurrence.authorized' && r.body.data.id === recurrence.id) &&
        receiver.received.some((r) => r.body?.event === 'payment.confirmed' && r.body.data.id === payment.id),
      15_000,
      'authorized and paid',
    );
  });

  it('charges a cycle, and records it paid when the PSP confirms the debit with its end-to-end id', async () => {
    const { recurrence } = await authorized();
    const charge = (await call('POST', `/v1/recurrences/${recurrence.id}/charges`, { dueDate: addDays(today, 3) })).body.data;
    expect(charge).toMatchObject({ status: 'scheduled', amount: 89.9 });
    expect(psp.recurringCharges.get(charge.txid)).toMatchObject({ valor: { original: '89.90' }, recebedor: { agencia: '0001', conta: '123456', tipoConta: 'CORRENTE' } });
    expect((await psp.settleRecurringCharge(charge.txid))?.status).toBe(200);
    expect(await read(`/v1/recurring-charges/${charge.id}`)).toMatchObject({ status: 'paid', endToEndId: expect.stringMatching(/^E\d{8}/) });
  });

  it('asks the PSP for a retry after a failed debit under three_in_seven_days', async () => {
    const { recurrence } = await authorized({ retryPolicy: 'three_in_seven_days' });
    const charge = (await call('POST', `/v1/recurrences/${recurrence.id}/charges`, { dueDate: addDays(today, 2) })).body.data;
    await psp.failRecurringCharge(charge.txid);
    const retrying = await read(`/v1/recurring-charges/${charge.id}`);
    expect(retrying.status).toBe('retrying');
    expect(psp.requests.some((r) => r.method === 'POST' && r.path.includes(`/cobr/${charge.txid}/retentativa/`))).toBe(true);
    expect(psp.recurringCharges.get(charge.txid).tentativas).toHaveLength(2);
    await psp.settleRecurringCharge(charge.txid);
    expect(await read(`/v1/recurring-charges/${charge.id}`)).toMatchObject({ status: 'paid' });
  });

  it("sees the payer's cancel at their bank as theirs, and cancels at the PSP when the merchant asks", async () => {
    const payer = await authorized();
    await psp.payerCancelsRecurrence(payer.idRec);
    expect(await read(`/v1/recurrences/${payer.recurrence.id}`)).toMatchObject({ status: 'cancelled', cancelledBy: 'payer' });

    const merchant = await authorized();
    const answer = await call('POST', `/v1/recurrences/${merchant.recurrence.id}/cancel`);
    expect(answer.body.data).toMatchObject({ status: 'cancelled', cancelledBy: 'merchant' });
    expect(psp.recurrences.get(merchant.idRec).status).toBe('CANCELADA');
  });

  it('reads back what a lost callback would have said: the payer’s yes, and a debit past its due date', async () => {
    const silently = async <T>(kind: 'rec' | 'cobr', act: () => Promise<T>): Promise<T> => {
      const registered = psp.recurringWebhooks[kind];
      delete psp.recurringWebhooks[kind];
      try {
        return await act();
      } finally {
        psp.recurringWebhooks[kind] = registered;
      }
    };
    const due = async (table: 'recurrences' | 'recurring_charges', id: string) => {
      await t.dataSource.query(`UPDATE ${table} SET next_reconcile_at = now() - interval '1 second' WHERE id = $1`, [id]);
      return t.app.get(RecurrenceReconciliation).runOnce();
    };
    const { recurrence, idRec } = await created();
    expect(await silently('rec', () => psp.approveRecurrence(idRec))).toBeUndefined();
    expect(await read(`/v1/recurrences/${recurrence.id}`)).toMatchObject({ status: 'pending_authorization' });
    expect(await due('recurrences', recurrence.id)).toMatchObject({ applied: 1, failed: 0 });
    expect(await read(`/v1/recurrences/${recurrence.id}`)).toMatchObject({ status: 'active' });

    const charge = (await call('POST', `/v1/recurrences/${recurrence.id}/charges`, { dueDate: addDays(today, 3) })).body.data;
    await silently('cobr', () => psp.settleRecurringCharge(charge.txid));
    expect(await due('recurring_charges', charge.id)).toMatchObject({ applied: 1, failed: 0 });
    expect(await read(`/v1/recurring-charges/${charge.id}`)).toMatchObject({ status: 'paid' });
    await receiver.waitUntil(() => receiver.received.filter((r) => r.body?.data?.id === charge.id || r.body?.data?.id === recurrence.id).length >= 2);
  });

  it('believes no callback the PSP does not confirm: a forged one is 401 and changes nothing', async () => {
    const { recurrence, idRec } = await created();
    const forged = await http(t.url, 'POST', `/webhooks/pix-api/${accountId}/rec`, {
      body: { recs: [{ idRec: idRec.replace(/.$/, (c) => (c === 'a' ? 'b' : 'a')), status: 'APROVADA', atualizacao: [{ status: 'APROVADA', data: new Date().toISOString() }] }] },
      headers: { 'x-forwarded-for': '10.9.9.9' },
    });
    expect(forged.status).toBe(401);
    expect(await read(`/v1/recurrences/${recurrence.id}`)).toMatchObject({ status: 'pending_authorization' });
  });

  it('refuses a charge outside the window, a second one in a cycle, and both amounts, calling no PSP', async () => {
    const { recurrence } = await authorized();
    expect((await call('POST', `/v1/recurrences/${recurrence.id}/charges`, { dueDate: addDays(today, 3) })).status).toBe(201);
    const before = psp.requests.length;
    const refusals = [
      await call('POST', `/v1/recurrences/${recurrence.id}/charges`, { dueDate: addDays(today, 11) }),
      await call('POST', `/v1/recurrences/${recurrence.id}/charges`, { dueDate: addDays(today, 1) }),
      await call('POST', `/v1/recurrences/${recurrence.id}/charges`, { dueDate: addDays(today, 4) }),
      await call('POST', '/v1/recurrences', recurrenceBody({ minimumAmount: 10 })),
    ];
    expect(refusals.map((r) => r.status)).toEqual([400, 400, 409, 400]);
    expect(psp.requests.length).toBe(before);
  });

  it('refuses a recurrence before the account has its receiver_account (400 naming it), calling no PSP', async () => {
    const bare = (await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp, { name: 'Sem recebedor' }) })).data!;
    const bareKey = (await t.admin.newMerchant({ name: 'Sem conta', provider_accounts: [bare.id] })).apiKey;
    const before = psp.requests.length;
    const answer = await call('POST', '/v1/recurrences', recurrenceBody(), bareKey);
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.fields[0].field).toBe('receiver_account');
    expect(psp.requests.length).toBe(before);
  });
});
