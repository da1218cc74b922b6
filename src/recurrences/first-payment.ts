import { AppError, type FieldError } from '../common/errors/app-error';
import { nameProvider } from '../common/errors/answer-provider';
import { ErrorCode } from '../common/errors/error-codes';
import type { DueTerms } from '../domain/due-charge';
import { hasFirstPayment, type Journey } from '../domain/recurrence';
import { dueTermsOf } from '../payments/due/due-terms';
import { supports } from '../providers/capabilities';
import type { ActingAccount } from '../providers/provider-accounts/account-resolver';
import type { FirstPaymentDto } from './dto/create-recurrence.dto';

/*
 * The first payment of the composite-QR journeys (docs/recurrences.md, Which journey): the payer's
 * one scan authorizes the recurrence and pays it. `qr_with_first_payment` (JORNADA_3) pays an
 * immediate charge; `qr_with_due_payment` (JORNADA_4) a due-date charge, so the first payment is an
 * ordinary payment with `due` (its `amountDue`, PATCH and expiry as for any due-date charge).
 */

/**
 * Pushes onto `problems` what is wrong with the body's `firstPayment` for `journey`: it is required
 * for, and only for, the composite-QR journeys, and its `due` for, and only for,
 * `qr_with_due_payment`, checked with the due-date charges' own rules (`today` in Brasília), each
 * problem named under `firstPayment.`. Answers the due-date terms to make the charge with, or null.
 */
export function checkFirstPayment(journey: Journey, firstPayment: FirstPaymentDto | undefined, amountCents: number | null, today: string, problems: FieldError[]): DueTerms | null {
  if (!hasFirstPayment(journey)) {
    if (firstPayment) problems.push({ field: 'firstPayment', message: 'firstPayment is only for journeys "qr_with_first_payment" and "qr_with_due_payment"' });
    return null;
  }
  if (!firstPayment) {
    problems.push({ field: 'firstPayment', message: `firstPayment is required for journey "${journey}"` });
    return null;
  }
  if (journey === 'qr_with_first_payment') {
    if (firstPayment.due) problems.push({ field: 'firstPayment.due', message: 'firstPayment.due is only for journey "qr_with_due_payment"' });
    return null;
  }
  if (!firstPayment.due) {
    problems.push({ field: 'firstPayment.due', message: 'firstPayment.due is required for journey "qr_with_due_payment"' });
    return null;
  }
  if (amountCents === null) return null;
  try {
    return dueTermsOf(firstPayment.due, amountCents, today, 'firstPayment.');
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== ErrorCode.VALIDATION_ERROR) throw error;
    problems.push(...((error.details?.fields as FieldError[] | undefined) ?? []));
    return null;
  }
}

/**
 * A `qr_with_due_payment` recurrence's account must take due-date charges as well: the recurrence
 * lives at the first account that offers Pix Automático (no routing), so one without them is 422
 * naming `journey` and the provider.
 */
export function assertTakesDueCharges(acting: Pick<ActingAccount, 'adapter' | 'provider'>): void {
  if (supports(acting.adapter, 'dueCharges')) return;
  throw nameProvider(
    new AppError(ErrorCode.VALIDATION_ERROR, {
      status: 422,
      message: "The merchant's account for recurrences takes no due-date charges.",
      details: {
        fields: [
          {
            field: 'journey',
            message: `The provider ${acting.provider}, where the merchant's recurrences are made, offers no due-date charges through this gateway: journey "qr_with_due_payment" needs them.`,
          },
        ],
      },
    }),
    acting.provider,
  );
}
