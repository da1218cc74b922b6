import type { TestingModule } from '@nestjs/testing';
import { AppError } from '../../src/common/errors/app-error';
import { ErrorCode } from '../../src/common/errors/error-codes';
import { WebhookDeliveryRepository } from '../../src/deliveries/webhook-delivery.repository';
import { IdempotencyRecordRepository } from '../../src/idempotency/idempotency-record.repository';
import { IdempotencyService } from '../../src/idempotency/idempotency.service';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics';
import { PaymentRepository } from '../../src/payments/payment.repository';
import { RefundRepository } from '../../src/payments/refunds/refund.repository';
import { AccountResolver, type ActingAccount } from '../../src/providers/provider-accounts/account-resolver';
import type { ProviderAdapter } from '../../src/providers/provider-adapter';
import type { ProviderCapabilities } from '../../src/providers/provider-descriptor';
import { CancelService } from '../../src/payments/cancel.service';
import { RefundsService } from '../../src/payments/refunds/refunds.service';
import { EventWriter } from '../../src/payments/lifecycle/event-writer';
import { PaymentEventRepository } from '../../src/payments/lifecycle/payment-event.repository';
import { PaymentEventsService } from '../../src/payments/lifecycle/payment-events.service';
import { RefundEventsService } from '../../src/payments/refunds/refund-events.service';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { PaymentViews } from '../../src/payments/payment-views';

/**
 * A PSP that cannot refund, refunds only whole payments, or cannot cancel (what an adapter's
 * `descriptor.capabilities` say): the answer is a clear 422 OPERATION_NOT_SUPPORTED, never a pretended
 * success, and nothing is stored. Every adapter in the gateway today does all three, so the PSP
 * here is an adapter that declares less, behind the one resolver the services ask.
 */
describe('refunds and cancels a provider cannot do (RefundsService, CancelService)', () => {
  let ctx: MediumContext;
  let capabilities: ProviderCapabilities;
  const calls: string[] = [];
  const adapter = {
    name: 'limited',
    get descriptor() {
      return { capabilities };
    },
    refund: async (_account: unknown, request: { refundId: string; amountCents: number }) => {
      calls.push('refund');
      return { refundId: request.refundId, providerRefundId: 'L1', status: 'pending' as const, amountCents: request.amountCents, failureReason: null };
    },
    cancelCharge: async () => {
      calls.push('cancel');
      throw new Error('not reached');
    },
  } as unknown as ProviderAdapter;
  const acting = { adapter, account: {}, accountId: null, provider: 'limited', environment: 'sandbox', notificationUrl: '', metricsLabel: 'limited' } as unknown as ActingAccount;
  let units: TestingModule;
  beforeAll(async () => {
    ctx = await newMediumContext();
    units = await ctx.module([
      RefundsService,
      CancelService,
      PaymentViews,
      { provide: AccountResolver, useValue: { forPayment: async () => acting } },
      PaymentRepository,
      RefundRepository,
      IdempotencyService,
      IdempotencyRecordRepository,
      PaymentEventsService,
      EventWriter,
      RefundEventsService,
      PaymentEventRepository,
      WebhookDeliveryRepository,
      GatewayMetrics,
    ]);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  const request = (key: string) => ({ key, path: '/v1/payments/pay_x/refunds', fingerprint: 'an empty body', requestId: 'req' });
  const codeOf = (call: Promise<unknown>) =>
    call.then(
      () => 'ok',
      (error: unknown) => (error instanceof AppError ? error.code : String(error)),
    );
  const refundsCount = async () => Number((await ctx.dataSource.query('SELECT count(*) AS n FROM refunds'))[0].n);
  const base: ProviderCapabilities = { refund: true, partialRefund: true, cancel: true, registerWebhook: false, txid: 'gateway' };

  it('answers 422 OPERATION_NOT_SUPPORTED for a refund, a partial refund or a cancel the PSP cannot do, storing nothing', async () => {
    const shop = await ctx.newMerchant();
    const paid = await ctx.newPayment(shop.merchant.id, { status: 'paid', provider: 'limited', amountCents: 1000 });
    const pending = await ctx.newPayment(shop.merchant.id, { provider: 'limited' });
    const refunds = units.get(RefundsService);

    capabilities = { ...base, refund: false };
    expect(await codeOf(refunds.create(shop.merchant.id, paid.id, {}, request('k1')))).toBe(ErrorCode.OPERATION_NOT_SUPPORTED);
    capabilities = { ...base, partialRefund: false };
    expect(await codeOf(refunds.create(shop.merchant.id, paid.id, { amount: 4 }, request('k2')))).toBe(ErrorCode.OPERATION_NOT_SUPPORTED);
    capabilities = { ...base, cancel: false };
    expect(await codeOf(units.get(CancelService).cancel(shop.merchant.id, pending.id, 'req'))).toBe(ErrorCode.OPERATION_NOT_SUPPORTED);
    expect(calls).toEqual([]);
    expect(await refundsCount()).toBe(0);
    expect(await units.get(IdempotencyRecordRepository).find(shop.merchant.id, 'k2')).toBeNull();

    // Whole refunds it can do.
    capabilities = { ...base, partialRefund: false };
    expect(await codeOf(refunds.create(shop.merchant.id, paid.id, {}, request('k3')))).toBe('ok');
    expect(calls).toEqual(['refund']);
  });
});
