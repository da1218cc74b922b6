import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { SecretBox } from '../../src/common/crypto/secret-box';
import { newId } from '../../src/common/ids';
import { generateApiKey } from '../../src/merchants/api-key-material';
import { ApiKey } from '../../src/merchants/api-key.entity';
import { Merchant } from '../../src/merchants/merchant.entity';
import { Payment } from '../../src/payments/payment.entity';
import type { CreateChargeRequest } from '../../src/providers/provider-adapter';
import { testPki } from '../fakes/certificates';
import type { PixApiPsp } from '../fakes/pix-api-psp';
import type { TestApp } from './test-app';

export interface MerchantFixture {
  merchant: Merchant;
  /** A working X-Merchant-Key for this merchant. */
  apiKey: string;
  apiKeyId: string;
}

/** A merchant with one API key, written straight to the database. */
export async function newMerchant(
  t: Pick<TestApp, 'app' | 'dataSource'>,
  overrides: Partial<Pick<Merchant, 'name' | 'active' | 'webhookUrl' | 'provider'>> & { signingSecret?: string } = {},
): Promise<MerchantFixture> {
  const { signingSecret, ...fields } = overrides;
  const repo = t.dataSource.getRepository(Merchant);
  const merchant = await repo.save(
    repo.create({
      id: newId('mer'),
      name: `Loja ${randomBytes(3).toString('hex')}`,
      active: true,
      webhookUrl: null,
      provider: null,
      webhookSigningSecretEnc: signingSecret ? t.app.get(SecretBox).seal(signingSecret) : null,
      ...fields,
    }),
  );
  const key = generateApiKey();
  const apiKeyId = newId('key');
  await t.dataSource.getRepository(ApiKey).insert({ id: apiKeyId, merchantId: merchant.id, keyHash: key.hash, prefix: key.prefix, revokedAt: null });
  return { merchant, apiKey: key.key, apiKeyId };
}

/** A pending payment written straight to the database (for webhook and admin specs). */
export async function newPayment(dataSource: DataSource, merchantId: string, overrides: Partial<Payment> = {}): Promise<Payment> {
  const repo = dataSource.getRepository(Payment);
  const txid = randomBytes(16).toString('hex');
  return repo.save(
    repo.create({
      id: newId('pay'),
      merchantId,
      status: 'pending',
      amountCents: 1050,
      currency: 'BRL',
      description: 'Pedido de teste',
      externalId: `order-${randomBytes(4).toString('hex')}`,
      recipientDocument: '12345678909',
      recipientName: 'Ana Souza',
      method: 'pix',
      provider: 'sandbox',
      providerPaymentId: `sbx_${randomBytes(8).toString('hex')}`,
      txid,
      pixCopyPaste: '00020101021226',
      pixQrPng: 'data:image/png;base64,',
      expiresAt: new Date(Date.now() + 3600_000),
      paidAt: null,
      ...overrides,
    }),
  );
}

/** A valid payment creation body (CPF with correct check digits). */
export function paymentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: 10.5,
    currency: 'BRL',
    recipientDocument: '123.456.789-09',
    recipientName: 'Ana Souza',
    description: 'Pedido 1234',
    externalId: `order-${randomBytes(4).toString('hex')}`,
    ...overrides,
  };
}

/** A provider charge request as the payments service makes one, for adapter and contract specs. */
export function chargeRequest(notificationUrl: string, overrides: Partial<CreateChargeRequest> = {}): CreateChargeRequest {
  return {
    paymentId: `pay_${randomBytes(8).toString('hex')}`,
    txid: randomBytes(16).toString('hex'),
    amountCents: 1050,
    currency: 'BRL',
    description: 'Pedido 1234',
    externalId: `order-${randomBytes(4).toString('hex')}`,
    debtor: { document: '12345678909', name: 'Ana Souza' },
    expiresInSeconds: 3600,
    notificationUrl,
    ...overrides,
  };
}

/** Temporary directories for one spec file, each removed after its tests (afterAll). */
export function tempDirs(prefix: string): () => string {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
}

/** The body of `POST /admin/api/provider-accounts` for a `pix-api` account at the fake PSP, with the test PKI's client certificate. */
export function pixApiAccountBody(
  psp: Pick<PixApiPsp, 'url' | 'tokenUrl' | 'clientId' | 'clientSecret' | 'caPem'>,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  const pki = testPki();
  return {
    name: 'Banco Teste',
    provider: 'pix-api',
    base_url: psp.url,
    token_url: psp.tokenUrl,
    pix_key: 'recebedor@example.com',
    credentials: { client_id: psp.clientId, client_secret: psp.clientSecret, certificate_pem: pki.client.cert, private_key_pem: pki.client.key, ca_pem: psp.caPem },
    ...overrides,
  };
}
