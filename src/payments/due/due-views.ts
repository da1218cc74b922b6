import { Injectable } from '@nestjs/common';
import { BRAZIL_CALENDAR } from '../../common/calendar/brazil-calendar';
import { Clock } from '../../domain/clock';
import { amountDueCents } from '../../domain/due-charge';
import { brasiliaDate } from '../../domain/recurrence';
import type { Payment } from '../payment.entity';
import { toPaymentView, type PaymentView } from '../payment.view';

/**
 * Payments as the API shows them, with a due-date charge's `amountDue` for today in Brasília: a
 * read answers it fresh each day (docs/due-charges.md), so it is never stored.
 */
@Injectable()
export class DueViews {
  constructor(private readonly clock: Clock) {}

  view(payment: Payment): PaymentView {
    return toPaymentView(payment, this.amountDueToday(payment));
  }

  /** What the payer owes paying today; null for an immediate charge. */
  amountDueToday(payment: Payment): number | null {
    if (!payment.due) return null;
    return amountDueCents(payment.amountCents, payment.due, brasiliaDate(this.clock.now()), BRAZIL_CALENDAR);
  }
}
