import { AppError, type FieldError } from '../common/errors/app-error';
import { providerNamedBy } from '../common/errors/answer-provider';
import type { Journey } from '../domain/recurrence';
import type { ProviderAdapter } from '../providers/provider-adapter';
import type { FirstPaymentDto } from './dto/create-recurrence.dto';
import { assertTakesDueCharges, checkFirstPayment } from './first-payment';

const TODAY = '2026-12-10';

function check(journey: Journey, firstPayment: FirstPaymentDto | undefined, amountCents: number | null = 10_000) {
  const problems: FieldError[] = [];
  const due = checkFirstPayment(journey, firstPayment, amountCents, TODAY, problems);
  return { due, fields: problems.map((p) => p.field) };
}

describe('a recurrence’s first payment', () => {
  it('takes a due-date charge’s terms for qr_with_due_payment, with the defaults filled in', () => {
    const { due, fields } = check('qr_with_due_payment', { amount: 100, due: { date: '2026-12-15', fine: { type: 'percent', value: 2 } } });
    expect(fields).toEqual([]);
    expect(due).toEqual({ date: '2026-12-15', daysAfterDue: 30, fine: { type: 'percent', value: 200 }, interest: null, discount: null, abatement: null });
  });

  it('asks for firstPayment for, and only for, the composite-QR journeys, and for its due for, and only for, qr_with_due_payment', () => {
    expect(check('qr_with_due_payment', undefined).fields).toEqual(['firstPayment']);
    expect(check('qr_with_due_payment', { amount: 100 }).fields).toEqual(['firstPayment.due']);
    expect(check('qr_with_first_payment', { amount: 100, due: { date: '2026-12-15' } }).fields).toEqual(['firstPayment.due']);
    expect(check('qr_with_first_payment', { amount: 100 })).toEqual({ due: null, fields: [] });
    expect(check('qr', { amount: 100 }).fields).toEqual(['firstPayment']);
    expect(check('request', undefined)).toEqual({ due: null, fields: [] });
  });

  it('checks the terms with the due-date charges’ rules, naming each field under firstPayment', () => {
    const { due, fields } = check('qr_with_due_payment', {
      amount: 100,
      due: { date: '2026-12-09', discount: { type: 'fixed_until', until: [{ date: '2026-12-20', value: 5 }] }, abatement: { type: 'percent', value: 100 } },
    });
    expect(due).toBeNull();
    expect(fields).toEqual(expect.arrayContaining(['firstPayment.due.date', 'firstPayment.due.abatement.value']));
    expect(fields.every((field) => field.startsWith('firstPayment.due.'))).toBe(true);
  });

  it('leaves the terms unchecked when the amount itself is wrong (its own problem names it)', () => {
    expect(check('qr_with_due_payment', { amount: 100, due: { date: '2026-12-09' } }, null)).toEqual({ due: null, fields: [] });
  });

  it('needs an account that takes due-date charges: 422 naming journey and the provider otherwise', () => {
    const adapter = (capabilities: Record<string, unknown>) => ({ descriptor: { capabilities } }) as unknown as ProviderAdapter;
    expect(() => assertTakesDueCharges({ provider: 'efi', adapter: adapter({ recurring: {}, dueCharges: { source: 'x' } }) })).not.toThrow();
    let refusal: unknown;
    try {
      assertTakesDueCharges({ provider: 'acme', adapter: adapter({ recurring: {} }) });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(AppError);
    expect(refusal).toMatchObject({ status: 422, code: 'VALIDATION_ERROR', details: { fields: [{ field: 'journey' }] } });
    expect(providerNamedBy(refusal)).toBe('acme');
  });
});
