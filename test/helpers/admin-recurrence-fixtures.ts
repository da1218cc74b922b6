import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import type { Recurrence } from '../../src/recurrences/recurrence.entity';
import type { RecurringCharge } from '../../src/recurrences/recurring-charge.entity';
import type { Factories } from './factories';

/**
 * The operator's recurrence pages' fixtures, for the medium spec of the service and the e2e spec of
 * its routes alike: recurrences as the merchant API stores them, created an hour ago and one second
 * apart (so a list's order is known), and a scheduled charge due on a recurrence's first day.
 */
export function adminRecurrenceFixtures(factories: Pick<Factories, 'newRecurrence' | 'newRecurringCharge'>) {
  const created = Date.now() - 3_600_000;
  let sequence = 0;
  const newRecurrence = (merchantId: string, overrides: Partial<Recurrence> = {}): Promise<Recurrence> => {
    const at = new Date(created + ++sequence * 1000);
    return factories.newRecurrence(merchantId, {
      contractId: 'plan-gold',
      contractDescription: 'Gym membership',
      startDate: addDays(brasiliaDate(new Date()), 3),
      retryPolicy: 'three_in_seven_days',
      createdAt: at,
      updatedAt: at,
      ...overrides,
    });
  };
  const newCharge = (recurrence: Recurrence, overrides: Partial<RecurringCharge> = {}): Promise<RecurringCharge> =>
    factories.newRecurringCharge(recurrence, {
      dueDate: recurrence.startDate,
      description: 'December',
      attempts: [{ date: recurrence.startDate, status: 'scheduled', endToEndId: null, reason: null }],
      ...overrides,
    });
  return { newRecurrence, newCharge };
}
