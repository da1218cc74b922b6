import type { OpenAPIObject } from '@nestjs/swagger';

/** The events the gateway sends merchants, as the document's `webhooks` (docs/webhooks.md). */
export function addEventWebhooks(document: OpenAPIObject): OpenAPIObject {
  return document;
}
