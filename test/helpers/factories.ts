import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { SecretBox } from '../../src/common/crypto/secret-box';
import { newCheckoutToken, newId } from '../../src/common/ids';
import { generateApiKey } from '../../src/merchants/api-key-material';
import { ApiKey } from '../../src/merchants/api-key.entity';
import { Merchant } from '../../src/merchants/merchant.entity';
import { WebhookDelivery } from '../../src/deliveries/webhook-delivery.entity';
import { Payment } from '../../src/payments/payment.entity';
import { Refund } from '../../src/payments/refunds/refund.entity';
import { PaymentEvent } from '../../src/payments/lifecycle/payment-event.entity';
import type { CreateChargeRequest } from '../../src/providers/provider-adapter';
import type { components } from '../../web/src/api-types';
import { testPki } from '../../src/testing/certificates';
import type { PixApiPsp } from '../fakes/pix-api-psp';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import { Recurrence } from '../../src/recurrences/recurrence.entity';
import { RecurringCharge } from '../../src/recurrences/recurring-charge.entity';
import { RecurrenceEvent } from '../../src/recurrences/recurrence-event.entity';
import { WebhookDeliveryAttempt } from '../../src/deliveries/webhook-delivery-attempt.entity';

export interface MerchantFixture {
  merchant: Merchant;
  /** A working X-Merchant-Key for this merchant. */
  apiKey: string;
  apiKeyId: string;
}

/**
 * The test data factories, one per resource, each writing its rows straight to the database. Every
 * test context has them: `t.newMerchant()` on a booted app (TestApp), `ctx.newMerchant()` on a
 * medium-tier context (MediumContext).
 */
export class Factories {
  constructor(
    readonly dataSource: DataSource,
    /** Seals secrets as the gateway does (a merchant's signing secret), with the context's SECRETS_KEY. */
    protected readonly secrets: SecretBox,
  ) {}

  /** A merchant with one API key. */
  async newMerchant(overrides: Partial<Pick<Merchant, 'name' | 'active' | 'webhookUrl' | 'provider'>> & { signingSecret?: string } = {}): Promise<MerchantFixture> {
    const { signingSecret, ...fields } = overrides;
    const repo = this.dataSource.getRepository(Merchant);
    const merchant = await repo.save(
      repo.create({
        id: newId('mer'),
        name: `Loja ${randomBytes(3).toString('hex')}`,
        active: true,
        webhookUrl: null,
        provider: null,
        webhookSigningSecretEnc: signingSecret ? this.secrets.seal(signingSecret) : null,
        ...fields,
      }),
    );
    const key = generateApiKey();
    const apiKeyId = newId('key');
    await this.dataSource.getRepository(ApiKey).insert({ id: apiKeyId, merchantId: merchant.id, keyHash: key.hash, prefix: key.prefix, revokedAt: null });
    return { merchant, apiKey: key.key, apiKeyId };
  }

  /** An active monthly recurrence of the merchant's at the sandbox's built-in account (override `status` for others). */
  async newRecurrence(merchantId: string, overrides: Partial<Recurrence> = {}): Promise<Recurrence> {
    const now = new Date();
    const recurrence = Object.assign(new Recurrence(), {
      id: newId('rec'),
      merchantId,
      provider: 'sandbox',
      providerAccountId: null,
      environment: 'sandbox',
      providerRecurrenceId: `RR${randomBytes(13).toString('hex')}`.slice(0, 29),
      externalId: `sub-${randomBytes(4).toString('hex')}`,
      status: 'active',
      payerDocument: '12345678909',
      payerName: 'Ana Souza',
      contractId: 'plan-1',
      contractDescription: null,
      frequency: 'monthly',
      amountCents: 8990,
      minimumAmountCents: null,
      startDate: brasiliaDate(now),
      endDate: null,
      retryPolicy: 'none',
      journey: 'qr',
      firstPaymentId: null,
      authorizationCopyPaste: null,
      authorizationExpiresAt: null,
      checkoutToken: newCheckoutToken(),
      cancelledBy: null,
      nextReconcileAt: null,
      createdAt: now,
      updatedAt: now,
      ...overrides,
    } satisfies Recurrence);
    await this.dataSource.getRepository(Recurrence).insert(recurrence);
    return recurrence;
  }

