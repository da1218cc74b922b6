import { checkPayerForm, isUsedUp, linkState, linkTermsOf, OPEN_WINDOW_MS, payerAmountCents, type PaymentLinkCounts, retryAfterSeconds } from './payment-link-rules';

const NOW = new Date('2026-11-28T12:00:00.000Z');
const counts = (overrides: Partial<PaymentLinkCounts> = {}): PaymentLinkCounts => ({ payments: 0, paid: 0, pending: 0, opening: 0, ...overrides });
const MAX = 100_000_000;

describe('a payment link’s state', () => {
  const link = { active: true, expiresAt: null as Date | null, maxPayments: null as number | null };

  it('is open until deactivated (or its merchant is), expired or used up, in that order', () => {
    expect(linkState(link, counts(), true, NOW)).toBe('open');
    expect(linkState({ ...link, active: false, expiresAt: new Date(0), maxPayments: 1 }, counts({ paid: 1 }), true, NOW)).toBe('inactive');
    expect(linkState(link, counts(), false, NOW)).toBe('inactive');
    expect(linkState({ ...link, expiresAt: NOW, maxPayments: 1 }, counts({ paid: 1 }), true, NOW)).toBe('expired');
    expect(linkState({ ...link, expiresAt: new Date(NOW.getTime() + 1) }, counts(), true, NOW)).toBe('open');
    expect(linkState({ ...link, maxPayments: 1 }, counts({ paid: 1 }), true, NOW)).toBe('used_up');
  });

  it('is used up once paid, pending and being-made payments fill maxPayments, and never without a maximum', () => {
    expect(isUsedUp(3, counts({ paid: 1, pending: 1 }))).toBe(false);
    expect(isUsedUp(3, counts({ paid: 1, pending: 1, opening: 1 }))).toBe(true);
    expect(isUsedUp(3, counts({ pending: 3 }))).toBe(true);
    // Expired, cancelled and failed payments (counted in `payments` only) give their place back.
    expect(isUsedUp(3, counts({ payments: 10, paid: 2 }))).toBe(false);
    expect(isUsedUp(null, counts({ paid: 1_000_000 }))).toBe(false);
  });
});

describe('a payment link’s terms', () => {
  it('takes a fixed amount or a range, in centavos, and an expiry in the future', () => {
    expect(linkTermsOf({ amount: 59.9 }, MAX, NOW)).toEqual({ amount: { amountCents: 5990, minAmountCents: null, maxAmountCents: null }, expiresAt: null });
    expect(linkTermsOf({ amountRange: { min: 10, max: 500.5 }, expiresAt: '2026-12-31T23:59:59-03:00' }, MAX, NOW)).toEqual({
      amount: { amountCents: null, minAmountCents: 1000, maxAmountCents: 50050 },
      expiresAt: new Date('2027-01-01T02:59:59.000Z'),
    });
  });

  it('names every problem: neither or both amounts, over the maximum, a range upside down, an expiry past', () => {
    expect(linkTermsOf({}, MAX, NOW)).toEqual({ problems: [{ field: 'amount', message: expect.stringContaining('exactly one of') }] });
    expect(linkTermsOf({ amount: 5, amountRange: { min: 1, max: 2 } }, MAX, NOW)).toEqual({ problems: [{ field: 'amount', message: expect.stringContaining('exactly one of') }] });
    expect(linkTermsOf({ amount: 1_000_000.01 }, MAX, NOW)).toEqual({ problems: [{ field: 'amount', message: 'amount must be at most 1000000.00' }] });
    expect(linkTermsOf({ amountRange: { min: 50, max: 2_000_000 }, expiresAt: NOW.toISOString() }, MAX, NOW)).toEqual({
      problems: [
        { field: 'amountRange.max', message: 'amountRange.max must be at most 1000000.00' },
        { field: 'expiresAt', message: 'expiresAt must be in the future' },
      ],
    });
    for (const max of [50, 49.99]) {
      expect(linkTermsOf({ amountRange: { min: 50, max } }, MAX, NOW)).toEqual({
        problems: [{ field: 'amountRange.max', message: 'amountRange.max must be greater than amountRange.min' }],
      });
    }
  });
});

