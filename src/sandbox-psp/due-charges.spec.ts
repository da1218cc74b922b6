import { type DueTerms, dueTermsProblems } from '../domain/due-charge';
import { dueTermsToWire } from '../common/sandbox-wire/sandbox-due-api';
import { ChargeStore, toWire } from './charge-store';
import { dueExpiry, dueTermsProblem, lastPayableDay, owedOn, refreshDueCharge } from './due-charges';
import { newCharge } from './new-charge';

/** Noon in Brasília (UTC−3) on a day of March 2026; 1 March 2026 is a Sunday. */
const noon = (date: string) => Date.parse(`${date}T15:00:00.000Z`);
const TODAY = '2026-03-02';

/** Due Tuesday 10 March 2026, payable 5 days after (to Sunday the 15th, so through Monday the 16th); 2% fine, 1% a month of calendar-day interest. */
const TERMS: DueTerms = {
  date: '2026-03-10',
  daysAfterDue: 5,
  fine: { type: 'percent', value: 2_00 },
  interest: { type: 'percent_per_month', days: 'calendar', value: 1_00 },
  discount: { type: 'fixed_until', until: [{ date: '2026-03-05', value: 5_00 }] },
  abatement: null,
};

const body = (overrides: Record<string, unknown> = {}) => ({
  txid: 'due0000000000000000000000000001',
  amount: '100.00',
  currency: 'BRL' as const,
  description: 'Mensalidade de março',
  externalId: 'march-1',
  recipient: { document: '12345678909', name: 'Ana Souza' },
  due: dueTermsToWire(TERMS),
  notificationUrl: 'http://127.0.0.1:9/webhooks/sandbox',
  ...overrides,
});

describe('sandbox due-date charges', () => {
  it("is payable through the domain's last payable day (a Sunday moves to Monday), to that day's end in Brasília", () => {
    expect(lastPayableDay(TERMS)).toBe('2026-03-16');
    expect(dueExpiry(TERMS)).toEqual(new Date('2026-03-17T02:59:59.999Z'));
  });

  it('owes the discounted amount early, the original on the due date, fine and interest after, and what the last day owed once past it', () => {
    expect(owedOn(10_000, TERMS, '2026-03-05')).toBe(9_500);
    expect(owedOn(10_000, TERMS, '2026-03-10')).toBe(10_000);
    // 6 calendar days late: R$ 2.00 fine and 1% × 6/30 of R$ 100.00 = R$ 0.20 interest.
    expect(owedOn(10_000, TERMS, '2026-03-16')).toBe(10_220);
    expect(owedOn(10_000, TERMS, '2026-04-30')).toBe(10_220);
  });

  it('is made open with a dynamic BR Code naming its location and no amount, and what is owed today', () => {
    const charge = newCharge(body(), 10_000, noon(TODAY));
    expect(charge).toMatchObject({ status: 'ATIVA', due: TERMS, amountDueCents: 9_500, expiresAt: new Date('2026-03-17T02:59:59.999Z') });
    expect(charge.pixCopiaECola).toContain('pix.sandbox.invalid/cobv/due0000000000000000000000000001');
    expect(charge.pixCopiaECola).not.toMatch(/54\d\d100\.00/);
    expect(toWire(charge)).toMatchObject({ amount: '100.00', amountDue: '95.00', due: dueTermsToWire(TERMS), expiresAt: '2026-03-17T02:59:59.999Z' });
  });

  it('expires an open charge on the first read after its last payable day in Brasília, not before', () => {
    const store = new ChargeStore(10);
    store.add(newCharge(body(), 10_000, noon(TODAY)));
    const txid = body().txid;
    // 23:59 on the 16th in Brasília is still the last payable day.
    expect(store.find(txid, Date.parse('2026-03-17T02:59:00.000Z'))).toMatchObject({ status: 'ATIVA', amountDueCents: 10_220 });
    expect(store.find(txid, Date.parse('2026-03-17T03:00:00.000Z'))).toMatchObject({ status: 'EXPIRADA', amountDueCents: 10_220 });
  });

  it('leaves a paid charge paid past its last day, and immediate charges to their own expiry', () => {
    const paid = newCharge(body(), 10_000, noon(TODAY));
    paid.status = 'CONCLUIDA';
    refreshDueCharge(paid, noon('2026-05-01'));
    expect(paid.status).toBe('CONCLUIDA');
    const immediate = newCharge({ ...body({ due: undefined }), expiresIn: 60 }, 1_000, noon(TODAY));
    expect(immediate).toMatchObject({ expiresAt: new Date(noon(TODAY) + 60_000) });
    expect(immediate.due).toBeUndefined();
    expect(toWire(immediate)).not.toHaveProperty('amountDue');
  });

  it("refuses terms by the gateway's rules, naming the field, and a change's due date only before the day the charge was made", () => {
    expect(dueTermsProblem(TERMS, 10_000, TODAY, 'create')).toBeNull();
    expect(dueTermsProblem({ ...TERMS, date: '2026-03-01' }, 10_000, TODAY, 'create')).toMatchObject({ statusCode: 400, code: 'INVALID_REQUEST', field: 'due.date' });
    expect(dueTermsProblem({ ...TERMS, fine: { type: 'percent', value: 100_01 } }, 10_000, TODAY, 'create')).toMatchObject({ field: 'due.fine.value' });
    // The field as the gateway's rules name it.
    const lateDiscount: DueTerms = { ...TERMS, discount: { type: 'fixed_until', until: [{ date: '2026-03-11', value: 1_00 }] } };
    expect(dueTermsProblem(lateDiscount, 10_000, TODAY, 'create')).toMatchObject({ field: dueTermsProblems(lateDiscount, 10_000, TODAY)[0]!.field });
    expect(dueTermsProblem(lateDiscount, 10_000, TODAY, 'create')?.field).toMatch(/^due\.discount\.until/);
    const changed = dueTermsProblem({ ...TERMS, date: '2026-03-01' }, 10_000, TODAY, 'change');
    expect(changed?.message).toBe(`due.date must not be before the day the charge was made (${TODAY}).`);
  });
});
