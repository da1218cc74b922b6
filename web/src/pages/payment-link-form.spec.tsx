import { paymentLink } from '../../test/factories';
import { ApiError } from '../api';
import { formatDate } from '../format';
import { apiLinkErrors, closedReason, emptyLink, linkAmount, linkBody, linkCounts, validateLink, type LinkFormValues } from './payment-link-form';

const NOW = new Date('2026-06-01T12:00:00');
const fixed: LinkFormValues = { ...emptyLink('mer_ana'), title: 'Camiseta azul', amount: '59,90' };
const range: LinkFormValues = { ...fixed, pricing: 'range', amount: '', min: '10', max: '500,00' };

describe('validateLink', () => {
  it('accepts a fixed amount, or a range, with nothing else', () => {
    expect(validateLink(fixed, NOW)).toEqual({});
    expect(validateLink(range, NOW)).toEqual({});
  });

  it('asks for the merchant and a title of at most 140 characters', () => {
    expect(validateLink({ ...fixed, merchant_id: '', title: '  ' }, NOW)).toEqual({
      merchant_id: 'Choose the merchant whose link it is.',
      title: 'Give the link a title: it heads its page and names each payment.',
    });
    expect(validateLink({ ...fixed, title: 'x'.repeat(141) }, NOW).title).toBe('The title can have at most 140 characters.');
    expect(validateLink({ ...fixed, description: 'x'.repeat(141) }, NOW).description).toBe('The description can have at most 140 characters.');
  });

  it('wants an amount in reais above zero, and a range whose most is above its least', () => {
    expect(validateLink({ ...fixed, amount: '' }, NOW).amount).toBe('Enter the amount.');
    expect(validateLink({ ...fixed, amount: '0' }, NOW).amount).toBe('Enter the amount in reais, such as 59,90.');
    expect(validateLink({ ...fixed, amount: '5,999' }, NOW).amount).toBe('Enter the amount in reais, such as 59,90.');
    expect(validateLink({ ...range, min: 'ten' }, NOW)).toEqual({ min: 'Enter the least a payer may pay in reais, such as 59,90.' });
    expect(validateLink({ ...range, min: '500', max: '500,00' }, NOW)).toEqual({ max: 'The most must be more than the least.' });
    // The range's fields are checked, not the fixed amount left behind.
    expect(validateLink({ ...range, amount: 'nonsense' }, NOW)).toEqual({});
  });

  it('takes an expiry in the future, a limit from 1 to 100,000 and an https return URL (http only on localhost)', () => {
    expect(validateLink({ ...fixed, expires_at: '2026-06-01T11:59' }, NOW).expires_at).toBe('Choose a time in the future, or leave it empty for a link that never expires.');
    expect(validateLink({ ...fixed, expires_at: '2026-06-30T23:59' }, NOW)).toEqual({});
    for (const max_payments of ['0', '1.5', '100001', 'ten'])
      expect(validateLink({ ...fixed, max_payments }, NOW).max_payments).toBe('Enter a whole number from 1 to 100,000, or leave it empty for no limit.');
    expect(validateLink({ ...fixed, max_payments: '100000' }, NOW)).toEqual({});
    for (const return_url of ['http://shop.example.com/thanks', 'shop.example.com', 'ftp://shop.example.com/'])
      expect(validateLink({ ...fixed, return_url }, NOW).return_url).toBe('Enter a full https:// address (http:// only on localhost), or leave it empty.');
    for (const return_url of ['https://shop.example.com/thanks', 'http://localhost:5173/done', 'http://127.0.0.1/x'])
      expect(validateLink({ ...fixed, return_url }, NOW)).toEqual({});
  });
});

describe('linkBody', () => {
  it('sends only what was given', () => {
    expect(linkBody(fixed)).toEqual({ title: 'Camiseta azul', amount: 59.9 });
    expect(linkBody({ ...range, description: '' })).toEqual({ title: 'Camiseta azul', amountRange: { min: 10, max: 500 } });
  });

  it('sends every term set: the expiry as an instant, the limit as a number, e-mail collection, the return URL', () => {
    const values = {
      ...fixed,
      description: ' Tamanhos P, M e G ',
      expires_at: '2026-06-30T23:59',
      max_payments: '50',
      collect_email: true,
      return_url: 'https://shop.example.com/thanks ',
    };
    expect(linkBody(values)).toEqual({
      title: 'Camiseta azul',
      description: 'Tamanhos P, M e G',
      amount: 59.9,
      expiresAt: new Date('2026-06-30T23:59').toISOString(),
      maxPayments: 50,
      collect: { email: true },
      returnUrl: 'https://shop.example.com/thanks',
    });
  });
});

describe('apiLinkErrors', () => {
  it("places the API's problems beside the form's fields", () => {
    const error = new ApiError(400, 'VALIDATION_ERROR', 'Please check: …', [
      { field: 'amountRange.max', message: 'amountRange.max must be at most 1000000.00' },
      { field: 'expiresAt', message: 'expiresAt must be in the future' },
      { field: 'returnUrl', message: 'returnUrl must use https (http only on localhost)' },
    ]);
    expect(apiLinkErrors(error)).toEqual({
      max: 'amountRange.max must be at most 1000000.00',
      expires_at: 'expiresAt must be in the future',
      return_url: 'returnUrl must use https (http only on localhost)',
    });
    expect(apiLinkErrors(new Error('boom'))).toEqual({});
  });
});

describe('what a link says of itself', () => {
  it('tells its amount, fixed or a range', () => {
    expect(linkAmount(paymentLink({ amount: 59.9 }))).toBe('R$\u00a059,90');
    const ranged = paymentLink({ amount: null, amountRange: { min: 10, max: 500 } });
    expect(linkAmount(ranged)).toBe('R$\u00a010,00 – R$\u00a0500,00, the payer chooses');
    expect(linkAmount(ranged, { short: true })).toBe('R$\u00a010,00 – R$\u00a0500,00');
  });

  it('counts what it sold, with its limit when it has one', () => {
    expect(linkCounts(paymentLink({ paidCount: 2, paymentsCount: 3 }))).toBe('2 paid · 3 opened');
    expect(linkCounts(paymentLink({ paidCount: 2, paymentsCount: 3, maxPayments: 50 }))).toBe('2 paid · 3 opened · at most 50');
  });

  it('says why it takes no payment, and nothing while it is open', () => {
    expect(closedReason(paymentLink())).toBeUndefined();
    expect(closedReason(paymentLink({ state: 'inactive', active: false }))).toMatch(/^This link is deactivated/);
    expect(closedReason(paymentLink({ state: 'inactive', active: true }))).toMatch(/^Its merchant is inactive/);
    expect(closedReason(paymentLink({ state: 'expired', expiresAt: '2024-05-03T00:00:00.000Z' }))).toBe(
      `This link expired ${formatDate('2024-05-03T00:00:00.000Z')}: its page tells payers so.`,
    );
    expect(closedReason(paymentLink({ state: 'used_up', maxPayments: 2 }))).toMatch(/^This link is used up: its paid and pending payments reach its limit of 2\./);
  });
});
