import { Injectable } from '@nestjs/common';
import type { AuthenticatedMerchant } from '../auth/merchant-key-resolver';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { decodeCursor, type Page, toPage } from '../common/http/cursor';
import { PreparedResponse, successEnvelope } from '../common/http/envelope';
import { hasIdShape, newId, randomBase62 } from '../common/ids';
import { AppConfig } from '../config/app-config';
import { Clock } from '../domain/clock';
import { IdempotencyService } from '../idempotency/idempotency.service';
import { idempotentCall, type IdempotentRequest } from '../idempotency/idempotent-request';
import { MerchantRepository } from '../merchants/merchant.repository';
import { PaymentRepository } from '../payments/payment.repository';
import { PaymentViews } from '../payments/payment-views';
import type { CreatePaymentLinkDto } from './dto/create-payment-link.dto';
import type { ListAdminPaymentLinksQuery, ListPaymentLinksQuery } from './dto/list-payment-links.query';
import { PaymentLink } from './payment-link.entity';
import { type CountedLink, PaymentLinkRepository } from './payment-link.repository';
import { linkState, linkTermsOf, OPEN_HOLD_MS } from './payment-link-rules';
import { type AdminPaymentLinkDetailView, type AdminPaymentLinkView, LATEST_PAYMENTS, type PaymentLinkView, toPaymentLinkView } from './payment-link.view';

/** Characters of a link's slug: 20 base62 characters are about 119 random bits, none of them the id's. */
export const SLUG_LENGTH = 20;
const SLUG_SHAPE = /^[A-Za-z0-9]{20}$/;

export function isSlugShaped(value: string): boolean {
  return SLUG_SHAPE.test(value);
}

/** A link's id from the id its create's Idempotency-Key reserves (`pay_…`): a retry of a create that crashed stores the same link. */
export function linkIdOfClaim(reservedPaymentId: string): string {
  return `plink_${reservedPaymentId.slice('pay_'.length)}`;
}

const NOT_FOUND = 'Payment link not found.';

/**
 * Payment links for merchants and the operator (docs/api.md, Payment links): made, read, listed and
 * deactivated. What a payer does with one is PaymentLinkPagesService's.
 */
