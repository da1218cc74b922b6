import { createHmac, randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { AppConfig } from '../config/app-config';
import { Clock } from '../domain/clock';
import { centsToReais } from '../domain/money';
import type { IdempotentRequest } from '../idempotency/idempotent-request';
import { requestFingerprint } from '../idempotency/request-fingerprint';
import type { CreatePaymentDto } from '../payments/dto/create-payment.dto';
import { PaymentRepository } from '../payments/payment.repository';
import { PaymentsService } from '../payments/payments.service';
import { PaymentLinkOpenRepository } from './payment-link-open.repository';
import { type LinkWithMerchant, PaymentLinkRepository } from './payment-link.repository';
import {
  checkPayerForm,
  type CheckedPayer,
  linkState,
  MAX_OPENS_PER_ADDRESS,
  OPEN_HOLD_MS,
  OPEN_WINDOW_MS,
  type PayerForm,
  type PaymentLinkState,
  retryAfterSeconds,
} from './payment-link-rules';
import { isSlugShaped } from './payment-links.service';

/** What a link's public page shows (`GET /l/<slug>`). Money in integer centavos. */
export interface PaymentLinkPage {
  linkId: string;
  merchantId: string;
  /** The merchant's `display_name`, else its name: the only merchant data a page may show. */
  merchantDisplayName: string;
  title: string;
  description: string | null;
  /** The fixed amount; null when the payer types one within `amountRangeCents`. */
  amountCents: number | null;
  /** The bounds (both included) of the amount the payer types; null for a fixed amount. */
  amountRangeCents: { min: number; max: number } | null;
  /** Whether the form asks the payer's e-mail (then required). */
  collectEmail: boolean;
  expiresAt: Date | null;
  /** `open`: show the form; otherwise the page that says the link is deactivated, expired or used up. */
  state: PaymentLinkState;
}

/** What a payer's submit of a link's form came to (`POST /l/<slug>`). */
export type OpenPaymentResult =
  /** The payment was made: send the payer to `/pay/<checkoutToken>`. */
  | { kind: 'created'; checkoutToken: string; paymentId: string }
  /** The form is wrong: show it again with each field's message (fields `name`, `document`, `email`, `amount`; English, to be worded by the page). */
  | { kind: 'invalid'; fields: { field: string; message: string }[] }
  /** The link takes no payment now: the same page as `findBySlug`'s state. */
  | { kind: 'unavailable'; reason: 'inactive' | 'expired' | 'used_up' }
  /** This address holds ten pending payments of the link opened within the hour: ask it to wait (a 429 page with Retry-After). */
  | { kind: 'wait'; retryAfterSeconds: number }
  /** The PSP or the merchant's route refused or failed the payment: a page saying to try again later (never a 5xx). */
  | { kind: 'failed'; message: string }
  /** No link has this slug (or it is not shaped like one): the one 404 page. */
  | { kind: 'not_found' };

/** The payer's answers as the form sent them; `amount` matters only for a link with a range (pt-BR text such as `25,90` is read). */
export type OpenPaymentForm = PayerForm;

/**
 * The payer's side of payment links, for the public pages (src/checkout/): what a link's page shows,
 * and the payment a submitted form opens (docs/api.md, Payment links).
 *
 * For the pages: call `findBySlug(slug)` for `GET /l/:slug` (null: the 404 page; `state` other than
 * `open`: the page saying so) and `openPayment(slug, form, req.ip, requestId)` for its POST. Nothing
 * here throws for anything a payer can do: every outcome is a `kind`. Only an outage (the database
 * unreachable: AppError SERVICE_UNAVAILABLE) or a bug throws, which the page answers as any error.
 *
 * Rules, each enforced under the link's row lock so that they hold across processes:
 * - Used up: its paid payments (refunded ones included) plus its pending ones plus the opens whose
 *   payment is still being made reach `maxPayments`. The last place is never sold twice; a pending
 *   payment that expires or is cancelled gives its place back.
 * - One address holds at most 10 pending payments of one link opened within the last hour (an open
 *   whose payment is being made counts; a paid, expired or cancelled one does not); the 11th is
 *   `wait`, for as long as the oldest of the ten takes to leave the hour. The address is kept only
 *   as an HMAC under SECRETS_KEY.
 */
@Injectable()
export class PaymentLinkPagesService {
  private readonly logger = new Logger('PaymentLinks');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly links: PaymentLinkRepository,
    private readonly opens: PaymentLinkOpenRepository,
    private readonly payments: PaymentsService,
    private readonly paymentRows: PaymentRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** What the link's page shows, or null for a slug no link has (or not shaped like one). */
  async findBySlug(slug: string): Promise<PaymentLinkPage | null> {
    if (!isSlugShaped(slug)) return null;
    const found = await this.links.findBySlug(slug);
    if (!found) return null;
    const now = this.clock.now();
    const counts = found.link.maxPayments === null ? NO_COUNTS : await this.links.countsOf(this.dataSource.manager, found.link.id, holdSince(now));
    return pageOf(found, linkState(found.link, counts, found.merchant.active, now));
  }

  /**
   * A payer's submitted form: checked, then a place held (the link open, not used up, the address
   * within its allowance), then the payment made for the merchant through the payments core, routed
   * as any create, with `paymentLinkId`, the external id `<link id>-<n>`, the link's title as its
   * description and its `returnUrl`. `clientAddress` is the payer's address as throttling sees it
   * (`req.ip`, which TRUST_PROXY governs); `requestId` is the page request's, kept with the payment.
   */
  async openPayment(slug: string, form: OpenPaymentForm, clientAddress: string, requestId: string): Promise<OpenPaymentResult> {
    if (!isSlugShaped(slug)) return { kind: 'not_found' };
    const found = await this.links.findBySlug(slug);
    if (!found) return { kind: 'not_found' };
    // Closed without a count (inactive, expired) is answered before the form; used up is decided under the lock.
    const closed = linkState(found.link, NO_COUNTS, found.merchant.active, this.clock.now());
    if (closed !== 'open') return { kind: 'unavailable', reason: closed };
    const checked = checkPayerForm(found.link, form);
    if ('fields' in checked) return { kind: 'invalid', fields: checked.fields };

    const held = await this.holdPlace(slug, this.addressHash(clientAddress));
    if (held.kind !== 'held') return held;
    try {
      const checkoutToken = await this.makePayment(held.found, checked.payer, held.open, requestId);
      return { kind: 'created', ...checkoutToken };
    } catch (error) {
      await this.opens.markFailed(held.found.link.id, held.open.seq, this.clock.now()).catch((markError: unknown) => {
        // The open then holds its place until OPEN_HOLD_MS has passed.
        this.logger.warn({ err: markError, payment_link_id: held.found.link.id }, 'An open whose payment failed could not be marked failed');
      });
      if (error instanceof AppError && error.code !== ErrorCode.SERVICE_UNAVAILABLE && error.code !== ErrorCode.INTERNAL_ERROR) {
        this.logger.warn({ payment_link_id: held.found.link.id, code: error.code }, `A payment opened from link ${held.found.link.id} could not be made: ${error.message}`);
        return { kind: 'failed', message: 'The payment could not be created right now. Please try again in a few minutes.' };
      }
      throw error;
    }
  }

  /**
   * Under the link's lock: its state with its counts now, then the address's allowance, then the
   * open written (its place held) — or why not.
   */
  private async holdPlace(
    slug: string,
    addressHash: string,
  ): Promise<{ kind: 'held'; found: LinkWithMerchant; open: { seq: number; externalId: string } } | Extract<OpenPaymentResult, { kind: 'unavailable' | 'wait' | 'not_found' }>> {
    return this.dataSource.transaction(async (tx) => {
      const found = await this.links.lockBySlug(tx, slug);
      if (!found) return { kind: 'not_found' as const };
      const now = this.clock.now();
      const counts = await this.links.countsOf(tx, found.link.id, holdSince(now));
      const state = linkState(found.link, counts, found.merchant.active, now);
      if (state !== 'open') return { kind: 'unavailable' as const, reason: state };
      const mine = await this.opens.heldByAddress(tx, found.link.id, addressHash, new Date(now.getTime() - OPEN_WINDOW_MS), holdSince(now));
      if (mine.held >= MAX_OPENS_PER_ADDRESS) return { kind: 'wait' as const, retryAfterSeconds: retryAfterSeconds(mine.oldest ?? now, now) };
      const open = await this.opens.insertNext(tx, { linkId: found.link.id, merchantId: found.link.merchantId, addressHash, createdAt: now });
      return { kind: 'held' as const, found, open };
    });
  }

  /** The payment, made through the payments core under a key of its own (`payment-link:<link id>:<n>`), and its checkout token. */
  private async makePayment(
    { link, merchant }: LinkWithMerchant,
    payer: CheckedPayer,
    open: { seq: number; externalId: string },
    requestId: string,
  ): Promise<{ checkoutToken: string; paymentId: string }> {
    const body: CreatePaymentDto = {
      amount: centsToReais(payer.amountCents),
      currency: 'BRL',
      recipientDocument: payer.document,
      recipientName: payer.name,
      description: link.title,
      externalId: open.externalId,
      ...(payer.email === null ? {} : { recipientEmail: payer.email }),
      ...(link.returnUrl === null ? {} : { returnUrl: link.returnUrl }),
    };
    // Never served: the key and path are the open's, so no merchant request can meet them.
    const path = `/v1/payment-links/${link.id}/payments/${open.seq}`;
    const request: IdempotentRequest = {
      key: `payment-link:${link.id}:${open.seq}`,
      path,
      fingerprint: requestFingerprint('POST', path, body),
      requestId: requestId || randomUUID(),
    };
    const answer = await this.payments.create({ id: merchant.id, name: merchant.name, provider: merchant.provider, apiKeyId: 'payment-link' }, body, request, {
      paymentLinkId: link.id,
    });
    const paymentId = (JSON.parse(String(answer.body)) as { data: { id: string } }).data.id;
    const payment = await this.paymentRows.findForMerchant(merchant.id, paymentId);
    if (!payment) throw new Error(`Payment ${paymentId} of link ${link.id} vanished after its create`);
    return { checkoutToken: payment.checkoutToken, paymentId };
  }

  /** The opener's address as stored: an HMAC under SECRETS_KEY, so the table never holds an address. */
  private addressHash(address: string): string {
    return createHmac('sha256', this.config.secretsKey.reveal()).update(`pix-gateway/payment-link-opener\n${address}`).digest('hex');
  }
}

const NO_COUNTS = { payments: 0, paid: 0, pending: 0, opening: 0 };

function holdSince(now: Date): Date {
  return new Date(now.getTime() - OPEN_HOLD_MS);
}

function pageOf({ link, merchant }: LinkWithMerchant, state: PaymentLinkState): PaymentLinkPage {
  return {
    linkId: link.id,
    merchantId: merchant.id,
    merchantDisplayName: merchant.displayName,
    title: link.title,
    description: link.description,
    amountCents: link.amountCents,
    amountRangeCents: link.minAmountCents === null || link.maxAmountCents === null ? null : { min: link.minAmountCents, max: link.maxAmountCents },
    collectEmail: link.collectEmail,
    expiresAt: link.expiresAt,
    state,
  };
}
