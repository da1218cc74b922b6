import { Injectable } from '@nestjs/common';
import { Clock } from '../../domain/clock';
import { SecretBox } from '../../common/crypto/secret-box';
import { AppError } from '../../common/errors/app-error';
import { hasIdShape } from '../../common/ids';
import { AppConfig } from '../../config/app-config';
import { ChangeFeed, LiveCache } from '../../database/change-feed';
import { type Account, type AccountEnvironment, type AccountSettings, CredentialsError, type ProviderAdapter } from '../provider-adapter';
import { ProviderAdapters } from '../provider-registry';
import { AccountUnusableError } from '../provider-errors';
import type { ReceiverAccount } from '../recurring';
import { AccountBreakers } from '../routing/account-breakers';
import { ParsedCredentialsCache } from './parsed-credentials-cache';
import { ProviderAccount } from './provider-account.entity';
import { MerchantProviderAccountRepository, ProviderAccountRepository } from './provider-account.repository';

/**
 * The account a call acts for (docs/providers.md, The account a call acts for): a stored provider
 * account, or a provider's built-in account, with everything the core needs to call its adapter.
 */
export interface ActingAccount {
  adapter: ProviderAdapter;
  /** What the adapter receives: the account's settings and its credentials, opened and parsed. */
  account: Account;
  /** The stored account's id (a payment's provider_account_id); null for a provider's built-in account. */
  accountId: string | null;
  /** The provider that handles calls through this account (the envelope's `provider`, `payments.provider`). */
  provider: string;
  /** `sandbox` for a PSP's homologation host and for the built-in simulated PSP. */
  environment: AccountEnvironment;
  /** Where the PSP posts this account's events. */
  notificationUrl: string;
  /** The `account` label of provider-call metrics: the account's id, or the provider's name for its built-in account. */
  metricsLabel: string;
  /**
   * Where the account's recurring charges settle (the Pix API's `recebedor` of every `/cobr`), as the
   * operator set it; null until set, and always null for a provider's built-in account (a test PSP,
   * which needs none). Read from the row the lookup cache holds, so a PATCH is seen like any other change.
   */
  receiverAccount: Readonly<ReceiverAccount> | null;
}

/**
 * One entry of a merchant's route: an account to charge through, or a listed account the gateway
 * cannot act through (credentials, homologation in production), which routing records and skips.
 */
export type RouteStep = { acting: ActingAccount } | { unusable: AccountUnusableError; environment: AccountEnvironment };

/** Only the columns the resolver needs from a merchant. */
export interface MerchantRouting {
  id: string;
  /** The merchant's own provider (its built-in account) when it lists no accounts; null for DEFAULT_PROVIDER. */
  provider: string | null;
}

/**
 * The one way the core finds the account a call acts for: a merchant's charge, a payment's reads,
 * a callback, an operator's action. Credentials are opened here, once per version of the row.
 */
@Injectable()
export class AccountResolver {
  /** The last parse of each account's credentials, reused for the same version of the row while its certificate is valid. */
  private readonly parsedCredentials = new ParsedCredentialsCache();
  /** Each merchant's account ids, and the account rows, kept while the ChangeFeed is live (docs/architecture.md, Lookup caches). */
  private readonly routeIds: LiveCache<string, string[]>;
  private readonly rows: LiveCache<string, ProviderAccount | null>;

  constructor(
    private readonly accounts: ProviderAccountRepository,
    private readonly accountLists: MerchantProviderAccountRepository,
    private readonly adapters: ProviderAdapters,
    private readonly secrets: SecretBox,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly breakers: AccountBreakers,
    changes: ChangeFeed,
  ) {
    this.routeIds = new LiveCache(changes, ['merchant_provider_accounts'], { ttlMs: 60_000, maxEntries: 10_000 });
    // Unknown ids are not kept: a callback's URL names any id it likes.
    this.rows = new LiveCache(changes, ['provider_accounts'], { ttlMs: 60_000, maxEntries: 10_000, keep: (row) => row !== null });
  }

  /**
   * Where a merchant's payments are charged, in routing order (docs/providers.md, Routing): its
   * active provider accounts as listed, else its provider's built-in account (one step). Throws
   * AccountUnusableError only when there is nothing to try at all.
   */
  async routeForMerchant(merchant: MerchantRouting): Promise<RouteStep[]> {
    const steps: RouteStep[] = [];
    for (const accountId of await this.routeIds.get(merchant.id, () => this.accountLists.listForMerchant(merchant.id))) {
      const account = await this.row(accountId);
      if (!account?.active) continue;
      try {
        steps.push({ acting: this.usable(account) });
      } catch (error) {
        if (!(error instanceof AccountUnusableError)) throw error;
        steps.push({ unusable: error, environment: account.environment });
      }
    }
    if (steps.length === 0) return [{ acting: this.builtInOrUnusable(merchant.provider ?? this.config.defaultProvider) }];
    return steps;
  }

  /** A stored account a merchant's payments may be charged through: open, and allowed in this environment. */
  private usable(account: ProviderAccount): ActingAccount {
    if (!this.environmentAllowed(account.environment)) {
      throw new AccountUnusableError(
        'homologation_in_production',
        account.id,
        account.provider,
        `The provider account ${account.id} is on the PSP's homologation host (environment sandbox), which production refuses unless ALLOW_HOMOLOGATION_ACCOUNTS=true.`,
      );
    }
    return this.open(account);
  }

