import { Injectable } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { PreparedResponse, successEnvelope } from '../common/http/envelope';
import { hasIdShape } from '../common/ids';
import { reaisToCents } from '../domain/money';
import { normaliseDocument } from '../common/validation/brazilian-document';
import { AppConfig } from '../config/app-config';
import { IdempotencyClaim, IdempotencyService } from '../idempotency/idempotency.service';
import { GatewayMetrics, PaymentCreateOutcome } from '../metrics/gateway-metrics';
import { requestFingerprint } from '../idempotency/request-fingerprint';
import type { AuthenticatedMerchant } from '../merchants/merchant-auth.service';
import { pixTxid } from '../providers/pix-api/txid';
import { CredentialsError, type ProviderCharge, UpstreamError } from '../providers/provider-adapter';
import { MerchantProviderAccountRepository } from '../providers/provider-accounts/provider-account.repository';
import { AccountTarget, ProviderAccountsService } from '../providers/provider-accounts/provider-accounts.service';
import type { CreatePaymentDto } from './dto/create-payment.dto';
import type { CreateRequestContext } from './create-request.decorator';
import { Payment } from './payment.entity';
import { PaymentRepository } from './payment.repository';
import { toPaymentView, PaymentView } from './payment.view';
import { renderQrPngDataUrl } from './qr-png';
import { upstreamToAppError } from '../providers/upstream-errors';

/** Where a payment is charged: an account (stored or built-in), and how its txid is chosen. */
interface ChargeTarget extends AccountTarget {
  txid(claim: IdempotencyClaim, idempotencyKey: string): string;
}

/** Printable ASCII, 1–255 characters (docs/api.md, Idempotency). */
const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,255}$/;

