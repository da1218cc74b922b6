import { parsePix } from 'pix-utils';
import { brCodeCrc } from '../domain/br-code';
import { sandboxRecurrenceBrCode } from './br-code';
import {
  cancelCharge,
  chargeRefusal,
  failAttempt,
  firstPaymentKindRefusal,
  notYetAttempted,
  RecurrenceStore,
  retryRefusal,
  settleAttempt,
  type StoredRecurrence,
  type StoredRecurringCharge,
} from './recurrence-rules';

/** Noon in Brasília, 2 March 2026. */
const NOW = Date.parse('2026-03-02T15:00:00.000Z');
const TODAY = '2026-03-02';
const DAY = 86_400_000;

function recurrence(overrides: Partial<StoredRecurrence> = {}): StoredRecurrence {
  return {
    id: `sbxrec_${Math.random().toString(36).slice(2)}`,
    recurrenceId: `rec_${Math.random().toString(36).slice(2)}`,
    status: 'APROVADA',
    contract: { id: 'c1', description: null },
    debtor: { document: '12345678909', name: 'Ana Souza' },
    frequency: 'monthly',
    amountCents: 4990,
    minimumAmountCents: null,
    startDate: TODAY,
    endDate: null,
    retryPolicy: 'three_in_seven_days',
    journey: 'qr',
    firstPaymentTxid: null,
    payerAccount: null,
    pixCopiaECola: null,
    notificationUrl: 'http://x.test',
    createdAt: new Date(NOW),
    expiresAt: new Date(NOW + DAY),
    updatedAt: new Date(NOW),
    cancelledBy: null,
    ...overrides,
  };
}

function charge(overrides: Partial<StoredRecurringCharge> = {}): StoredRecurringCharge {
  const dueDate = overrides.dueDate ?? '2026-03-07';
  return {
    txid: `t${Math.random().toString(36).slice(2)}`.padEnd(26, '0'),
    recurrence: recurrence(),
    status: 'ATIVA',
    amountCents: 4990,
    dueDate,
    description: null,
    receiverAccount: { agencia: '1', conta: '1', tipoConta: 'CORRENTE' },
    attempts: [{ date: dueDate, status: 'AGENDADA', endToEndId: null, failureReason: null, updatedAt: new Date(NOW) }],
    endToEndId: null,
    paidAt: null,
    failureReason: null,
    notificationUrl: 'http://x.test',
    createdAt: new Date(NOW),
    updatedAt: new Date(NOW),
    ...overrides,
  };
}

/** A charge whose attempts so far are on `dates`, all failed, still open. */
function failedOn(dates: string[], overrides: Partial<StoredRecurringCharge> = {}): StoredRecurringCharge {
  return charge({
    status: 'ATIVA',
    attempts: dates.map((date) => ({ date, status: 'REJEITADA', endToEndId: null, failureReason: 'no funds', updatedAt: new Date(NOW) })),
    ...overrides,
  });
}

const request = (dueDate: string, amountCents = 4990) => ({ dueDate, amountCents });