  /** A scheduled charge of the recurrence, due in three days (cycle 0 unless overridden). */
  async newRecurringCharge(recurrence: Pick<Recurrence, 'id' | 'merchantId'>, overrides: Partial<RecurringCharge> = {}): Promise<RecurringCharge> {
    const now = new Date();
    const charge = Object.assign(new RecurringCharge(), {
      id: newId('rch'),
      recurrenceId: recurrence.id,
      merchantId: recurrence.merchantId,
      txid: randomBytes(16).toString('hex'),
      cycle: 0,
      amountCents: 8990,
      dueDate: addDays(brasiliaDate(now), 3),
      description: null,
      status: 'scheduled',
      attempts: [],
      retries: 0,
      endToEndId: null,
      paidAt: null,
      failureReason: null,
      nextReconcileAt: null,
      createdAt: now,
      updatedAt: now,
      ...overrides,
    } satisfies RecurringCharge);
    await this.dataSource.getRepository(RecurringCharge).insert(charge);
    return charge;
  }

  /** A row of a recurrence's history: by default the payer's authorization, forwarded. */
  async newRecurrenceEvent(
    recurrence: Pick<Recurrence, 'id' | 'merchantId' | 'provider' | 'providerAccountId'>,
    overrides: Partial<RecurrenceEvent> = {},
  ): Promise<RecurrenceEvent> {
    const event = Object.assign(new RecurrenceEvent(), {
      id: newId('evt'),
      provider: recurrence.provider,
      providerAccountId: recurrence.providerAccountId,
      providerEventId: `${recurrence.provider}:rec:${randomBytes(6).toString('hex')}`,
      type: 'recurrence.authorized',
      source: 'webhook',
      recurrenceId: recurrence.id,
      recurringChargeId: null,
      merchantId: recurrence.merchantId,
      fromStatus: 'pending_authorization',
      toStatus: 'active',
      forward: 'queued',
      note: null,
      requestId: randomUUID(),
      payload: {},
      createdAt: new Date(),
      ...overrides,
    } satisfies RecurrenceEvent);
    await this.dataSource.getRepository(RecurrenceEvent).save(event);
    return event;
  }

  /** The forward of a recurrence's event, delivered at the first attempt to `url` (that attempt recorded too). */
  async newDeliveredRecurrenceEvent(
    event: Pick<RecurrenceEvent, 'id' | 'type' | 'requestId' | 'recurrenceId' | 'merchantId'>,
    attempt: { url: string; latencyMs: number; responseExcerpt?: string },
  ): Promise<WebhookDelivery> {
    const delivery = Object.assign(new WebhookDelivery(), {
      id: newId('dlv'),
      eventId: event.id,
      merchantId: event.merchantId,
      paymentId: null,
      recurrenceId: event.recurrenceId,
      eventType: event.type,
      requestId: event.requestId,
      body: { event: event.type, id: event.id, data: { id: event.recurrenceId } },
      status: 'delivered' as const,
      attempts: 1,
      nextAttemptAt: new Date(),
      lockedUntil: null,
      lastStatusCode: 200,
      lastError: null,
      deliveredAt: new Date(),
    });
    await this.dataSource.getRepository(WebhookDelivery).save(delivery);
    await this.dataSource.getRepository(WebhookDeliveryAttempt).insert({
      id: newId('att'),
      deliveryId: delivery.id,
      attempt: 1,
      url: attempt.url,
      statusCode: 200,
      latencyMs: attempt.latencyMs,
      error: null,
      responseExcerpt: attempt.responseExcerpt ?? '{"received":true}',
    });
    return delivery;
  }

