import type { FastifyRequest } from 'fastify';

/** What a browser posts a plain HTML form as. */
export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';
/**
 * Whether a request is a payer's form posted to a payment link's page (`POST /l/:slug`): the one
 * request the gateway takes as a form rather than JSON (the API's content-type rule lets it
 * through; Nest's Fastify adapter parses it), whose fields the page checks itself and answers as
 * a page.
 */
export function isPublicFormPost(req: Pick<FastifyRequest, 'method' | 'url' | 'headers'>): boolean {
  if (req.method !== 'POST' || !/^\/l\/[^/?]*(\?|$)/.test(req.url)) return false;
  return (req.headers['content-type'] ?? '').split(';', 1)[0]!.trim().toLowerCase() === FORM_CONTENT_TYPE;
}
