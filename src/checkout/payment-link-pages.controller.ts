import { Body, Controller, Get, Param, Post, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../common/errors/app-error';
import { findInputProblems } from '../common/http/input-limits';
import { clientAddress } from '../common/throttle/auth-failures.service';
import { MerchantRepository } from '../merchants/merchant.repository';
import { PaymentLinkPagesService, type PaymentLinkPage } from '../payment-links/payment-link-pages.service';
import { CheckoutAssets } from './checkout-assets';
import type { PageBrand } from './checkout-page';
import { CheckoutLimits } from './checkout-limits';
import { PublicPageErrorFilter } from './public-page.filter';
import { languageOf, sendHtml, sendNotFound, waitPageHtml } from './public-pages';
import { usableBrandColor } from './render/brand';
import { formatMoney } from './render/format';
import { messages, type Lang, type Messages } from './render/i18n';
import { linkFailedHtml, linkFormHtml, linkUnavailableHtml, type LinkForm, type LinkFormErrors, type LinkFormValues } from './render/link-pages';

const FIELDS = ['name', 'document', 'email', 'amount'] as const;

/**
 * A payment link's public page (docs/checkout.md): its form (`GET /l/:slug`), and the payment a
 * submitted form opens (`POST /l/:slug`, a plain form post), after which the payer is sent to the
 * payment's own page (303). Every outcome is a page: the form again with its errors (400), the link
 * deactivated, expired or used up (410), a wait (429), a failure to try again later (503), the one 404.
 */
@ApiExcludeController()
@UseFilters(PublicPageErrorFilter)
@Controller('l')
export class PaymentLinkPagesController {
  constructor(
    private readonly links: PaymentLinkPagesService,
    private readonly merchants: MerchantRepository,
    private readonly limits: CheckoutLimits,
    private readonly assets: CheckoutAssets,
  ) {}

  @Get(':slug')
  async form(@Param('slug') slug: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    await this.limits.take(req, 'page');
    const link = await this.links.findBySlug(slug);
    if (!link) throw AppError.notFound();
    return this.show(req, reply, link);
  }

  @Post(':slug')
  async submit(@Param('slug') slug: string, @Body() body: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    await this.limits.take(req, 'page');
    const lang = languageOf(req);
    const values = formValues(body);
    // What the API refuses at its door (control characters, broken Unicode) is a field error here.
    const unreadable = new Set(findInputProblems(values).map((problem) => problem.field));
    if (unreadable.size > 0) {
      const link = await this.links.findBySlug(slug);
      if (!link) throw AppError.notFound();
      const errors = Object.fromEntries([...unreadable].filter(isField).map((field) => [field, messages(lang).fieldErrors.text])) as LinkFormErrors;
      return this.show(req, reply, link, { values: safeValues(values, unreadable), errors });
    }
    const result = await this.links.openPayment(
      slug,
      { name: values.name ?? '', document: values.document ?? '', email: values.email, amount: values.amount },
      clientAddress(req),
      req.id,
    );
    switch (result.kind) {
      case 'created':
        return reply
          .status(303)
          .headers({ location: `/pay/${result.checkoutToken}`, 'cache-control': 'no-store' })
          .send();
      case 'not_found':
        return sendNotFound(req, reply);
      case 'wait':
        return sendHtml(reply, 429, lang, waitPageHtml(lang, result.retryAfterSeconds), { 'retry-after': String(result.retryAfterSeconds) });
      case 'unavailable':
      case 'invalid':
      case 'failed': {
        const link = await this.links.findBySlug(slug);
        if (!link) throw AppError.notFound();
        if (result.kind === 'unavailable') return this.show(req, reply, { ...link, state: result.reason });
        if (result.kind === 'failed')
          return sendHtml(reply, 503, lang, linkFailedHtml(slug, await this.brandOf(link), messages(lang), this.assets.links(null)), { 'retry-after': '60' });
        const m = messages(lang);
        const errors = Object.fromEntries(
          result.fields.filter((f) => isField(f.field)).map((f) => [f.field, fieldError(f.field as (typeof FIELDS)[number], link, m)]),
        ) as LinkFormErrors;
        return this.show(req, reply, link, { values, errors });
      }
    }
  }

  /** Anything else under /l: the same 404 page as an unknown slug. */
  @Get(['', '*'])
  nothing(@Req() req: FastifyRequest, @Res() reply: FastifyReply): FastifyReply {
    return sendNotFound(req, reply);
  }

  /** The link's form (400 with the errors given), or the page saying it takes no payment now (410). */
  private async show(req: FastifyRequest, reply: FastifyReply, link: PaymentLinkPage, refused?: { values: LinkFormValues; errors: LinkFormErrors }): Promise<FastifyReply> {
    const lang: Lang = languageOf(req);
    const m = messages(lang);
    const brand = await this.brandOf(link);
    const assets = this.assets.links(brand.color);
    if (link.state !== 'open') return sendHtml(reply, 410, lang, linkUnavailableHtml(link.state, brand, link.title, m, assets));
    const form: LinkForm = {
      slug: (req.params as { slug: string }).slug,
      brand,
      title: link.title,
      description: link.description,
      amountCents: link.amountCents,
      amountRangeCents: link.amountRangeCents,
      collectEmail: link.collectEmail,
    };
    return sendHtml(reply, refused ? 400 : 200, lang, linkFormHtml(form, m, assets, refused?.values, refused?.errors));
  }

  private async brandOf(link: PaymentLinkPage): Promise<PageBrand> {
    const merchant = await this.merchants.findSummary(link.merchantId);
    return { merchantName: link.merchantDisplayName, color: usableBrandColor(merchant?.merchant.brandColor) };
  }
}

function isField(field: string): field is (typeof FIELDS)[number] {
  return (FIELDS as readonly string[]).includes(field);
}

/** The form's fields as text: anything else a body holds (other fields, other types) is left out. */
function formValues(body: unknown): LinkFormValues {
  const values: LinkFormValues = {};
  if (typeof body !== 'object' || body === null) return values;
  for (const field of FIELDS) {
    const value = (body as Record<string, unknown>)[field];
    if (typeof value === 'string') values[field] = value.slice(0, 1024);
    else if (typeof value === 'number' && Number.isFinite(value)) values[field] = String(value);
  }
  return values;
}

/** The fields as they may be shown again: an unreadable one is emptied. */
function safeValues(values: LinkFormValues, unreadable: ReadonlySet<string>): LinkFormValues {
  return Object.fromEntries(Object.entries(values).filter(([field]) => !unreadable.has(field)));
}

/** A refused field in the payer's words. */
function fieldError(field: (typeof FIELDS)[number], link: PaymentLinkPage, m: Messages): string {
  if (field !== 'amount') return m.fieldErrors[field];
  const range = link.amountRangeCents;
  return range ? m.fieldErrors.amount(formatMoney(range.min, m), formatMoney(range.max, m)) : m.fieldErrors.text;
}
