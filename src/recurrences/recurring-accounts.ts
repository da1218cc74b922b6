import { Injectable, Logger } from '@nestjs/common';
import type { AuthenticatedMerchant } from '../auth/merchant-key-resolver';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { AppConfig } from '../config/app-config';
import { AccountResolver, type ActingAccount } from '../providers/provider-accounts/account-resolver';
import { type FailureContext, rethrowProviderFailure } from '../providers/provider-errors';
import { supports } from '../providers/capabilities';
import type { ReceiverAccount, RecurringProvider } from '../providers/recurring';
import type { Recurrence } from './recurrence.entity';

/** The built-in test account's `recebedor`: the simulated PSP needs one, and no merchant has to configure it. */
const TEST_RECEIVER: ReceiverAccount = { agencia: '0001', conta: '1234567', tipoConta: 'CORRENTE' };

/** An account able to take recurrences, with its Pix Automático side. */
export interface RecurringAccount {
  acting: ActingAccount;
  recurring: RecurringProvider;
}

/** Which account a recurrence is made at, acts through, and settles its charges to. */
@Injectable()
export class RecurringAccounts {
  private readonly logger = new Logger('Recurrences');

  constructor(
    private readonly accounts: AccountResolver,
    private readonly config: AppConfig,
  ) {}

  /**
   * The first of the merchant's accounts whose provider offers Pix Automático. A recurrence lives
   * there for good: no routing, no failover. None: 422 naming the provider.
   */
  async forMerchant(merchant: AuthenticatedMerchant): Promise<RecurringAccount> {
    const route = await this.accounts
      .routeForMerchant(merchant)
      .catch((error: unknown) =>
        rethrowProviderFailure(error, { audience: 'merchant', operation: 'create', provider: merchant.provider ?? this.config.defaultProvider, logger: this.logger }),
      );
    for (const step of route) {
      if (!('acting' in step)) continue;
      const { adapter } = step.acting;
      if (supports(adapter, 'recurring')) {
        this.receiverOf(step.acting);
        return { acting: step.acting, recurring: adapter.recurring };
      }
    }
    const names = [...new Set(route.map((step) => ('acting' in step ? step.acting.provider : step.unusable.provider)))];
    throw new AppError(ErrorCode.VALIDATION_ERROR, {
      status: 422,
      details: { fields: [{ field: 'provider', message: `None of the merchant's providers (${names.join(', ') || 'none'}) offers Pix Automático through this gateway.` }] },
      message: 'The merchant has no provider account that takes recurrences.',
    });
  }

  /** The account a recurrence lives at, still offering Pix Automático. */
  async of(recurrence: Recurrence): Promise<RecurringAccount> {
    const acting = await this.accounts
      .forPayment({ provider: recurrence.provider, providerAccountId: recurrence.providerAccountId })
      .catch((error: unknown) =>
        rethrowProviderFailure(error, { audience: 'merchant', operation: 'call', provider: recurrence.provider, accountId: recurrence.providerAccountId, logger: this.logger }),
      );
    if (!supports(acting.adapter, 'recurring')) {
      throw new AppError(ErrorCode.OPERATION_NOT_SUPPORTED, { message: `The provider ${recurrence.provider} no longer offers Pix Automático.` });
    }
    return { acting, recurring: acting.adapter.recurring };
  }

  /** The account's `recebedor`: a stored account must have one before its first recurrence. */
  receiverOf(acting: ActingAccount): ReceiverAccount {
    if (acting.accountId === null) return acting.receiverAccount ?? TEST_RECEIVER;
    if (!acting.receiverAccount) {
      throw AppError.validation([
        { field: 'receiver_account', message: `Provider account ${acting.accountId} needs its receiver_account (agencia, conta, tipoConta) before it takes recurrences.` },
      ]);
    }
    return acting.receiverAccount;
  }
}

/** A provider failure of a call made for a recurrence, as the merchant is told of it. */
export function callFailure(acting: ActingAccount, logger: Logger, action: string): FailureContext {
  return { audience: 'merchant', operation: 'call', action, provider: acting.provider, accountId: acting.accountId, logger };
}

export function stateConflict(message: string): AppError {
  return new AppError(ErrorCode.PAYMENT_STATE_CONFLICT, { message });
}
