import type { FastifyReply, FastifyRequest } from 'fastify';
import { checkoutAssets } from './checkout-assets';
import { messages, negotiateLanguage, type Lang } from './render/i18n';
import { messagePageHtml } from './render/pages';

/**
 * The public pages' policy: their own scripts, styles and images (the QR is a data: URL), requests
 * only to this origin, forms posted only here, never framed, no <base>. Nothing inline runs.
 */
export const PUBLIC_PAGE_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** What every public page is sent with: the policy, never stored, no referrer, not framed, not indexed. */
export function pageHeaders(lang: Lang): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': PUBLIC_PAGE_CSP,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'x-robots-tag': 'noindex, nofollow',
    'content-language': lang,
    vary: 'Accept-Language',
  };
}

/** The paths the public pages own: a router error there is their 404 page, not the API's envelope. */
export function isPublicPagePath(url: string): boolean {
  return /^\/(pay|l)(\/|\?|$)/.test(url);
}

/** The payer's language, from Accept-Language. */
export function languageOf(req: Pick<FastifyRequest, 'headers'>): Lang {
  return negotiateLanguage(req.headers['accept-language']);
}

const notFound = new Map<Lang, string>();

/**
 * The one 404 page: the same bytes (in the payer's language) for an unknown token, a malformed one,
 * a token of another kind, a path under /pay or /l that names nothing, or a slug no link has, so
 * that no answer tells which of them it was.
 */
export function notFoundPageHtml(lang: Lang): string {
  let page = notFound.get(lang);
  if (page === undefined) {
    const m = messages(lang);
    notFound.set(lang, (page = messagePageHtml(m, checkoutAssets().links(null), m.notFoundTitle, m.notFoundText)));
  }
  return page;
}

export function sendHtml(reply: FastifyReply, status: number, lang: Lang, body: string, headers: Record<string, string> = {}): FastifyReply {
  return reply
    .status(status)
    .headers({ ...pageHeaders(lang), ...headers })
    .send(body);
}

export function sendNotFound(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const lang = languageOf(req);
  return sendHtml(reply, 404, lang, notFoundPageHtml(lang));
}

/** The page asking to wait `seconds` (429, with Retry-After). */
export function waitPageHtml(lang: Lang, seconds: number): string {
  const m = messages(lang);
  return messagePageHtml(m, checkoutAssets().links(null), m.tooManyTitle, m.tooManyText(seconds));
}

/** 503 (the database is away) or any other failure: a page saying to try again. */
export function failurePageHtml(lang: Lang, unavailable: boolean): string {
  const m = messages(lang);
  return unavailable
    ? messagePageHtml(m, checkoutAssets().links(null), m.unavailableTitle, m.unavailableText)
    : messagePageHtml(m, checkoutAssets().links(null), m.errorTitle, m.errorText);
}
