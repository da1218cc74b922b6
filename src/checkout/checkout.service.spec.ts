import { newCheckoutToken, newId } from '../common/ids';
import { isCheckoutToken, paymentPageState, recurrencePageState, returnHref } from './checkout.service';

describe('checkout pages: tokens, states and the way back', () => {
  it('takes only base62 tokens of 20 to 64 characters: never an id, nothing with other characters', () => {
    expect(isCheckoutToken(newCheckoutToken())).toBe(true);
    expect(isCheckoutToken('a'.repeat(64))).toBe(true);
    for (const token of [newId('pay'), newId('rec'), 'a'.repeat(19), 'a'.repeat(65), `${newCheckoutToken()}\u0000`, '../../admin', '', 42])
      expect(isCheckoutToken(token)).toBe(false);
  });

  it('shows a partly refunded payment as paid and an active or ended recurrence as authorized', () => {
    expect(paymentPageState('partially_refunded')).toBe('paid');
    expect(paymentPageState('refunded')).toBe('refunded');
    expect(recurrencePageState('pending_authorization')).toBe('pending');
    expect(recurrencePageState('ended')).toBe('authorized');
    expect(recurrencePageState('rejected')).toBe('rejected');
  });

  it('sends the payer back to the returnUrl with payment_id, keeping its own query, and only to http(s)', () => {
    expect(returnHref('https://shop.example.com/done?order=7#top', 'pay_1')).toBe('https://shop.example.com/done?order=7&payment_id=pay_1#top');
    expect(returnHref('http://localhost:3000/back?payment_id=forged', 'pay_1')).toBe('http://localhost:3000/back?payment_id=pay_1');
    expect(returnHref(null, 'pay_1')).toBeNull();
    expect(returnHref('javascript:alert(1)', 'pay_1')).toBeNull();
    expect(returnHref('not a url', 'pay_1')).toBeNull();
  });
});