  /** A pending sandbox payment of the merchant's. */
  async newPayment(merchantId: string, overrides: Partial<Payment> = {}): Promise<Payment> {
    const repo = this.dataSource.getRepository(Payment);
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
        txid: randomBytes(16).toString('hex'),
        pixCopyPaste: '00020101021226',
        pixQrPng: 'data:image/png;base64,',
        expiresAt: new Date(Date.now() + 3600_000),
        paidAt: null,
        checkoutToken: newCheckoutToken(),
        ...overrides,
      }),
    );
  }
  /**
   * A refund of the payment's charge as if the gateway had recorded it (the merchant's, pending, not
   * yet answered by the PSP, R$ 5,00 unless overridden). It changes nothing on the payment: set its
   * status and refunded amount to match, where it matters.
   */
  async newRefund(payment: Pick<Payment, 'id' | 'merchantId' | 'provider' | 'providerAccountId' | 'txid' | 'providerPaymentId'>, overrides: Partial<Refund> = {}): Promise<Refund> {
    const repo = this.dataSource.getRepository(Refund);
    const now = new Date();
    return repo.save(
      repo.create({
        id: newId('ref'),
        paymentId: payment.id,
        merchantId: payment.merchantId,
        origin: 'merchant',
        status: 'pending',
        amountCents: 500,
        reason: null,
        failureReason: null,
        provider: payment.provider,
        providerAccountId: payment.providerAccountId ?? null,
        txid: payment.txid,
        providerPaymentId: payment.providerPaymentId,
        endToEndId: null,
        providerRefundId: null,
        attemptId: null,
        nextCheckAt: null,
        checkTries: 0,
        createdAt: now,
        updatedAt: now,
        settledAt: null,
        ...overrides,
      }),
    );
  }

  /** A provider event applied to the payment (a sandbox payment.confirmed unless overridden), as the intake records one. */
  async newPaymentEvent(payment: Pick<Payment, 'id' | 'merchantId' | 'provider'>, overrides: Partial<PaymentEvent> = {}): Promise<PaymentEvent> {
    const repo = this.dataSource.getRepository(PaymentEvent);
    return repo.save(
      repo.create({
        id: newId('evt'),
        provider: payment.provider,
        providerAccountId: null,
        providerEventId: `evt_sbx_${randomBytes(8).toString('hex')}`,
        type: 'payment.confirmed',
        source: 'webhook',
        paymentId: payment.id,
        merchantId: payment.merchantId,
        outcome: 'applied',
        fromStatus: 'pending',
        toStatus: 'paid',
        amountCents: 1050,
        forward: 'queued',
        note: null,
        requestId: `req_${randomBytes(8).toString('hex')}`,
        payload: {},
        ...overrides,
      }),
    );
  }

  /** A forward of the payment's event (a new payment.confirmed unless `eventId` is given) to its merchant, due now. */
  async newDelivery(payment: Pick<Payment, 'id' | 'merchantId' | 'provider'>, overrides: Partial<WebhookDelivery> = {}): Promise<WebhookDelivery> {
    const eventId = overrides.eventId ?? (await this.newPaymentEvent(payment, overrides.eventType ? { type: overrides.eventType } : {})).id;
    const eventType = overrides.eventType ?? 'payment.confirmed';
    const repo = this.dataSource.getRepository(WebhookDelivery);
    return repo.save(
      repo.create({
        id: newId('dlv'),
        eventId,
        merchantId: payment.merchantId,
        paymentId: payment.id,
        eventType,
        requestId: `req_${randomBytes(8).toString('hex')}`,
        body: { event: eventType, data: { id: payment.id } },
        status: 'pending',
        attempts: 0,
        nextAttemptAt: new Date(),
        lockedUntil: null,
        ...overrides,
      }),
    );
  }
}

/** The body of `POST /v1/payments/create`, as the OpenAPI document types it. */
export type CreatePaymentBody = components['schemas']['CreatePaymentDto'];

/**
 * A valid payment creation body (CPF with correct check digits). Overrides keep their own types, so
 * an invalid one (`amount: 'abc'`) no longer type-checks as a body for the typed merchant client.
 */
// NoInfer: O comes from the overrides only, never from the body type a call site expects.
export function paymentBody<const O extends Record<string, unknown> = Record<never, never>>(overrides: O = {} as O): Omit<CreatePaymentBody, keyof NoInfer<O>> & NoInfer<O> {
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

/** A charge body of the simulated PSP's own API (`POST /charges`), as the sandbox adapter sends one. */
export function sandboxChargeBody(overrides: Record<string, unknown> = {}): Record<string, unknown> & { txid: string } {
  const txid = typeof overrides.txid === 'string' ? overrides.txid : randomBytes(16).toString('hex');
  return {
    amount: '10.50',
    currency: 'BRL',
    description: null,
    externalId: `order-${txid.slice(0, 8)}`,
    recipient: { document: '12345678909', name: 'Ana Souza' },
    expiresIn: 3600,
    notificationUrl: 'http://127.0.0.1:9/unused',
    ...overrides,
    txid,
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
    payer: { document: '12345678909', name: 'Ana Souza' },
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

/** The body of `POST /admin/api/provider-accounts`, as the OpenAPI document types it. */
export type CreateProviderAccountBody = components['schemas']['CreateProviderAccountDto'];

/** The body of `POST /admin/api/provider-accounts` for a `pix-api` account at the fake PSP, with the test PKI's client certificate. */
export function pixApiAccountBody<const O extends Record<string, unknown> = Record<never, never>>(
  psp: Pick<PixApiPsp, 'url' | 'tokenUrl' | 'clientId' | 'clientSecret' | 'caPem'>,
  overrides: O = {} as O,
): Omit<CreateProviderAccountBody, keyof NoInfer<O>> & NoInfer<O> {
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

/** A valid `POST /v1/recurrences` body: a monthly fixed recurrence starting today in Brasília, QR journey. */
export function recurrenceBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    externalId: `sub-${randomBytes(4).toString('hex')}`,
    payer: { document: '123.456.789-09', name: 'Ana Souza' },
    contract: { id: `plan-${randomBytes(3).toString('hex')}`, description: 'Gym membership' },
    frequency: 'monthly',
    amount: 89.9,
    startDate: brasiliaDate(new Date()),
    retryPolicy: 'none',
    ...overrides,
  };
}
