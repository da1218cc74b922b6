import { Injectable } from '@nestjs/common';
import { Clock } from '../../domain/clock';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-codes';
import { SecretBox } from '../../common/crypto/secret-box';
import { hasIdShape, newId } from '../../common/ids';
import { AppConfig } from '../../config/app-config';
import { UpstreamError } from '../provider-adapter';
import { AccountSettings, CredentialsError, ProviderAdapter, Account } from '../provider-adapter';
import { ProviderAdapters } from '../provider-adapters';
import { upstreamToAppError } from '../upstream-errors';
import type { CreateProviderAccountDto, UpdateProviderAccountDto } from './dto/provider-account.dto';
import { ProviderAccount } from './provider-account.entity';
import { ProviderAccountRepository } from './provider-account.repository';
import { ParsedCredentialsCache } from './parsed-credentials-cache';
import type { ProviderAccountCheckView, ProviderAccountView, ProviderAccountWebhookView } from './provider-account.view';

/** An account ready for its adapter: the row, the adapter, and the credentials opened and parsed. */
export interface ResolvedAccount {
  account: ProviderAccount;
  adapter: ProviderAdapter;
  ref: Account;
}

/**
 * What a payment is charged at, read back through, or a callback received for: a stored account, or
 * a provider's built-in account (merchants with no provider accounts; docs/providers.md).
 */
export interface AccountTarget {
  adapter: ProviderAdapter;
  ref: Account;
  /** The stored account's id (a payment's provider_account_id); null for a built-in account. */
  accountId: string | null;
  /** Where the PSP posts this account's events. */
  notificationUrl: string;
  /** The `account` label of provider-call metrics: the account's id, or the provider's name for its built-in account. */
  metricsLabel: string;
}

/**
 * Provider accounts (docs/providers.md): credentials checked for shape by their adapter before
 * anything is stored, sealed with SECRETS_KEY, never returned or logged; only their summary is shown.
 */
@Injectable()
export class ProviderAccountsService {
  /** The last parse of each account's credentials, reused for the same version of the row while its certificate is valid. */
  private readonly parsedCredentials = new ParsedCredentialsCache();

