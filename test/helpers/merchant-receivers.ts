import type { Factories, MerchantFixture } from './factories';
import { MerchantReceiver } from './merchant-receiver';

/**
 * Merchants that each have a receiver of their own as their webhook URL, so a spec reads one
 * merchant's deliveries apart from every other's. `close()` closes every receiver it started.
 */
export class MerchantReceivers {
  private readonly started: MerchantReceiver[] = [];

  /** A merchant of `app` whose webhook URL is a fresh receiver that verifies with `secret` (if any). */
  async newMerchant(app: Factories, secret?: string): Promise<{ shop: MerchantFixture; receiver: MerchantReceiver }> {
    const receiver = await MerchantReceiver.start({ secret });
    this.started.push(receiver);
    const shop = await app.newMerchant({ webhookUrl: receiver.url, signingSecret: secret });
    return { shop, receiver };
  }

  async close(): Promise<void> {
    await Promise.all(this.started.map((receiver) => receiver.close()));
  }
}
