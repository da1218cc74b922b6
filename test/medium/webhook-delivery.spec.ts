import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { TestingModule } from '@nestjs/testing';
import { WebhookUrlPolicy } from '../../src/common/net/webhook-url-policy';
import { AdminDeliveriesService } from '../../src/deliveries/admin-deliveries.service';
import { DELIVERY_NUDGE } from '../../src/deliveries/delivery-nudge';
import { DeliverySender } from '../../src/deliveries/delivery-sender';
import { DeliveryWorker } from '../../src/deliveries/delivery-worker';
import { WebhookDeliveryAttemptRepository } from '../../src/deliveries/webhook-delivery-attempt.repository';
import { WebhookDeliveryRepository } from '../../src/deliveries/webhook-delivery.repository';
import { generateSigningSecret } from '../../src/merchants/signing-secret';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics';
import { EventWriter } from '../../src/payments/lifecycle/event-writer';
import { PaymentEventRepository } from '../../src/payments/lifecycle/payment-event.repository';
import { PaymentEventsService } from '../../src/payments/lifecycle/payment-events.service';
import { PaymentRepository } from '../../src/payments/payment.repository';
import { RefundEventsService } from '../../src/payments/refunds/refund-events.service';
import { RefundRepository } from '../../src/payments/refunds/refund.repository';
import { AccountResolver } from '../../src/providers/provider-accounts/account-resolver';
import { MerchantProviderAccountRepository, ProviderAccountRepository } from '../../src/providers/provider-accounts/provider-account.repository';
import { ProvidersModule } from '../../src/providers/providers.module';
import { AccountBreakers } from '../../src/providers/routing/account-breakers';
import { TransportModule } from '../../src/providers/transport/transport.module';
import type { WebhookIntakeResult } from '../../src/webhooks/dto/webhook-intake-result';
import { WebhookIntakeService } from '../../src/webhooks/webhook-intake.service';
import { attemptsOf, DELIVERY_ENV, deliveryOf, settled } from '../helpers/deliveries';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { MerchantReceivers } from '../helpers/merchant-receivers';
import { testDatabase } from '../helpers/test-env';

/**
 * Forwards to merchants, from the intake that queues them to the worker that sends them, against
 * real merchant endpoints (MerchantReceiver verifies with the `standardwebhooks` library, as a
 * merchant would): the signed request, retries, Retry-After, timeouts, 410, redirects; and some of
 * what the operator reads (AdminDeliveriesService). The admin routes over HTTP (their answers,
 * 404s, the admin token, redeliver) are test/e2e/webhook-delivery.e2e-spec.ts.
 */
