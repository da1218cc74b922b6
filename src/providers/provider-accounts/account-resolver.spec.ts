import type { AccountBreakers } from '../routing/account-breakers';
import type { Clock } from '../../domain/clock';
import type { SecretBox } from '../../common/crypto/secret-box';
import type { AppConfig } from '../../config/app-config';
import type { ProviderAdapters } from '../provider-adapters';
import { AccountResolver } from './account-resolver';
import type { MerchantProviderAccountRepository, ProviderAccountRepository } from './provider-account.repository';

describe('AccountResolver.environmentAllowed', () => {
  const resolver = (config: Pick<AppConfig, 'isProduction' | 'allowHomologationAccounts'>) =>
    new AccountResolver(
      {} as ProviderAccountRepository,
      {} as MerchantProviderAccountRepository,
      {} as ProviderAdapters,
      {} as SecretBox,
      config as AppConfig,
      {} as Clock,
      {} as AccountBreakers,
    );

  it.each([
    [false, false, 'sandbox', true],
    [true, false, 'sandbox', false],
    [true, true, 'sandbox', true],
    [true, false, 'production', true],
  ] as const)('production %s, ALLOW_HOMOLOGATION_ACCOUNTS %s: %s accounts allowed: %s', (isProduction, allowHomologationAccounts, environment, allowed) => {
    expect(resolver({ isProduction, allowHomologationAccounts }).environmentAllowed(environment)).toBe(allowed);
  });
});