@Injectable()
export class PaymentsService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly config: AppConfig,
    private readonly idempotency: IdempotencyService,
    private readonly metrics: GatewayMetrics,
    private readonly accounts: ProviderAccountsService,
    private readonly accountLists: MerchantProviderAccountRepository,
  ) {}

  /**
   * Creates a Pix payment at the merchant's provider, exactly once per Idempotency-Key. The
   * response is stored with the completed idempotency record and the payment row in one
   * statement, so a replay returns byte for byte what the first request returned.
   */
  async create(merchant: AuthenticatedMerchant, dto: CreatePaymentDto, request: CreateRequestContext): Promise<PreparedResponse> {
    const key = request.idempotencyKey;
    if (key === undefined || !IDEMPOTENCY_KEY.test(key)) {
      throw AppError.validation([
        { field: 'Idempotency-Key', message: key === undefined ? 'The Idempotency-Key header is required' : 'Idempotency-Key must be 1 to 255 printable ASCII characters' },
      ]);
    }
    const amountCents = this.amountInCents(dto.amount);
    const target = await this.target(merchant);
    const provider = target.adapter;

    const outcome = await this.idempotency.begin(merchant.id, key, requestFingerprint('POST', request.path, request.body), request.path);
    if (outcome.kind === 'replay') {
      this.count(provider.name, 'replayed');
      return outcome.response;
    }
    const claim = outcome.claim;

    const txid = target.txid(claim, key);
    let charge: ProviderCharge;
    try {
      charge = await this.metrics.timeProviderCall(target.metricsLabel, 'create_charge', () =>
        provider.createCharge(target.ref, {
          paymentId: claim.paymentId,
          txid,
          amountCents,
          currency: 'BRL',
          description: dto.description ?? null,
          externalId: dto.externalId,
          debtor: { document: normaliseDocument(dto.recipientDocument), name: dto.recipientName },
          expiresInSeconds: this.config.pixExpirySeconds,
          notificationUrl: target.notificationUrl,
        }),
      );
      if (charge.txid !== txid || charge.amountCents !== amountCents) {
        throw new UpstreamError({ kind: 'malformed', message: `Provider answered for txid ${charge.txid} / ${charge.amountCents} centavos` });
      }
    } catch (error) {
      this.count(provider.name, 'failed');
      await this.idempotency.release(claim);
      if (error instanceof UpstreamError) throw upstreamToAppError(ErrorCode.PAYMENT_CREATE_FAILED, error, provider.name);
      if (error instanceof CredentialsError) {
        throw new AppError(ErrorCode.PAYMENT_CREATE_FAILED, { message: `The provider account's credentials can no longer be used (${error.field}): ${error.message}` });
      }
      throw error;
    }

    try {
      return await this.complete(claim, target, charge, dto, amountCents, request.requestId);
    } catch (error) {
      this.count(provider.name, 'failed');
      await this.idempotency.release(claim);
      throw error;
    }
  }

  /** The merchant's own payment; anyone else's, or an id of the wrong shape, is NOT_FOUND. */
  async get(merchantId: string, id: string): Promise<PaymentView> {
    if (!hasIdShape(id, 'pay')) throw AppError.notFound('Payment not found.');
    const payment = await this.payments.findForMerchant(merchantId, id);
    if (!payment) throw AppError.notFound('Payment not found.');
    return toPaymentView(payment);
  }

  /**
   * Where this merchant's payments are charged: its first active provider account (docs/providers.md;
   * falling back across several accounts comes with routing), or, with no accounts, its provider's
   * built-in account, as before accounts existed.
   */
  private async target(merchant: AuthenticatedMerchant): Promise<ChargeTarget> {
    const accountIds = await this.accountLists.listForMerchant(merchant.id);
    for (const accountId of accountIds) {
      const resolved = await this.accounts.resolveIfActive(accountId).catch((error: unknown) => {
        this.count(merchant.provider ?? this.config.defaultProvider, 'failed');
        if (error instanceof AppError && error.code === ErrorCode.UPSTREAM_ERROR) throw new AppError(ErrorCode.PAYMENT_CREATE_FAILED, { message: error.message });
        throw error;
      });
      if (!resolved) continue;
      const account = resolved.account;
      // The PSP's idempotency key, derived from what identifies the request: a retry, even one
      // whose idempotency record was lost, asks this account for the same charge.
      return { ...this.accounts.target(resolved), txid: (_claim, key) => pixTxid(merchant.id, key, account.id) };
    }
    const providerName = merchant.provider ?? this.config.defaultProvider;
    const builtIn = this.accounts.builtIn(providerName);
    if (!builtIn) {
      this.count(providerName, 'failed');
      throw new AppError(ErrorCode.PAYMENT_CREATE_FAILED, { message: `The payment provider "${providerName}" is not available on this gateway.` });
    }
    return { ...builtIn, txid: (claim) => claim.txid };
  }

  private count(provider: string, outcome: PaymentCreateOutcome): void {
    this.metrics.paymentsCreated.inc({ provider, outcome });
  }

  private amountInCents(amount: number): number {
    const cents = reaisToCents(amount);
    if (cents === undefined || cents <= 0) throw AppError.validation([{ field: 'amount', message: 'amount must be greater than 0 with at most 2 decimal places' }]);
    if (cents > this.config.maxAmountCents) {
      throw AppError.validation([{ field: 'amount', message: `amount must be at most ${(this.config.maxAmountCents / 100).toFixed(2)}` }]);
    }
    return cents;
  }

  private async complete(
    claim: IdempotencyClaim,
    target: ChargeTarget,
    charge: ProviderCharge,
    dto: CreatePaymentDto,
    amountCents: number,
    requestId: string,
  ): Promise<PreparedResponse> {
    const now = new Date();
    const payment = Object.assign(new Payment(), {
      id: claim.paymentId,
      merchantId: claim.merchantId,
      status: charge.status,
      amountCents,
      currency: 'BRL',
      description: dto.description ?? null,
      externalId: dto.externalId,
      recipientDocument: normaliseDocument(dto.recipientDocument),
      recipientName: dto.recipientName,
      method: 'pix',
      provider: target.adapter.name,
      providerPaymentId: charge.providerPaymentId,
      txid: charge.txid,
      pixCopyPaste: charge.copyPaste,
      pixQrPng: renderQrPngDataUrl(charge.copyPaste),
      expiresAt: charge.expiresAt,
      paidAt: charge.paidAt,
      providerAccountId: target.accountId,
      endToEndId: charge.pix?.endToEndId ?? null,
      paidAmountCents: charge.pix?.paidAmountCents ?? null,
      payerName: charge.pix?.payer?.name ?? null,
      payerDocumentMasked: charge.pix?.payer?.documentMasked ?? null,
      createdAt: now,
      updatedAt: now,
    } satisfies Payment);
    const provider = target.adapter.name;
    const body = JSON.stringify(successEnvelope(toPaymentView(payment), requestId, provider));

    // The record completes (only for the attempt that still holds it) and the payment is written, or neither happens.
    const inserted = await this.payments.insertCompletingClaim(payment, claim, body);
    if (!inserted) {
      this.count(provider, 'replayed');
      return this.idempotency.replayOrInProgress(claim);
    }
    this.count(provider, 'created');
    return new PreparedResponse(201, body, { 'content-type': 'application/json; charset=utf-8' });
  }
}
