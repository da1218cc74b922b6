import type { AccountBreakers } from '../routing/account-breakers';
import type { Clock } from '../../domain/clock';
import type { SecretBox } from '../../common/crypto/secret-box';
import type { AppConfig } from '../../config/app-config';
import type { ProviderAdapters } from '../provider-registry';
import { newId } from '../../common/ids';
import { ChangeFeed } from '../../database/change-feed';
import { AccountResolver, type RouteStep } from './account-resolver';
import type { ProviderAccount } from './provider-account.entity';
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
      new ChangeFeed({ listen: () => Promise.reject(new Error('not listening')) }),
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

describe('AccountResolver.routeForMerchant', () => {
  const adapter = { name: 'pix-api', capabilities: { txid: 'gateway' }, parseCredentials: () => ({}), summarizeCredentials: () => ({}) };
  const row = (id: string, overrides: Partial<ProviderAccount> = {}) =>
    ({
      id,
      provider: 'pix-api',
      environment: 'production',
      active: true,
      baseUrl: null,
      tokenUrl: null,
      pixKey: null,
      receiverAccount: null,
      credentialsEnc: id,
      updatedAt: new Date(0),
      ...overrides,
    }) as ProviderAccount;
  const resolver = (listed: string[], rows: ProviderAccount[], isProduction = true) =>
    new AccountResolver(
      { findById: (id: string) => Promise.resolve(rows.find((r) => r.id === id) ?? null) } as unknown as ProviderAccountRepository,
      { listForMerchant: () => Promise.resolve(listed) } as unknown as MerchantProviderAccountRepository,
      { find: () => adapter, builtIn: () => ({ adapter: { name: 'sandbox' }, ref: { environment: 'sandbox' } }) } as unknown as ProviderAdapters,
      { open: () => '{}' } as unknown as SecretBox,
      { isProduction, allowHomologationAccounts: false, defaultProvider: 'sandbox', publicBaseUrl: 'https://pix.example' } as AppConfig,
      { now: () => new Date() },
      { guard: (_id: string, a: unknown) => a } as unknown as AccountBreakers,
      new ChangeFeed({ listen: () => Promise.reject(new Error('not listening')) }),
    );
  const ids = (steps: RouteStep[]) => steps.map((step) => ('acting' in step ? step.acting.accountId : `unusable:${step.unusable.accountId}`));
  const merchant = { id: 'mer_x', provider: null };
  const [pa_a, pa_b, pa_c, pa_gone, pa_off, pa_h, pa_p] = [newId('pa'), newId('pa'), newId('pa'), newId('pa'), newId('pa'), newId('pa'), newId('pa')];

  it('keeps the merchant’s order, leaving out inactive and unknown accounts', async () => {
    const steps = await resolver([pa_c, pa_a, pa_gone, pa_off, pa_b, 'not-an-id'], [row(pa_a), row(pa_b), row(pa_c), row(pa_off, { active: false })]).routeForMerchant(merchant);
    expect(ids(steps)).toEqual([pa_c, pa_a, pa_b]);
  });

  it('keeps an account production refuses as a step to record and skip', async () => {
    const steps = await resolver([pa_h, pa_p], [row(pa_h, { environment: 'sandbox' }), row(pa_p)]).routeForMerchant(merchant);
    expect(ids(steps)).toEqual([`unusable:${pa_h}`, pa_p]);
  });

  it('routes a merchant with no usable listing to its provider’s built-in account', async () => {
    const steps = await resolver([], []).routeForMerchant(merchant);
    expect(steps).toHaveLength(1);
    expect('acting' in steps[0]! && steps[0].acting).toMatchObject({ accountId: null, provider: 'sandbox' });
  });

  it('gives the stored account’s receiver account, or null when it has none; a built-in account has none', async () => {
    const receiver = { agencia: '0001', conta: '1234567', tipoConta: 'CORRENTE' } as const;
    const r = resolver([], [row(pa_a, { receiverAccount: receiver }), row(pa_b, { receiverAccount: null })]);
    expect((await r.byId(pa_a)).receiverAccount).toEqual(receiver);
    expect((await r.byId(pa_b)).receiverAccount).toBeNull();
    expect((await r.forCallback('sandbox')).receiverAccount).toBeNull();
  });
});
