import { performance } from 'node:perf_hooks';
import type { FastifyBaseLogger } from 'fastify';
import { resolveDeliveryTarget } from '../common/net/webhook-url-policy';
import { SANDBOX_SIGNATURE_HEADER, signSandboxPayload } from '../common/sandbox-wire/sandbox-signature';
import { networkReason, postCallback } from './callback-poster';

export interface Delivery {
  delivered: boolean;
  /** The receiver's HTTP status, null when it could not be reached. */
  status: number | null;
}

export type Deliver = (url: string, webhookSecret: string | undefined, event: object, log: FastifyBaseLogger) => Promise<Delivery>;

/**
 * Posts the sandbox's events to notification URLs, signed when there is a secret, with its own
 * client (callback-poster.ts), under the merchant-webhook URL policy.
 */
export function notifier(urlPolicy: { allowPrivate: boolean }, timeoutMs: number): Deliver {
  return async (url, webhookSecret, event, log) => {
    const raw = JSON.stringify(event);
    const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'pix-gateway-sandbox/1' };
    // The signature is about transport freshness, so it uses the real time even when tests move the charge clock.
    if (webhookSecret) headers[SANDBOX_SIGNATURE_HEADER] = signSandboxPayload(webhookSecret, raw, Date.now() / 1000);
    const deadline = performance.now() + timeoutMs;
    try {
      // Checked again now and pinned: the host may resolve elsewhere than when the charge was made.
      const target = await resolveDeliveryTarget(url, urlPolicy);
      const answer = await postCallback({ url: target.url, lookup: target.lookup, headers, body: Buffer.from(raw, 'utf8'), timeoutMs, deadline });
      if (answer.statusCode === null) {
        log.warn({ reason: answer.error }, 'sandbox could not deliver an event');
        return { delivered: false, status: null };
      }
      return { delivered: answer.statusCode >= 200 && answer.statusCode < 300, status: answer.statusCode };
    } catch (error) {
      // The URL policy's refusal at the post (the host now resolves to a private address), or its DNS failure.
      log.warn({ reason: networkReason(error) }, 'sandbox could not deliver an event');
      return { delivered: false, status: null };
    }
  };
}
