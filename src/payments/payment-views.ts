import { Injectable } from '@nestjs/common';
import { BRAZIL_CALENDAR } from '../common/calendar/brazil-calendar';
import { AppConfig } from '../config/app-config';
import { Clock } from '../domain/clock';
import { amountDueCents } from '../domain/due-charge';
import { brasiliaDate } from '../domain/recurrence';
import type { Payment } from './payment.entity';
import { toPaymentView, type PaymentView } from './payment.view';

/**
 * Payments as the API shows them: with a due-date charge's `amountDue` for today in Brasília (a
 * read answers it fresh each day, docs/due-charges.md, so it is never stored) and the URL of the
 * payment's checkout page under PUBLIC_BASE_URL.
 */
@Injectable()
export class PaymentViews {
  constructor(
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  view(payment: Payment): PaymentView {
    return toPaymentView(payment, this.amountDueToday(payment), this.config.publicBaseUrl);
  }

  /** What the payer owes paying today; null for an immediate charge. */
  amountDueToday(payment: Pick<Payment, 'amountCents' | 'due'>): number | null {
    if (!payment.due) return null;
    return amountDueCents(payment.amountCents, payment.due, brasiliaDate(this.clock.now()), BRAZIL_CALENDAR);
  }
}
