import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-codes';
import type { PreparedResponse } from '../../common/http/envelope';
import { AppConfig } from '../../config/app-config';
import { MerchantRepository } from '../../merchants/merchant.repository';
import { AccountResolver, type RouteStep } from '../../providers/provider-accounts/account-resolver';
import { AccountUnusableError } from '../../providers/provider-errors';
import type { IdempotentRequest } from '../../idempotency/idempotent-request';
import type { CreatePaymentDto } from '../dto/create-payment.dto';
import type { CreateTestPaymentDto } from './dto/create-test-payment.dto';
import { PaymentsService } from '../payments.service';

/**
 * Who pays a test payment (docs/dashboard.md, Test mode): a fixed, valid test CPF and a name that
 * says what it is, so a test payment is never addressed to a real person.
 */
export const TEST_PAYER = { document: '12345678909', name: 'Test payer' } as const;

/** The test payer's address, sent with a due-date test payment as a biller would send its payer's (docs/due-charges.md). */
export const TEST_PAYER_ADDRESS = { street: 'Rua de Teste, 100', city: 'São Paulo', state: 'SP', zip: '01001000' } as const;

/**
 * The dashboard's "create a test payment": a payment made for a merchant exactly as its API would
 * make it (routing, idempotency, the merchant's webhooks), but only where no real money can move:
 * never in production, and only when every account on the merchant's route is a test one (the
 * built-in simulated PSP or a PSP's homologation host).
 */
@Injectable()
export class AdminTestPaymentsService {
  constructor(
    private readonly config: AppConfig,
    private readonly merchants: MerchantRepository,
    private readonly accounts: AccountResolver,
    private readonly payments: PaymentsService,
  ) {}

  async create(dto: CreateTestPaymentDto, request: IdempotentRequest): Promise<PreparedResponse> {
    if (this.config.isProduction) throw new AppError(ErrorCode.FORBIDDEN, { message: 'Test payments cannot be created in production.' });
    const found = await this.merchants.findSummary(dto.merchantId);
    if (!found) throw AppError.notFound('Merchant not found.');
    const { merchant } = found;
    if (!merchant.active) throw new AppError(ErrorCode.CONFLICT, { message: `The merchant ${merchant.id} is inactive: its payments are refused.` });
    let route: RouteStep[];
    try {
      route = await this.accounts.routeForMerchant(merchant);
    } catch (error) {
      if (error instanceof AccountUnusableError) throw new AppError(ErrorCode.CONFLICT, { message: `The merchant's provider cannot be used: ${error.message}` });
      throw error;
    }
    const live = route.map(describeStep).find((step) => step.environment !== 'sandbox');
    if (live) {
      throw new AppError(ErrorCode.CONFLICT, {
        message: `The merchant's route includes ${live.name}, a production account: test payments go only through test PSPs (the sandbox, or a PSP's homologation host).`,
      });
    }
    const key = request.key;
    const body: CreatePaymentDto = {
      amount: dto.amount,
      currency: 'BRL',
      description: dto.description ?? null,
      recipientDocument: TEST_PAYER.document,
      recipientName: TEST_PAYER.name,
      // The same key gives the same order id, so a replay is the same request.
      externalId: key === undefined ? 'test' : `test-${createHash('sha256').update(key).digest('hex').slice(0, 24)}`,
      ...(dto.due ? { due: dto.due, recipientAddress: { ...TEST_PAYER_ADDRESS } } : {}),
    };
    return this.payments.create({ id: merchant.id, name: merchant.name, provider: merchant.provider, apiKeyId: 'dashboard' }, body, request);
  }
}

function describeStep(step: RouteStep): { name: string; environment: string } {
  if ('acting' in step) return { name: step.acting.accountId ?? `the built-in ${step.acting.provider} account`, environment: step.acting.account.environment };
  return { name: step.unusable.accountId ?? step.unusable.provider, environment: step.environment };
}