describe('the sandbox recurrence rules', () => {
  describe('chargeRefusal', () => {
    it('takes a due date 2 to 10 days ahead for an authorized recurrence', () => {
      expect(chargeRefusal(recurrence(), [], request('2026-03-04'), TODAY)).toBeNull();
      expect(chargeRefusal(recurrence(), [], request('2026-03-12'), TODAY)).toBeNull();
    });

    it.each([
      ['2026-03-03', 'DUE_DATE_REFUSED'],
      ['2026-03-13', 'DUE_DATE_REFUSED'],
      ['2026-03-01', 'DUE_DATE_REFUSED'],
    ])('refuses due %s with %s, naming dueDate', (dueDate, code) => {
      expect(chargeRefusal(recurrence(), [], request(dueDate), TODAY)).toMatchObject({ statusCode: 400, code, field: 'dueDate' });
    });

    it('refuses a due date outside the recurrence', () => {
      expect(chargeRefusal(recurrence({ startDate: '2026-03-10' }), [], request('2026-03-05'), TODAY)).toMatchObject({
        code: 'DUE_DATE_REFUSED',
        message: expect.stringContaining('start'),
      });
      expect(chargeRefusal(recurrence({ endDate: '2026-03-04' }), [], request('2026-03-05'), TODAY)).toMatchObject({
        code: 'DUE_DATE_REFUSED',
        message: expect.stringContaining('end'),
      });
    });

    it.each(['CRIADA', 'REJEITADA', 'EXPIRADA', 'CANCELADA'] as const)('refuses a charge for a recurrence %s', (status) => {
      expect(chargeRefusal(recurrence({ status }), [], request('2026-03-05'), TODAY)).toMatchObject({ statusCode: 400, code: 'RECURRENCE_NOT_ACTIVE' });
    });

    it('holds a fixed recurrence to its amount and a variable one to its floor', () => {
      expect(chargeRefusal(recurrence(), [], request('2026-03-05', 4991), TODAY)).toMatchObject({ code: 'AMOUNT_MISMATCH', field: 'amount' });
      const variable = recurrence({ amountCents: null, minimumAmountCents: 1000 });
      expect(chargeRefusal(variable, [], request('2026-03-05', 999), TODAY)).toMatchObject({ code: 'AMOUNT_BELOW_MINIMUM' });
      expect(chargeRefusal(variable, [], request('2026-03-05', 1000), TODAY)).toBeNull();
    });

    it('keeps one charge per cycle, freed by a cancelled or rejected one', () => {
      const owner = recurrence();
      const taken = charge({ recurrence: owner, dueDate: '2026-03-04' });
      expect(chargeRefusal(owner, [taken], request('2026-03-10'), TODAY)).toMatchObject({ statusCode: 409, code: 'CYCLE_TAKEN' });
      // The next month's cycle begins on 2 April.
      expect(chargeRefusal(owner, [taken], request('2026-04-02'), '2026-03-25')).toBeNull();
      for (const status of ['CANCELADA', 'REJEITADA'] as const) {
        expect(chargeRefusal(owner, [{ ...taken, status }], request('2026-03-10'), TODAY)).toBeNull();
      }
    });
  });

  describe('retryRefusal', () => {
    it('takes a retry after a failed attempt, dated after it and within the due date + 7', () => {
      expect(retryRefusal(failedOn(['2026-03-07']), '2026-03-08', '2026-03-07')).toBeNull();
      expect(retryRefusal(failedOn(['2026-03-07']), '2026-03-14', '2026-03-07')).toBeNull();
    });

    it('refuses under the none policy', () => {
      const none = failedOn(['2026-03-07'], { recurrence: recurrence({ retryPolicy: 'none' }) });
      expect(retryRefusal(none, '2026-03-08', '2026-03-07')).toMatchObject({ code: 'RETRY_NOT_ALLOWED' });
    });

    it('refuses once the recurrence is cancelled', () => {
      const cancelled = failedOn(['2026-03-07'], { recurrence: recurrence({ status: 'CANCELADA', cancelledBy: 'USUARIO_PAGADOR' }) });
      expect(retryRefusal(cancelled, '2026-03-08', '2026-03-07')).toMatchObject({ code: 'RECURRENCE_NOT_ACTIVE' });
    });

    it('refuses while the last attempt has not failed, and on a closed charge', () => {
      expect(retryRefusal(charge(), '2026-03-08', TODAY)).toMatchObject({ code: 'ATTEMPT_NOT_FAILED' });
      expect(retryRefusal(failedOn(['2026-03-07'], { status: 'REJEITADA' }), '2026-03-08', '2026-03-07')).toMatchObject({ code: 'CHARGE_CLOSED' });
    });

    it('refuses a fourth retry', () => {
      const thrice = failedOn(['2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10']);
      expect(retryRefusal(thrice, '2026-03-11', '2026-03-10')).toMatchObject({ code: 'RETRY_LIMIT' });
    });

    it.each([
      ['on the last attempt', '2026-03-07', '2026-03-06'],
      ['today', '2026-03-08', '2026-03-08'],
      ['after the due date + 7', '2026-03-15', '2026-03-07'],
    ])('refuses a retry dated %s', (_, date, today) => {
      expect(retryRefusal(failedOn(['2026-03-07']), date, today)).toMatchObject({ code: 'RETRY_DATE_REFUSED', field: 'date' });
    });
  });

  describe('attempts', () => {
    it('a failed attempt leaves the charge open while a retry can still be dated', () => {
      const open = charge();
      failAttempt(open, 'no funds', NOW + 5 * DAY);
      expect(open).toMatchObject({ status: 'ATIVA', failureReason: null, attempts: [{ status: 'REJEITADA', failureReason: 'no funds' }] });
    });

    it('rejects the charge when the policy allows no retry, the retries are spent or the window has closed', () => {
      const none = charge({ recurrence: recurrence({ retryPolicy: 'none' }) });
      failAttempt(none, 'no funds', NOW);
      expect(none).toMatchObject({ status: 'REJEITADA', failureReason: 'no funds' });

      const spent = failedOn(['2026-03-07', '2026-03-08', '2026-03-09']);
      spent.attempts.push({ date: '2026-03-10', status: 'AGENDADA', endToEndId: null, failureReason: null, updatedAt: new Date(NOW) });
      failAttempt(spent, 'no funds', Date.parse('2026-03-10T15:00:00Z'));
      expect(spent.status).toBe('REJEITADA');

      const late = charge();
      failAttempt(late, 'no funds', Date.parse('2026-03-14T15:00:00Z'));
      expect(late.status).toBe('REJEITADA');
    });

    it('a settled attempt pays the charge', () => {
      const paid = charge();
      settleAttempt(paid, 'E99999999202603071200abcdefghijk', NOW);
      expect(paid).toMatchObject({ status: 'CONCLUIDA', endToEndId: 'E99999999202603071200abcdefghijk', paidAt: new Date(NOW), attempts: [{ status: 'PAGA' }] });
      expect(notYetAttempted(paid)).toBe(false);
    });

    it('cancels only before the date of the first attempt', () => {
      const early = charge();
      expect(cancelCharge(early, NOW)).toBeNull();
      expect(early).toMatchObject({ status: 'CANCELADA', attempts: [{ status: 'CANCELADA' }] });
      const due = charge();
      expect(cancelCharge(due, Date.parse('2026-03-07T03:30:00Z'))).toMatchObject({ code: 'CANCEL_WINDOW_CLOSED' });
      // 23:59 in Brasília the day before is still before.
      expect(cancelCharge(due, Date.parse('2026-03-07T02:59:00Z'))).toBeNull();
    });
  });

  describe('RecurrenceStore', () => {
    it('finds by either id, expires an unanswered recurrence and an open charge whose retries can no longer be dated', () => {
      const store = new RecurrenceStore(10);
      const waiting = recurrence({ status: 'CRIADA', pixCopiaECola: 'code' });
      store.add(waiting);
      expect(store.find(waiting.recurrenceId, NOW)).toBe(waiting);
      expect(store.find(waiting.id, NOW + DAY)).toMatchObject({ status: 'EXPIRADA', pixCopiaECola: null });

      const owner = recurrence();
      store.add(owner);
      const failed = failedOn(['2026-03-07'], { recurrence: owner });
      store.addCharge(failed);
      expect(store.findCharge(failed.txid, Date.parse('2026-03-13T15:00:00Z'))).toMatchObject({ status: 'ATIVA' });
      expect(store.findCharge(failed.txid, Date.parse('2026-03-14T15:00:00Z'))).toMatchObject({ status: 'EXPIRADA' });
    });

    it('forgets the oldest recurrence, with its charges, beyond its cap', () => {
      const store = new RecurrenceStore(1);
      const first = recurrence();
      store.add(first);
      const owned = charge({ recurrence: first });
      store.addCharge(owned);
      store.add(recurrence());
      expect(store.find(first.id, NOW)).toBeUndefined();
      expect(store.findCharge(owned.txid, NOW)).toBeUndefined();
    });
  });

  describe('sandboxRecurrenceBrCode', () => {
    it('writes a Pix Automático code naming the recurrence, and a composite one also naming the first payment, each with its CRC', () => {
      const alone = sandboxRecurrenceBrCode('sbxrec_1', null);
      const composite = sandboxRecurrenceBrCode('sbxrec_1', 'a'.repeat(32));
      for (const code of [alone, composite]) expect(code.slice(-4)).toBe(brCodeCrc(code.slice(0, -4)));
      expect(parsePix(alone)).toMatchObject({ type: 'RECURRENCE', urlRec: 'pix.sandbox.invalid/rec/sbxrec_1' });
      expect(parsePix(composite)).toMatchObject({ type: 'DYNAMIC', url: `pix.sandbox.invalid/cob/${'a'.repeat(32)}`, urlRec: 'pix.sandbox.invalid/rec/sbxrec_1' });
    });

    it('writes JORNADA_4’s composite code naming the due-date charge’s location, as its own code does', () => {
      const composite = sandboxRecurrenceBrCode('sbxrec_1', 'b'.repeat(32), 'cobv');
      expect(composite.slice(-4)).toBe(brCodeCrc(composite.slice(0, -4)));
      expect(parsePix(composite)).toMatchObject({ type: 'DYNAMIC', url: `pix.sandbox.invalid/cobv/${'b'.repeat(32)}`, urlRec: 'pix.sandbox.invalid/rec/sbxrec_1' });
    });
  });

  describe('firstPaymentKindRefusal', () => {
    const due = { date: '2026-03-10', daysAfterDue: 30, fine: null, interest: null, discount: null, abatement: null };

    it('takes an immediate charge for JORNADA_3 and a due-date charge for JORNADA_4, and refuses the other kind', () => {
      expect(firstPaymentKindRefusal('qr_with_first_payment', { txid: 't1' })).toBeNull();
      expect(firstPaymentKindRefusal('qr_with_due_payment', { txid: 't2', due })).toBeNull();
      expect(firstPaymentKindRefusal('qr_with_due_payment', { txid: 't3' })).toMatch(/t3 has no due date/);
      expect(firstPaymentKindRefusal('qr_with_first_payment', { txid: 't4', due })).toMatch(/t4 is a due-date charge/);
    });
  });
});
