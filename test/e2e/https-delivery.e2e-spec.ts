import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newMerchantOverHttp } from '../helpers/admin-http';
import { eventually } from '../helpers/eventually';
import { paymentBody } from '../helpers/factories';
import { GatewayProcess, startGatewayProcess } from '../helpers/gateway-process';
import { http } from '../helpers/http';
import { MerchantReceiver } from '../helpers/merchant-receiver';
import { TEST_ADMIN_TOKEN } from '../helpers/test-env';

/**
 * Merchants' webhook URLs are https in production. The gateway delivers over TLS, verifies the
 * receiver's certificate against the trusted CAs (here a test CA given through Node's own
 * NODE_EXTRA_CA_CERTS), and never falls back to anything weaker when verification fails.
 */
jest.setTimeout(60_000);
const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/** A self-signed certificate for 127.0.0.1, made with the openssl command line. */
function selfSigned(dir: string, name: string): { key: string; cert: string; certFile: string } {
  const keyFile = join(dir, `${name}.key`);
  const certFile = join(dir, `${name}.crt`);
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', keyFile, '-out', certFile, '-days', '1', '-subj', `/CN=${name}`, '-addext', 'subjectAltName=IP:127.0.0.1'],
    { stdio: 'ignore' },
  );
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

describe('webhook delivery over HTTPS', () => {
  let dir: string;
  let trustedCert: ReturnType<typeof selfSigned>;
  let gw: GatewayProcess;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'gw-tls-'));
    trustedCert = selfSigned(dir, 'trusted-receiver');
    gw = await startGatewayProcess({ DELIVERY_POLL_MS: '50', DELIVERY_RETRY_SCHEDULE_MS: '60000', NODE_EXTRA_CA_CERTS: trustedCert.certFile });
  });
  afterAll(async () => {
    gw?.kill('SIGTERM');
    await gw?.exited;
    rmSync(dir, { recursive: true, force: true });
  });

  /** A merchant whose webhook_url is `receiver`, a payment, and its confirmation: one forward queued. Returns the merchant id. */
  async function confirmFor(receiver: MerchantReceiver, secret: string): Promise<string> {
    const shop = await newMerchantOverHttp(gw.url, TEST_ADMIN_TOKEN, { webhook_url: receiver.url, webhook_signing_secret: secret });
    const created = await http(gw.url, 'POST', '/v1/payments/create', { body: paymentBody(), headers: { 'x-merchant-key': shop.apiKey, 'idempotency-key': `tls-${shop.id}` } });
    expect(created.status).toBe(201);
    expect((await http(gw.url, 'POST', `/admin/api/payments/${created.body.data.id}/simulate`, { body: { event: 'payment.confirmed' }, headers: ADMIN })).status).toBeLessThan(300);
    return shop.id;
  }
  const deliveriesOf = async (merchantId: string) => (await http(gw.url, 'GET', `/admin/api/webhook-deliveries?merchant_id=${merchantId}`, { headers: ADMIN })).body.data.items;

  it('delivers a signed forward to a receiver whose certificate it trusts', async () => {
    const secret = 'https-receiver-secret-0123456789';
    const receiver = await MerchantReceiver.start({ secret, tls: trustedCert });
    try {
      const merchantId = await confirmFor(receiver, secret);
      await receiver.waitForCount(1);
      expect(receiver.received[0]).toMatchObject({ verified: true, body: { event: 'payment.confirmed' } });
      const delivered = await eventually(
        () => deliveriesOf(merchantId),
        (items) => items[0]?.status === 'delivered',
      );
      expect(delivered).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1 })]);
    } finally {
      await receiver.close();
    }
  });

  it('refuses a receiver whose certificate nobody vouches for: nothing is sent, the attempt records why', async () => {
    const receiver = await MerchantReceiver.start({ tls: selfSigned(dir, 'unknown-receiver') });
    try {
      const merchantId = await confirmFor(receiver, 'another-receiver-secret-0123456789');
      const [delivery] = await eventually(
        () => deliveriesOf(merchantId),
        (items) => items[0]?.attempts >= 1,
      );
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
      const detail = await http(gw.url, 'GET', `/admin/api/payments/${delivery.payment_id}`, { headers: ADMIN });
      expect(JSON.stringify(detail.body.data)).toMatch(/certificate/i);
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
