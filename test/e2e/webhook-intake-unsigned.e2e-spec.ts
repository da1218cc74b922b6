import { http } from '../helpers/http';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { startTestApp, TestApp } from '../helpers/test-app';

describe('webhook intake without SANDBOX_WEBHOOK_SECRET (HTTP)', () => {
  let t: TestApp;
  let merchantEndpoint: MerchantReceiver;
  beforeAll(async () => {
    merchantEndpoint = await MerchantReceiver.start();
    // Polling an hour apart: a forward that arrives during the test was started by intake's nudge.
    t = await startTestApp({ env: { DELIVERY_POLL_MS: '3600000' } });
  });
  afterAll(async () => {
    await t.close();
    await merchantEndpoint.close();
  });

  it('accepts unsigned simulated events, the spec\'s "simulate an event for testing"', async () => {
    const shop = await t.newMerchant();
    const payment = await t.newPayment(shop.merchant.id);
    const res = await http(t.url, 'POST', '/webhooks/sandbox', { body: { event: 'payment.confirmed', id: 'evt_manual_1', data: { id: payment.id, amount: 10.5 } } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ duplicate: false, matched: true, applied: true, status: 'paid' });
  });

  it('wakes the delivery worker after commit, so the forward leaves without waiting for a poll', async () => {
    const shop = await t.newMerchant({ webhookUrl: merchantEndpoint.url });
    const payment = await t.newPayment(shop.merchant.id);
    const res = await http(t.url, 'POST', '/webhooks/sandbox', { body: { event: 'payment.confirmed', id: 'evt_manual_2', data: { id: payment.id, amount: 10.5 } } });
    expect(res.body.data.forward).toBe('queued');
    await merchantEndpoint.waitUntil(() => merchantEndpoint.forDelivery(res.body.data.event_id).length > 0);
    const [forward] = merchantEndpoint.forDelivery(res.body.data.event_id);
    expect(forward!.headers['x-request-id']).toBe(res.body.request_id);
    expect(forward!.body).toMatchObject({
      event: 'payment.confirmed',
      id: res.body.data.event_id,
      data: { id: payment.id, amount: 10.5, status: 'paid', externalId: payment.externalId, provider: 'sandbox' },
    });
  });
});