  /** What a payment was charged through, to read it back or act on it: its stored account (active or not), else its provider's built-in account. */
  async forPayment(payment: { provider: string; providerAccountId: string | null }): Promise<ActingAccount> {
    if (payment.providerAccountId === null) return this.builtInOrUnusable(payment.provider);
    const account = await this.row(payment.providerAccountId);
    if (!account)
      throw new AccountUnusableError('provider_unavailable', payment.providerAccountId, payment.provider, `The provider account ${payment.providerAccountId} no longer exists.`);
    return this.open(account);
  }

  /**
   * The account a callback names: with an id, an active stored account under the provider its URL
   * names; without one, the provider's built-in account. Anything else is 404 before any PSP is
   * asked, so an unknown or retired account costs no PSP read and a URL cannot borrow another
   * provider's account.
   */
  async forCallback(provider: string, accountId?: string): Promise<ActingAccount> {
    if (accountId === undefined) {
      const builtIn = this.builtIn(provider);
      if (!builtIn) throw AppError.notFound(`No provider named "${provider}".`);
      return builtIn;
    }
    const account = await this.row(accountId);
    if (account?.provider !== provider || !account.active) throw AppError.notFound('No such provider account.');
    return this.open(account);
  }

  /** A stored account by id, active or not (the operator's check and webhook registration); unknown ids are NOT_FOUND. */
  async byId(id: string): Promise<ActingAccount> {
    const account = await this.row(id);
    if (!account) throw AppError.notFound('Provider account not found.');
    return this.open(account);
  }

  /** Providers a merchant with no accounts can be charged through: those with a built-in account. */
  builtInProviders(): string[] {
    return this.adapters.builtInNames();
  }

  hasBuiltIn(provider: string): boolean {
    return this.adapters.builtIn(provider) !== undefined;
  }

  /** Where the PSP must post this account's events. */
  webhookUrl(account: Pick<ProviderAccount, 'id' | 'provider'>): string {
    return `${this.config.publicBaseUrl}/webhooks/${account.provider}/${account.id}`;
  }

  /** Production refuses homologation hosts unless ALLOW_HOMOLOGATION_ACCOUNTS says otherwise. */
  environmentAllowed(environment: AccountEnvironment): boolean {
    return environment === 'production' || !this.config.isProduction || this.config.allowHomologationAccounts;
  }

  /** A stored account's row (never changed by the caller: it may be shared through the cache). */
  private row(id: string): Promise<ProviderAccount | null> {
    if (!hasIdShape(id, 'pa')) return Promise.resolve(null);
    return this.rows.get(id, () => this.accounts.findById(id));
  }

  /** Forgets what was parsed for an account (it was deleted). */
  forget(accountId: string): void {
    this.parsedCredentials.delete(accountId);
    this.breakers.forget(accountId);
  }

  /** The provider's built-in account, or AccountUnusableError when the provider is unknown here or has none. */
  private builtInOrUnusable(provider: string): ActingAccount {
    const builtIn = this.builtIn(provider);
    if (!builtIn) throw new AccountUnusableError('provider_unavailable', null, provider, `The payment provider "${provider}" is not available on this gateway.`);
    return builtIn;
  }

  private builtIn(provider: string): ActingAccount | undefined {
    const builtIn = this.adapters.builtIn(provider);
    if (!builtIn) return undefined;
    return {
      adapter: builtIn.adapter,
      account: builtIn.ref,
      accountId: null,
      provider: builtIn.adapter.name,
      environment: builtIn.ref.environment,
      notificationUrl: `${this.config.publicBaseUrl}/webhooks/${provider}`,
      metricsLabel: provider,
      receiverAccount: null,
    };
  }

  /**
   * Opens and parses a stored account's credentials. Credentials that were valid when stored can stop
   * being usable (a certificate expires; the gateway runs with another SECRETS_KEY): that is
   * AccountUnusableError, which the API reports without the reason to anyone but the operator.
   */
  private open(row: ProviderAccount): ActingAccount {
    const adapter = this.adapters.find(row.provider);
    if (!adapter) throw new AccountUnusableError('provider_unavailable', row.id, row.provider, `The provider "${row.provider}" of account ${row.id} does not run on this gateway.`);
    const settings: AccountSettings = { environment: row.environment, baseUrl: row.baseUrl, tokenUrl: row.tokenUrl, pixKey: row.pixKey };
    let credentials = this.parsedCredentials.get(row, this.clock.now());
    if (credentials === undefined) {
      try {
        credentials = adapter.parseCredentials(JSON.parse(this.secrets.open(row.credentialsEnc)) as unknown, settings);
      } catch (error) {
        const reason = error instanceof CredentialsError ? `${error.field} ${error.message}` : 'its stored credentials cannot be opened with this SECRETS_KEY';
        throw new AccountUnusableError('credentials', row.id, row.provider, `The provider account ${row.id} cannot be used: ${reason}. Replace its credentials.`, { cause: error });
      }
      this.parsedCredentials.set(row, credentials, this.clock.now(), adapter.summarizeCredentials(credentials).certificateExpiresAt);
    }
    return {
      // Every PSP call of a stored account goes through its circuit breaker, whoever makes it.
      adapter: this.breakers.guard(row.id, adapter),
      account: { id: row.id, provider: row.provider, ...settings, credentials },
      accountId: row.id,
      provider: row.provider,
      environment: row.environment,
      notificationUrl: this.webhookUrl(row),
      metricsLabel: row.id,
      receiverAccount: row.receiverAccount,
    };
  }
}