describe('a payer’s form', () => {
  const fixed = { amountCents: 5990, minAmountCents: null, maxAmountCents: null, collectEmail: false };
  const range = { amountCents: null, minAmountCents: 1000, maxAmountCents: 50000, collectEmail: true };

  it('gives the payer trimmed, the document normalised, and the link’s own amount whatever the form says', () => {
    expect(checkPayerForm(fixed, { name: '  Ana Souza ', document: '123.456.789-09', amount: '1,00', email: 'x' })).toEqual({
      payer: { name: 'Ana Souza', document: '12345678909', email: null, amountCents: 5990 },
    });
    expect(checkPayerForm(range, { name: 'Loja ABC', document: '12.ABC.345/01DE-35', email: ' ana@example.com ', amount: 'R$ 234,56' })).toEqual({
      payer: { name: 'Loja ABC', document: '12ABC34501DE35', email: 'ana@example.com', amountCents: 23456 },
    });
  });

  it('names each bad field: name, document check digits, the e-mail a link collects, an amount outside the range', () => {
    expect(checkPayerForm(range, { name: ' ', document: '123.456.789-00', email: 'not-an-email', amount: '9,99' })).toEqual({
      fields: [
        { field: 'name', message: 'name must be 1 to 140 characters' },
        { field: 'document', message: 'document must be a valid CPF or CNPJ' },
        { field: 'email', message: 'email must be an e-mail address' },
        { field: 'amount', message: 'amount must be between 10.00 and 500.00' },
      ],
    });
    expect(checkPayerForm(range, { name: 'a'.repeat(141), document: '12345678909', email: 'ana@example.com', amount: '500,01' })).toEqual({
      fields: [
        { field: 'name', message: 'name must be 1 to 140 characters' },
        { field: 'amount', message: 'amount must be between 10.00 and 500.00' },
      ],
    });
    expect(checkPayerForm(range, { name: 'Ana', document: '12345678909' })).toEqual({
      fields: [
        { field: 'email', message: 'email must be an e-mail address' },
        { field: 'amount', message: 'amount must be an amount in reais, such as 25,90' },
      ],
    });
    expect(checkPayerForm(fixed, { name: 'Ana\u0000', document: '11111111111' })).toEqual({
      fields: [
        { field: 'name', message: 'name must be 1 to 140 characters' },
        { field: 'document', message: 'document must be a valid CPF or CNPJ' },
      ],
    });
  });

  it.each([
    ['25,90', 2590],
    ['25,9', 2590],
    ['25.90', 2590],
    ['25.9', 2590],
    ['30', 3000],
    ['1.234', 123400],
    ['1.234,56', 123456],
    ['R$ 10,00', 1000],
    ['  r$10 ', 1000],
    [12.5, 1250],
  ])('reads the amount %p a payer typed as %p centavos', (typed, cents) => {
    expect(payerAmountCents(typed)).toBe(cents);
  });

  it.each([['0'], ['0,00'], ['-5'], ['1,234.56'], ['12,345'], ['12.345,6789'], ['abc'], [''], ['1e3'], [0], [-1], [1.234], [Number.NaN], [undefined]])(
    'refuses the amount %p',
    (typed) => {
      expect(payerAmountCents(typed)).toBeUndefined();
    },
  );
});

describe('the wait asked of an address at its allowance', () => {
  it('lasts until its oldest held open leaves the hour, at least a second', () => {
    expect(retryAfterSeconds(new Date(NOW.getTime() - OPEN_WINDOW_MS + 90_500), NOW)).toBe(91);
    expect(retryAfterSeconds(new Date(NOW.getTime() - OPEN_WINDOW_MS), NOW)).toBe(1);
    expect(retryAfterSeconds(NOW, NOW)).toBe(3600);
  });
});
