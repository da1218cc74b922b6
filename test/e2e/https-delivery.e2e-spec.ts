import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiClients } from '../helpers/clients';
import { eventually } from '../helpers/eventually';
import { paymentBody } from '../helpers/factories';
import { GatewayProcess, startGatewayProcess } from '../helpers/gateway-process';
import { MerchantReceiver } from '../helpers/merchant-receiver';

/**
 * Merchants' webhook URLs are https in production. The gateway delivers over TLS, verifies the
 * receiver's certificate against the trusted CAs (here a test CA given through Node's own
 * NODE_EXTRA_CA_CERTS), and never falls back to anything weaker when verification fails.
 */
jest.setTimeout(60_000);

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
    const api = apiClients(gw.url);
    const shop = await api.admin.newMerchant({ webhook_url: receiver.url, webhook_signing_secret: secret });
    const created = await api.merchant(shop.apiKey).POST('/v1/payments/create', { body: paymentBody(), params: { header: { 'Idempotency-Key': `tls-${shop.id}` } } });
    expect(created.status).toBe(201);
    const path = { id: created.data!.id };
    expect((await api.admin.POST('/admin/api/payments/{id}/simulate', { params: { path }, body: { event: 'payment.confirmed' } })).status).toBeLessThan(300);
    return shop.id;
  }
  const deliveriesOf = async (merchantId: string) =>
    (await apiClients(gw.url).admin.GET('/admin/api/webhook-deliveries', { params: { query: { merchant_id: merchantId } } })).data!.items;

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
        (items) => (items[0]?.attempts ?? 0) >= 1,
      );
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1 });
      const detail = await apiClients(gw.url).admin.GET('/admin/api/payments/{id}', { params: { path: { id: delivery!.payment_id! } } });
      expect(JSON.stringify(detail.data)).toMatch(/certificate/i);
      expect(receiver.received).toEqual([]);
    } finally {
      await receiver.close();
    }
  });
});
