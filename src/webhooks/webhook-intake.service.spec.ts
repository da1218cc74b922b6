import { intakeResult } from './webhook-intake.service';

describe('intakeResult (the data of a webhook answer)', () => {
  const recorded = { kind: 'recorded' as const, eventId: 'evt_1', paymentId: 'pay_1', note: null };

  it('says duplicate and nothing else for an event seen before', () => {
    expect(intakeResult({ kind: 'duplicate' })).toEqual({ received: true, duplicate: true });
  });

  it('says matched:false for an unknown payment', () => {
    expect(intakeResult({ ...recorded, paymentId: null, outcome: 'unmatched', status: null, forward: 'none' })).toEqual({
      received: true,
      duplicate: false,
      matched: false,
      event_id: 'evt_1',
    });
  });

  it('says why a matched event was not applied', () => {
    expect(intakeResult({ ...recorded, outcome: 'amount_mismatch', status: 'pending', forward: 'none' })).toMatchObject({
      matched: true,
      applied: false,
      reason: 'amount_mismatch',
      status: 'pending',
    });
    expect(intakeResult({ ...recorded, outcome: 'ignored', status: 'paid', forward: 'none' })).toMatchObject({ applied: false, reason: 'transition_not_allowed' });
  });

  it('reports an applied event with its forward and no reason', () => {
    const data = intakeResult({ ...recorded, outcome: 'applied', status: 'paid', forward: 'queued' });
    expect(data).toEqual({ received: true, duplicate: false, matched: true, applied: true, status: 'paid', forward: 'queued', event_id: 'evt_1', payment_id: 'pay_1' });
  });
});
