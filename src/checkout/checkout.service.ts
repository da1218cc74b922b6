import { Injectable } from '@nestjs/common';
import { isoOrNull } from '../common/dates';
import { centsToReais } from '../domain/money';
import type { PaymentStatus } from '../domain/payment-status';
import type { RecurrenceStatus } from '../domain/recurrence';
import type { Payment } from '../payments/payment.entity';
import { PaymentRepository, type CheckoutPayment, type CheckoutPaymentState } from '../payments/payment.repository';
import { PaymentViews } from '../payments/payment-views';
import { renderQrPngDataUrl } from '../payments/qr-png';
import type { Recurrence } from '../recurrences/recurrence.entity';
import { RecurrenceRepository, type CheckoutRecurrence } from '../recurrences/recurrence.repository';
import type { CheckoutPage, LiveStatus, PageBrand, PaymentPage, RecurrencePage } from './checkout-page';
import { usableBrandColor } from './render/brand';
import { maskName } from './render/format';
import type { PageState } from './render/i18n';
import { lastPayableDay } from './render/pages';

/**
 * What a checkout token may look like: base62, the 24 characters of newCheckoutToken or the 64 the
 * migration gave rows that existed before. Anything else opens nothing and reaches no query.
 */
const TOKEN_SHAPE = /^[A-Za-z0-9]{20,64}$/;

export function isCheckoutToken(token: unknown): token is string {
  return typeof token === 'string' && TOKEN_SHAPE.test(token);
}

/** A payment's status as its page shows it: a partly refunded payment was paid all the same. */
export function paymentPageState(status: PaymentStatus): PageState {
  return status === 'partially_refunded' ? 'paid' : status;
}

/** A recurrence's status as its page shows it: once active (or later ended), it was authorized. */
export function recurrencePageState(status: RecurrenceStatus): PageState {
  switch (status) {
    case 'pending_authorization':
      return 'pending';
    case 'active':
    case 'ended':
      return 'authorized';
    default:
      return status;
  }
}

/** Where "Voltar à loja" goes: the create's returnUrl with `payment_id`; null when it has none (or one that is not http(s)). */
export function returnHref(returnUrl: string | null, paymentId: string): string | null {
  if (!returnUrl) return null;
  let url: URL;
  try {
    url = new URL(returnUrl);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  url.searchParams.set('payment_id', paymentId);
  return url.toString();
}

/**
 * The public pages' reads (docs/checkout.md): a token opens the page of the one payment or
 * recurrence whose unique index holds it, and the page shows what CheckoutPage lists and nothing
 * more. Unknown and malformed tokens are the same null.
 */
@Injectable()
export class CheckoutService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly recurrences: RecurrenceRepository,
    private readonly views: PaymentViews,
  ) {}

  async page(token: string): Promise<CheckoutPage | null> {
    if (!isCheckoutToken(token)) return null;
    const payment = await this.payments.findForCheckout(token);
    if (payment) return this.paymentPage(payment);
    const recurrence = await this.recurrences.findForCheckout(token);
    return recurrence ? this.recurrencePage(recurrence) : null;
  }

  /** What the page of `token` shows live now, or null when the token opens nothing. */
  async status(token: string): Promise<LiveStatus | null> {
    if (!isCheckoutToken(token)) return null;
    return (await this.statuses([token])).get(token) ?? null;
  }

  /** The live state of each page among `tokens` that exists: two indexed reads whatever their number. */
  async statuses(tokens: readonly string[]): Promise<Map<string, LiveStatus>> {
    const found = new Map<string, LiveStatus>();
    if (tokens.length === 0) return found;
    for (const row of await this.payments.checkoutStates(tokens)) found.set(row.checkoutToken, this.paymentStatus(row));
    const rest = tokens.filter((token) => !found.has(token));
    if (rest.length === 0) return found;
    for (const row of await this.recurrences.checkoutStates(rest)) {
      found.set(row.checkoutToken, { status: recurrencePageState(row.status), paidAt: null, amountDue: null, expiresAt: isoOrNull(row.authorizationExpiresAt) });
    }
    return found;
  }

  private paymentStatus(row: CheckoutPaymentState): LiveStatus {
    const due = this.views.amountDueToday(row);
    return { status: paymentPageState(row.status), paidAt: isoOrNull(row.paidAt), amountDue: due === null ? null : centsToReais(due), expiresAt: isoOrNull(row.expiresAt) };
  }

  private paymentPage({ payment, merchantName, brandColor }: CheckoutPayment): PaymentPage {
    const due = this.views.amountDueToday(payment);
    return {
      kind: 'payment',
      token: payment.checkoutToken,
      brand: brand(merchantName, brandColor),
      description: payment.description,
      amountCents: payment.amountCents,
      due: payment.due && due !== null ? { date: payment.due.date, amountDueCents: due, lastPayableDay: lastPayableDay(payment.expiresAt) } : null,
      payerName: maskName(payment.recipientName),
      qrCodePng: payment.pixQrPng,
      copyPaste: payment.pixCopyPaste,
      expiresAt: payment.expiresAt,
      state: paymentPageState(payment.status),
      returnHref: returnHref(payment.returnUrl, payment.id),
    };
  }

  private async recurrencePage({ recurrence, merchantName, brandColor }: CheckoutRecurrence): Promise<RecurrencePage> {
    const state = recurrencePageState(recurrence.status);
    const waiting = state === 'pending';
    return {
      kind: 'recurrence',
      token: recurrence.checkoutToken,
      brand: brand(merchantName, brandColor),
      contractDescription: recurrence.contractDescription,
      amountCents: recurrence.amountCents,
      minimumAmountCents: recurrence.minimumAmountCents,
      frequency: recurrence.frequency,
      startDate: recurrence.startDate,
      endDate: recurrence.endDate,
      payerName: maskName(recurrence.payerName),
      authorization: waiting ? authorizationQr(recurrence) : null,
      firstPaymentCents: waiting && recurrence.firstPaymentId ? await this.firstPaymentCents(recurrence.firstPaymentId) : null,
      expiresAt: recurrence.authorizationExpiresAt,
      state,
    };
  }

  /** What the composite QR's first payment asks today (a due-date one's amount due). */
  private async firstPaymentCents(paymentId: string): Promise<number | null> {
    const payment: Payment | null = await this.payments.findById(paymentId);
    if (!payment) return null;
    return this.views.amountDueToday(payment) ?? payment.amountCents;
  }
}

function brand(merchantName: string, color: string | null): PageBrand {
  return { merchantName, color: usableBrandColor(color) };
}

function authorizationQr(recurrence: Recurrence): RecurrencePage['authorization'] {
  const code = recurrence.authorizationCopyPaste;
  return code ? { qrCodePng: renderQrPngDataUrl(code), copyPaste: code } : null;
}