@Injectable()
export class PaymentLinksService {
  constructor(
    private readonly links: PaymentLinkRepository,
    private readonly idempotency: IdempotencyService,
    private readonly merchants: MerchantRepository,
    private readonly payments: PaymentRepository,
    private readonly paymentViews: PaymentViews,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * A merchant's new link, exactly once per Idempotency-Key: its terms checked once the key is
   * claimed (an expiry judged against now, so a replay answers what was answered), stored under an
   * id the claim reserves.
   */
  async create(merchant: AuthenticatedMerchant, dto: CreatePaymentLinkDto, request: IdempotentRequest): Promise<PreparedResponse> {
    const call = idempotentCall(merchant.id, request);
    const provider = merchant.provider ?? this.config.defaultProvider;
    return this.idempotency.run(
      call,
      async (claim) => {
        const view = await this.make(merchant.id, linkIdOfClaim(claim.paymentId), dto);
        const body = JSON.stringify(successEnvelope(view, request.requestId, provider));
        return { complete: new PreparedResponse(201, body, { 'content-type': 'application/json; charset=utf-8' }) };
      },
      { provider },
    );
  }

  /** The operator's new link for a merchant (the dashboard): an unknown merchant is 404, an inactive one 409. */
  async createForMerchant(merchantId: string, dto: CreatePaymentLinkDto): Promise<AdminPaymentLinkView> {
    const found = await this.merchants.findSummary(merchantId);
    if (!found) throw AppError.notFound('Merchant not found.');
    if (!found.merchant.active) throw new AppError(ErrorCode.CONFLICT, { message: `The merchant ${merchantId} is inactive: its links would take no payment.` });
    return { ...(await this.make(merchantId, newId('plink'), dto)), merchant_id: merchantId };
  }

  private async make(merchantId: string, id: string, dto: CreatePaymentLinkDto): Promise<PaymentLinkView> {
    const now = this.clock.now();
    const terms = linkTermsOf(dto, this.config.maxAmountCents, now);
    if ('problems' in terms) throw AppError.validation(terms.problems);
    const link = Object.assign(new PaymentLink(), {
      id,
      merchantId,
      slug: randomBase62(SLUG_LENGTH),
      title: dto.title,
      description: dto.description ?? null,
      ...terms.amount,
      expiresAt: terms.expiresAt,
      maxPayments: dto.maxPayments ?? null,
      collectEmail: dto.collect?.email ?? false,
      returnUrl: dto.returnUrl ?? null,
      active: true,
      deactivatedAt: null,
      createdAt: now,
      updatedAt: now,
    } satisfies PaymentLink);
    if (await this.links.insertUnlessExists(link)) return this.view({ link, counts: { payments: 0, paid: 0, pending: 0, opening: 0 }, merchantActive: true });
    // A retry of a create whose link was stored before its answer was: that link, as it stands.
    const stored = await this.links.findCounted(id, merchantId, this.holdSince());
    if (!stored) throw new AppError(ErrorCode.IDEMPOTENCY_IN_PROGRESS);
    return this.view(stored);
  }

  /** The merchant's own link; anyone else's, or an id of the wrong shape, is NOT_FOUND. */
  async get(merchantId: string, id: string): Promise<PaymentLinkView> {
    return this.view(await this.counted(id, merchantId));
  }

  /** The merchant's own links, newest first, one keyset page at a time. */
  list(merchantId: string, query: ListPaymentLinksQuery): Promise<Page<PaymentLinkView>> {
    return this.page({ ...query, merchant_id: merchantId }, (counted) => this.view(counted));
  }

  /** Deactivates the merchant's link for good; one already inactive answers as it is. */
  async deactivate(merchantId: string, id: string): Promise<PaymentLinkView> {
    if (!hasIdShape(id, 'plink')) throw AppError.notFound(NOT_FOUND);
    await this.links.deactivate(id, merchantId, this.clock.now());
    return this.get(merchantId, id);
  }

  /** Every merchant's links (or one's), newest first. */
  adminList(query: ListAdminPaymentLinksQuery): Promise<Page<AdminPaymentLinkView>> {
    return this.page(query, (counted) => this.adminView(counted));
  }

  /** One link with its latest payments. */
  async adminDetail(id: string): Promise<AdminPaymentLinkDetailView> {
    const counted = await this.counted(id, undefined);
    const latest = await this.payments.listPage({ merchantId: counted.link.merchantId, paymentLinkId: id, limit: LATEST_PAYMENTS });
    return { ...this.adminView(counted), payments: latest.slice(0, LATEST_PAYMENTS).map(({ payment }) => this.paymentViews.view(payment)) };
  }

  async adminDeactivate(id: string): Promise<AdminPaymentLinkView> {
    if (!hasIdShape(id, 'plink')) throw AppError.notFound(NOT_FOUND);
    await this.links.deactivate(id, undefined, this.clock.now());
    return this.adminView(await this.counted(id, undefined));
  }

  private async counted(id: string, merchantId: string | undefined): Promise<CountedLink> {
    const counted = hasIdShape(id, 'plink') ? await this.links.findCounted(id, merchantId, this.holdSince()) : null;
    if (!counted) throw AppError.notFound(NOT_FOUND);
    return counted;
  }

  private async page<T>(query: ListAdminPaymentLinksQuery, view: (counted: CountedLink) => T): Promise<Page<T>> {
    const limit = query.limit ?? 20;
    const rows = await this.links.listPage(
      {
        merchantId: query.merchant_id,
        active: query.active === undefined ? undefined : query.active === 'true',
        after: query.cursor ? decodeCursor(query.cursor) : undefined,
        limit,
      },
      this.holdSince(),
    );
    return toPage(rows, limit, view);
  }

  private view({ link, counts, merchantActive }: CountedLink): PaymentLinkView {
    return toPaymentLinkView(link, counts, linkState(link, counts, merchantActive, this.clock.now()), this.config.publicBaseUrl);
  }

  private adminView(counted: CountedLink): AdminPaymentLinkView {
    return { ...this.view(counted), merchant_id: counted.link.merchantId };
  }

  private holdSince(): Date {
    return new Date(this.clock.now().getTime() - OPEN_HOLD_MS);
  }
}
