import { performance } from 'node:perf_hooks';
import { Injectable, Logger } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box';
import { within } from '../common/timeout';
import { WebhookUrlPolicy, WebhookUrlRejectedError } from '../common/net/webhook-url-policy';
import { AppConfig } from '../config/app-config';
import { OutboundTransport } from '../providers/transport/transport';
import { AttemptTimeout, describeNetworkError, postToMerchant } from './merchant-http';
import type { AttemptResult } from './attempt-outcome';
import { WebhookSigner } from './webhook-signer';

const USER_AGENT = 'pix-gateway-webhooks/1';

/** One signed POST to a merchant: a delivery's attempt, or an operator's test event. */
export interface OutgoingWebhook {
  /** The Standard Webhooks `webhook-id` (a delivery's id). */
  id: string;
  eventType: string;
  requestId: string;
  /** The provider the payment is held at (`X-Webhook-Source`). */
  provider: string;
  body: unknown;
  webhookUrl: string | null;
  webhookSigningSecretEnc: string | null;
}

/**
 * The one outbound path to merchants: the URL policy, the signer and the transport, as docs/api.md
 * (Forwarding to merchants) describes them. The delivery worker and the test event both send
 * through it, so a test event proves what a real delivery would meet.
 */
@Injectable()
export class DeliverySender {
  private readonly logger = new Logger('DeliveryWorker');

  constructor(
    private readonly config: AppConfig,
    private readonly urlPolicy: WebhookUrlPolicy,
    private readonly secrets: SecretBox,
    // The gateway's one transport; its owner (ProvidersModule) closes it after shutdown.
    private readonly transport: OutboundTransport,
  ) {}

  /** One POST; every failure, ours or the merchant's, becomes the attempt's result rather than an exception. */
  async send(webhook: OutgoingWebhook, attemptedAt: Date): Promise<AttemptResult> {
    if (!webhook.webhookUrl) return { statusCode: null, latencyMs: null, error: 'the merchant has no webhook_url' };
    let headers: Record<string, string>;
    const body = JSON.stringify(webhook.body);
    try {
      headers = this.headers(webhook, body, attemptedAt);
    } catch (error) {
      // Never send unsigned to a merchant that expects a signature.
      this.logger.error({ err: error, delivery_id: webhook.id }, 'Could not open the merchant signing secret (is SECRETS_KEY the one it was saved with?)');
      return { statusCode: null, latencyMs: null, error: 'the signing secret could not be decrypted; check SECRETS_KEY' };
    }
    // DELIVERY_TIMEOUT_MS bounds the whole attempt, DNS included, so an attempt always ends
    // well inside its lease (DELIVERY_LEASE_MS is at least the timeout plus a second).
    const deadline = performance.now() + this.config.deliveryTimeoutMs;
    let target;
    try {
      target = await beforeDeadline(this.urlPolicy.resolveForDelivery(webhook.webhookUrl), deadline, this.config.deliveryTimeoutMs);
    } catch (error) {
      const reason = error instanceof WebhookUrlRejectedError ? `webhook URL refused: ${error.message}` : `DNS: ${describeNetworkError(error)}`;
      return { statusCode: null, latencyMs: null, error: reason };
    }
    const answer = await postToMerchant(this.transport, {
      url: target.url,
      lookup: target.lookup,
      headers,
      body: Buffer.from(body, 'utf8'),
      timeoutMs: this.config.deliveryTimeoutMs,
      deadline,
      maxSockets: this.config.deliveryConcurrency,
    });
    const location = answer.headers.location;
    return {
      statusCode: answer.statusCode,
      latencyMs: answer.latencyMs,
      error: answer.error,
      bodyExcerpt: answer.bodyExcerpt,
      retryAfter: answer.headers['retry-after'],
      location,
    };
  }

  /** The headers of docs/api.md, Forwarding to merchants; the signature covers exactly `body`, the bytes sent. */
  private headers(webhook: OutgoingWebhook, body: string, attemptedAt: Date): Record<string, string> {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'x-webhook-source': webhook.provider,
      'x-webhook-event': webhook.eventType,
      'x-request-id': webhook.requestId,
    };
    if (webhook.webhookSigningSecretEnc) {
      const signature = new WebhookSigner(this.secrets.open(webhook.webhookSigningSecretEnc)).sign(webhook.id, attemptedAt, body);
      headers['webhook-id'] = webhook.id;
      headers['webhook-timestamp'] = String(Math.floor(attemptedAt.getTime() / 1000));
      headers['webhook-signature'] = signature;
      headers['x-webhook-signature'] = signature;
    }
    return headers;
  }
}

/** `promise`, or AttemptTimeout once `deadline` (performance.now()) passes; the lookup itself cannot be cancelled and is left to finish. */
function beforeDeadline<T>(promise: Promise<T>, deadline: number, timeoutMs: number): Promise<T> {
  return within(promise, Math.max(0, deadline - performance.now()), () => {
    throw new AttemptTimeout(timeoutMs);
  });
}