  constructor(
    private readonly accounts: ProviderAccountRepository,
    private readonly adapters: ProviderAdapters,
    private readonly secrets: SecretBox,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async create(dto: CreateProviderAccountDto): Promise<ProviderAccountView> {
    const adapter = this.adapterFor(dto.provider);
    const settings: AccountSettings = { environment: dto.environment ?? 'sandbox', baseUrl: dto.base_url ?? null, tokenUrl: dto.token_url ?? null, pixKey: dto.pix_key ?? null };
    const credentials = parsed(adapter, dto.credentials, settings);
    const now = new Date();
    const account = Object.assign(new ProviderAccount(), {
      id: newId('pa'),
      name: dto.name,
      provider: adapter.name,
      ...settingsColumns(settings),
      active: true,
      credentialsEnc: this.secrets.seal(JSON.stringify(dto.credentials)),
      credentialsSummary: adapter.summarizeCredentials(credentials),
      createdAt: now,
      updatedAt: now,
    } satisfies ProviderAccount);
    await this.accounts.insert(account);
    return this.view(account);
  }

  async list(): Promise<ProviderAccountView[]> {
    return (await this.accounts.list()).map((account) => this.view(account));
  }

  async get(id: string): Promise<ProviderAccountView> {
    return this.view(await this.find(id));
  }

  /** Only the fields sent change; credentials are replaced whole and checked against the settings they will be used with. */
  async update(id: string, dto: UpdateProviderAccountDto): Promise<ProviderAccountView> {
    const account = await this.find(id);
    const adapter = this.adapterFor(account.provider);
    const settings: AccountSettings = {
      environment: account.environment,
      baseUrl: dto.base_url === undefined ? account.baseUrl : dto.base_url,
      tokenUrl: dto.token_url === undefined ? account.tokenUrl : dto.token_url,
      pixKey: dto.pix_key === undefined ? account.pixKey : dto.pix_key,
    };
    const input = dto.credentials ?? this.storedCredentials(account);
    const credentials = parsed(adapter, input, settings);
    Object.assign(account, settingsColumns(settings), {
      name: dto.name ?? account.name,
      active: dto.active ?? account.active,
      credentialsSummary: adapter.summarizeCredentials(credentials),
      updatedAt: new Date(),
      ...(dto.credentials ? { credentialsEnc: this.secrets.seal(JSON.stringify(dto.credentials)) } : {}),
    });
    return this.view(await this.accounts.save(account));
  }

  /** Obtains a token and makes one read at the PSP. Never throws for a PSP that fails: that is the answer. */
  async check(id: string): Promise<ProviderAccountCheckView> {
    let resolved: ResolvedAccount;
    try {
      resolved = await this.resolve(id);
    } catch (error) {
      if (error instanceof AppError && error.code === ErrorCode.UPSTREAM_ERROR) return { ok: false, latency_ms: 0, detail: error.message };
      throw error;
    }
    const { adapter, ref } = resolved;
    const health = await adapter.check(ref);
    return { ok: health.ok, latency_ms: health.latencyMs, detail: health.detail ?? null };
  }

  /** Registers the account's webhook URL at the PSP; a PSP that refuses is 502 UPSTREAM_ERROR. */
  async registerWebhook(id: string): Promise<ProviderAccountWebhookView> {
    const { adapter, ref, account } = await this.resolve(id);
    if (!adapter.registerWebhook) {
      throw new AppError(ErrorCode.CONFLICT, { message: `The provider "${adapter.name}" has no webhook registration: configure it at the provider.` });
    }
    const url = this.webhookUrl(account);
    try {
      await adapter.registerWebhook(ref, url);
    } catch (error) {
      if (error instanceof UpstreamError) throw upstreamToAppError(ErrorCode.UPSTREAM_ERROR, error, adapter.name);
      throw error;
    }
    return { registered: true, webhook_url: url };
  }

  /**
   * The account as its adapter uses it: credentials opened and parsed. Unknown ids are NOT_FOUND.
   * Credentials that were valid when stored can stop being usable (a certificate expires; the
   * gateway runs with another SECRETS_KEY): that is 502 UPSTREAM_ERROR naming the account and the
   * reason, never a 500, and the operator replaces the credentials.
   */
  async resolve(id: string): Promise<ResolvedAccount> {
    return this.open(await this.find(id));
  }

  /** The account if it exists and is active (routing skips inactive ones); its credentials parsed. */
  async resolveIfActive(id: string): Promise<ResolvedAccount | null> {
    const account = hasIdShape(id, 'pa') ? await this.accounts.findById(id) : null;
    return account?.active ? this.open(account) : null;
  }

  /**
   * The account a callback names, under the provider its URL names: anything else is 404, so a URL
   * cannot borrow another provider's account. Inactive accounts still take callbacks: their
   * payments keep being confirmed after routing stops choosing them.
   */
  async resolveForCallback(provider: string, id: string): Promise<ResolvedAccount> {
    const account = hasIdShape(id, 'pa') ? await this.accounts.findById(id) : null;
    if (account?.provider !== provider) throw AppError.notFound('No such provider account.');
    return this.open(account);
  }

  /** Opens and parses a loaded account's credentials (see resolve for what an unusable one answers). */
  private open(account: ProviderAccount): ResolvedAccount {
    const adapter = this.adapterFor(account.provider);
    const settings: AccountSettings = { environment: account.environment, baseUrl: account.baseUrl, tokenUrl: account.tokenUrl, pixKey: account.pixKey };
    const cached = this.parsedCredentials.get(account, this.clock.now());
    if (cached !== undefined) return { account, adapter, ref: { id: account.id, provider: account.provider, ...settings, credentials: cached } };
    let credentials: unknown;
    try {
      credentials = adapter.parseCredentials(this.storedCredentials(account), settings);
    } catch (error) {
      const reason = error instanceof CredentialsError ? `${error.field} ${error.message}` : 'its stored credentials cannot be opened with this SECRETS_KEY';
      throw new AppError(ErrorCode.UPSTREAM_ERROR, { message: `The provider account ${account.id} cannot be used: ${reason}. Replace its credentials.`, cause: error });
    }
    this.parsedCredentials.set(account, credentials, this.clock.now(), adapter.summarizeCredentials(credentials).certificateExpiresAt);
    return { account, adapter, ref: { id: account.id, provider: account.provider, ...settings, credentials } };
  }

  /** A resolved stored account as a target. */
  target(resolved: ResolvedAccount): AccountTarget {
    const { adapter, ref, account } = resolved;
    return { adapter, ref, accountId: account.id, notificationUrl: this.webhookUrl(account), metricsLabel: account.id };
  }

  /** The provider's built-in account, or undefined when the provider is unknown here or has none. */
  builtIn(provider: string): AccountTarget | undefined {
    const builtIn = this.adapters.builtIn(provider);
    if (!builtIn) return undefined;
    return { ...builtIn, accountId: null, notificationUrl: `${this.config.publicBaseUrl}/webhooks/${provider}`, metricsLabel: provider };
  }

  /** What a payment was charged at: its stored account (active or not), else its provider's built-in account. */
  async forPayment(payment: { provider: string; providerAccountId: string | null }): Promise<AccountTarget | undefined> {
    return payment.providerAccountId === null ? this.builtIn(payment.provider) : this.target(await this.resolve(payment.providerAccountId));
  }

  /** Where the PSP must post this account's events. */
  webhookUrl(account: Pick<ProviderAccount, 'id' | 'provider'>): string {
    return `${this.config.publicBaseUrl}/webhooks/${account.provider}/${account.id}`;
  }

  private async find(id: string): Promise<ProviderAccount> {
    const account = hasIdShape(id, 'pa') ? await this.accounts.findById(id) : null;
    if (!account) throw AppError.notFound('Provider account not found.');
    return account;
  }

  private adapterFor(provider: string): ProviderAdapter {
    const adapter = this.adapters.find(provider);
    if (!adapter) {
      throw AppError.validation([{ field: 'provider', message: `provider must be one of: ${this.adapters.names().join(', ')}` }]);
    }
    return adapter;
  }

  private storedCredentials(account: ProviderAccount): unknown {
    return JSON.parse(this.secrets.open(account.credentialsEnc)) as unknown;
  }

  private view(account: ProviderAccount): ProviderAccountView {
    const summary = account.credentialsSummary;
    return {
      id: account.id,
      name: account.name,
      provider: account.provider,
      environment: account.environment,
      base_url: account.baseUrl,
      token_url: account.tokenUrl,
      pix_key: account.pixKey,
      active: account.active,
      webhook_url: this.webhookUrl(account),
      credentials_summary: {
        client_id: summary.clientId ?? null,
        certificate_subject: summary.certificateSubject ?? null,
        certificate_expires_at: summary.certificateExpiresAt ?? null,
      },
      created_at: account.createdAt.toISOString(),
      updated_at: account.updatedAt.toISOString(),
    };
  }
}

function settingsColumns(settings: AccountSettings): Pick<ProviderAccount, 'environment' | 'baseUrl' | 'tokenUrl' | 'pixKey'> {
  return { environment: settings.environment, baseUrl: settings.baseUrl, tokenUrl: settings.tokenUrl, pixKey: settings.pixKey };
}

/** The adapter's parse, with its field error as the API's 400. */
function parsed(adapter: ProviderAdapter, input: unknown, settings: AccountSettings): unknown {
  try {
    return adapter.parseCredentials(input, settings);
  } catch (error) {
    if (error instanceof CredentialsError) throw AppError.validation([{ field: error.field, message: error.message }]);
    throw error;
  }
}
