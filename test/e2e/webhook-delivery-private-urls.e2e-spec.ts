import { attemptsOf, confirmPayment, DELIVERY_ENV, settled } from '../helpers/deliveries';
import { newMerchant, newPayment } from '../helpers/factories';
import { startTestApp, TestApp } from '../helpers/test-app';

describe('webhook delivery with WEBHOOK_ALLOW_PRIVATE_URLS=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { ...DELIVERY_ENV, WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
  });
  afterAll(() => t.close());

  // The URLs are written straight to the database, as if they had passed the save-time check and
  // their host had been re-pointed since (DNS rebinding): the delivery-time check must catch them.
  it.each([
    ['a host name that now resolves to loopback', 'https://localhost/pix-hook', '"localhost" resolves to'],
    ['a loopback address', 'https://127.0.0.1/pix-hook', '127.0.0.1 is loopback'],
    ['the cloud metadata address', 'https://169.254.169.254/latest', '169.254.169.254 is linkLocal'],
  ])('refuses %s before connecting, and keeps retrying on schedule', async (_label, url, reason) => {
    const shop = await newMerchant(t, { webhookUrl: url });
    const payment = await newPayment(t.dataSource, shop.merchant.id);
    await confirmPayment(t, payment.id);
    const delivery = await settled(t, payment.id, 'failed', 4);
    const attempts = await attemptsOf(t, delivery!.id);
    expect(attempts).toHaveLength(4);
    for (const attempt of attempts) {
      expect(attempt.status_code).toBeNull();
      expect(attempt.error).toContain('webhook URL refused');
      expect(attempt.error).toContain(reason);
    }
  });
});