describe(`webhook delivery (${testDatabase()} database)`, () => {
  let ctx: MediumContext;
  let units: TestingModule;
  const receivers = new MerchantReceivers();
  beforeAll(async () => {
    ctx = await newMediumContext({ env: DELIVERY_ENV });
    units = await ctx.module(
      [
        // The worker, woken by the intake after its commit as in the app (DeliveriesModule).
        DeliveryWorker,
        DeliverySender,
        WebhookDeliveryRepository,
        WebhookDeliveryAttemptRepository,
        AdminDeliveriesService,
        { provide: DELIVERY_NUDGE, useExisting: DeliveryWorker },
        WebhookUrlPolicy,
        GatewayMetrics,
        // The intake of the sandbox's built-in account (unsigned events: no SANDBOX_WEBHOOK_SECRET).
        WebhookIntakeService,
        AccountResolver,
        AccountBreakers,
        ProviderAccountRepository,
        MerchantProviderAccountRepository,
        PaymentEventsService,
        EventWriter,
        RefundEventsService,
        RefundRepository,
        PaymentRepository,
        PaymentEventRepository,
      ],
      [TransportModule, ProvidersModule],
    );
    units.get(DeliveryWorker).onApplicationBootstrap(); // starts the poll, as the app's bootstrap does; ctx.close() drains it
  });
  afterAll(async () => {
    await ctx?.close();
    await receivers.close();
  });

  /** A sandbox payment.confirmed through the real intake, as POST /webhooks/sandbox hands it over; its request id and answer. */
  const confirmPayment = async (paymentId: string): Promise<{ requestId: string; data: WebhookIntakeResult }> => {
    const event = {
      event: 'payment.confirmed',
      id: `evt_sbx_${randomBytes(8).toString('hex')}`,
      created_at: new Date().toISOString(),
      data: { id: paymentId, amount: 10.5, status: 'CONCLUIDA' },
    };
    const raw = JSON.stringify(event);
    const requestId = randomUUID();
    const answer = await units
      .get(WebhookIntakeService)
      .receive('sandbox', { method: 'POST', path: '', query: {}, headers: { 'content-type': 'application/json' }, rawBody: Buffer.from(raw) }, event, requestId);
    return { requestId, data: answer.data };
  };
  const admin = () => units.get(AdminDeliveriesService);

  describe('the worker', () => {
    it('posts the signed forward, which the merchant verifies with standardwebhooks', async () => {
      const secret = generateSigningSecret();
      const { shop, receiver } = await receivers.newMerchant(ctx, secret);
      const payment = await ctx.newPayment(shop.merchant.id);
      const intake = await confirmPayment(payment.id);
      await receiver.waitForCount(1);

      const [got] = receiver.received;
      const delivery = await settled(ctx, payment.id, 'delivered', 1);
      expect(got!.verified).toBe(true);
      expect(got!.headers).toMatchObject({
        'content-type': 'application/json',
        'x-webhook-source': 'sandbox',
        'x-webhook-event': 'payment.confirmed',
        'x-request-id': intake.requestId,
        'webhook-id': delivery!.id,
        'x-webhook-signature': got!.headers['webhook-signature'],
      });
      expect(got!.body).toEqual({
        event: 'payment.confirmed',
        id: intake.data.event_id,
        created_at: expect.any(String),
        data: {
          id: payment.id,
          amount: 10.5,
          status: 'paid',
          externalId: payment.externalId,
          provider: 'sandbox',
          paidAt: expect.any(String),
          paidAfterClose: false,
          refundedAmount: 0,
        },
      });
      const [attempt] = await attemptsOf(ctx, delivery!.id);
      expect(attempt).toMatchObject({ attempt: 1, url: receiver.url, status_code: 200, error: null });
      expect(attempt!.latency_ms).toEqual(expect.any(Number));
      expect(delivery).toMatchObject({ last_status_code: 200, last_error: null, locked_until: null });
      expect(delivery!.delivered_at).toBeInstanceOf(Date);
    });

    it('signs with a plain (non-whsec_) secret keyed by its UTF-8 bytes, verifiable with format "raw"', async () => {
      const { shop, receiver } = await receivers.newMerchant(ctx, 'a-plain-merchant-secret-1234');
      const payment = await ctx.newPayment(shop.merchant.id);
      await confirmPayment(payment.id);
      await receiver.waitForCount(1);
      expect(receiver.received[0]!.verified).toBe(true);
    });

    it('sends no Standard Webhooks headers to a merchant without a signing secret', async () => {
      const { shop, receiver } = await receivers.newMerchant(ctx);
      const payment = await ctx.newPayment(shop.merchant.id);
      await confirmPayment(payment.id);
      await receiver.waitForCount(1);
      const { headers } = receiver.received[0]!;
      expect(headers['x-webhook-event']).toBe('payment.confirmed');
      expect(Object.keys(headers).filter((h) => h.startsWith('webhook-') || h === 'x-webhook-signature')).toEqual([]);
    });

    it('retries after a 500 with the same webhook-id, X-Request-Id and body, freshly signed', async () => {
      const { shop, receiver } = await receivers.newMerchant(ctx, generateSigningSecret());
      receiver.respondWith((r) => ({ status: r.seq === 1 ? 500 : 200 }));
      const payment = await ctx.newPayment(shop.merchant.id);
      await confirmPayment(payment.id);
      await receiver.waitForCount(2);

      const [first, second] = receiver.received;
      expect(second!.verified).toBe(true);
      expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
      expect(second!.headers['x-request-id']).toBe(first!.headers['x-request-id']);
      expect(second!.raw).toBe(first!.raw);
      const delivery = await settled(ctx, payment.id, 'delivered', 2);
      expect((await attemptsOf(ctx, delivery!.id)).map((a) => [a.attempt, a.status_code, a.error])).toEqual([
        [1, 500, 'HTTP 500'],
        [2, 200, null],
      ]);
    });

    it('waits at least as long as the merchant’s Retry-After asks', async () => {
      const { shop, receiver } = await receivers.newMerchant(ctx);
      receiver.respondWith(() => ({ status: 503, headers: { 'retry-after': '120' } }));
      const payment = await ctx.newPayment(shop.merchant.id);
      await confirmPayment(payment.id);
      const delivery = await settled(ctx, payment.id, 'pending', 1);
      const [attempt] = await attemptsOf(ctx, delivery!.id);
      expect(delivery!.next_attempt_at.getTime() - attempt!.attempted_at.getTime()).toBeGreaterThanOrEqual(120_000);
      expect(delivery!.last_status_code).toBe(503);
    });

    it('gives up on an attempt at DELIVERY_TIMEOUT_MS and retries', async () => {
      const { shop, receiver } = await receivers.newMerchant(ctx);
      receiver.respondWith((r) => (r.seq === 1 ? 'hold' : { status: 204 }));
      const payment = await ctx.newPayment(shop.merchant.id);
      await confirmPayment(payment.id);
      const delivery = await settled(ctx, payment.id, 'delivered', 2);
      expect((await attemptsOf(ctx, delivery!.id)).map((a) => [a.status_code, a.error])).toEqual([
        [null, 'timeout after 2000 ms'],
        [204, null],
      ]);
    });

    it('stops at once on 410 Gone', async () => {
      const { shop, receiver } = await receivers.newMerchant(ctx);
      receiver.respondWith(() => ({ status: 410 }));
      const payment = await ctx.newPayment(shop.merchant.id);
      await confirmPayment(payment.id);
      const delivery = await settled(ctx, payment.id, 'failed', 1);
      expect(delivery).toMatchObject({ last_status_code: 410, locked_until: null });
      expect(receiver.received).toHaveLength(1);
    });

    it('does not follow redirects: a 3xx is a failed attempt, and the target never hears from us', async () => {
      const { shop, receiver } = await receivers.newMerchant(ctx);
      receiver.respondWith((r) => (r.path === '/pix-hook' ? { status: 302, headers: { location: `${receiver.url}-moved` } } : { status: 200 }));
      const payment = await ctx.newPayment(shop.merchant.id);
      await confirmPayment(payment.id);
      const delivery = await settled(ctx, payment.id, 'failed', 4);
      expect(receiver.received.map((r) => r.path)).toEqual(['/pix-hook', '/pix-hook', '/pix-hook', '/pix-hook']);
      expect(delivery!.last_status_code).toBe(302);
      expect(delivery!.last_error).toContain('not followed');
    });

    it('queues no delivery for a merchant without a webhook_url, and records why', async () => {
      const shop = await ctx.newMerchant();
      const payment = await ctx.newPayment(shop.merchant.id);
      const res = await confirmPayment(payment.id);
      expect(res.data).toMatchObject({ applied: true, forward: 'no_webhook_url' });
      expect(await deliveryOf(ctx, payment.id)).toBeUndefined();
      expect((await ctx.dataSource.query(`SELECT forward FROM payment_events WHERE payment_id = $1`, [payment.id]))[0].forward).toBe('no_webhook_url');
    });
  });

  describe('what the operator reads: an attempt without an answer, the retrying filter, a failing test event', () => {
    it('keeps no excerpt when no answer came', async () => {
      const shop = await ctx.newMerchant({ webhookUrl: `http://127.0.0.1:${await closedPort()}/hook` });
      const payment = await ctx.newPayment(shop.merchant.id);
      await confirmPayment(payment.id);
      const delivery = await settled(ctx, payment.id, 'pending', 1);
      const res = await admin().get(delivery!.id);
      expect(res.attempt_history[0]).toMatchObject({ status_code: null, response_excerpt: null, error: expect.stringContaining('ECONNREFUSED') });
    });

    it('status=retrying lists pending deliveries after failed attempts only', async () => {
      const shop = await ctx.newMerchant();
      const payment = await ctx.newPayment(shop.merchant.id);
      // Due in an hour: the worker leaves them alone while the spec reads them.
      const later = new Date(Date.now() + 3_600_000);
      const retrying = await ctx.newDelivery(payment, { attempts: 2, lastStatusCode: 503, lastError: 'HTTP 503', nextAttemptAt: later });
      await ctx.newDelivery(payment, { attempts: 0, nextAttemptAt: later });
      await ctx.newDelivery(payment, { status: 'failed', attempts: 4, nextAttemptAt: later });

      const list = (status: 'retrying' | 'pending' | 'failed') => admin().list({ status, merchant_id: shop.merchant.id });
      const res = await list('retrying');
      expect(res.items.map((d) => [d.id, d.status, d.attempts])).toEqual([[retrying.id, 'pending', 2]]);
      expect((await list('pending')).items).toHaveLength(2);
      expect((await list('failed')).items).toHaveLength(1);
    });

    it('answers ok: false with the reason when the endpoint fails or is unreachable', async () => {
      const { shop, receiver } = await receivers.newMerchant(ctx);
      receiver.respondWith(() => ({ status: 500, body: 'boom' }));
      const failing = await admin().sendTestEvent(shop.merchant.id);
      expect(failing).toMatchObject({ ok: false, status_code: 500, response_excerpt: 'boom', error: null });

      const down = await ctx.newMerchant({ webhookUrl: `http://127.0.0.1:${await closedPort()}/hook` });
      const unreachable = await admin().sendTestEvent(down.merchant.id);
      expect(unreachable).toMatchObject({ ok: false, status_code: null, response_excerpt: null, error: expect.stringContaining('ECONNREFUSED') });

      const none = await ctx.newMerchant();
      const noUrl = await admin().sendTestEvent(none.merchant.id);
      expect(noUrl).toMatchObject({ ok: false, status_code: null, error: 'the merchant has no webhook_url' });
    });
  });
});

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
