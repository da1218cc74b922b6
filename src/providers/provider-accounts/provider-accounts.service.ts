import { Injectable, Logger } from '@nestjs/common';
import { SecretBox } from '../../common/crypto/secret-box';
import { AppError, type FieldError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-codes';
import { hasIdShape, newId } from '../../common/ids';
import { WebhookUrlPolicy, WebhookUrlRejectedError } from '../../common/net/webhook-url-policy';
import { supports } from '../capabilities';
import { AccountSettings, CredentialsError, ProviderAdapter } from '../provider-adapter';
import { ProviderAdapters } from '../provider-registry';
import { AccountUnusableError, rethrowProviderFailure } from '../provider-errors';
import { AccountResolver, type ActingAccount } from './account-resolver';
import type { CreateProviderAccountDto, UpdateProviderAccountDto } from './dto/provider-account.dto';
import { ProviderAccount } from './provider-account.entity';
import { ProviderAccountRepository } from './provider-account.repository';
import { receiverAccountOf } from './receiver-account';
import { Clock } from '../../domain/clock';
import { AccountBreakers } from '../routing/account-breakers';
import { AccountFailureRepository } from '../routing/account-failures.repository';
import type { ProviderAccountCheckView, ProviderAccountView, ProviderAccountWebhookView } from './provider-account.view';

/** The window of an account's `recent_failures`. */
const RECENT_FAILURES_MS = 3600 * 1000;

/**
 * Provider accounts (docs/providers.md): credentials checked for shape by their adapter before
 * anything is stored, sealed with SECRETS_KEY, never returned or logged; only their summary is shown.
 * Hosts are checked like merchant webhook URLs (the gateway sends credentials there), and stored
 * secrets never follow a changed host.
 */
@Injectable()
export class ProviderAccountsService {
  private readonly logger = new Logger('ProviderAccounts');

  constructor(
    private readonly accounts: ProviderAccountRepository,
    private readonly adapters: ProviderAdapters,
    private readonly secrets: SecretBox,
    private readonly resolver: AccountResolver,
    private readonly urlPolicy: WebhookUrlPolicy,
    private readonly breakers: AccountBreakers,
    private readonly failures: AccountFailureRepository,
    private readonly clock: Clock,
  ) {}

  async create(dto: CreateProviderAccountDto): Promise<ProviderAccountView> {
    const adapter = this.adapterFor(dto.provider);
    const environment = dto.environment ?? 'sandbox';
    const urls = await this.checkedUrls(dto);
    const settings: AccountSettings = { environment, baseUrl: urls.base_url ?? null, tokenUrl: urls.token_url ?? null, pixKey: dto.pix_key ?? null };
    this.assertEnvironmentAllowed(environment, true);
    const credentials = parsed(adapter, dto.credentials, settings);
    const now = new Date();
    const account = Object.assign(new ProviderAccount(), {
      id: newId('pa'),
      name: dto.name,
      provider: adapter.name,
      ...settingsColumns(settings),
      active: true,
      receiverAccount: dto.receiver_account ? receiverAccountOf(dto.receiver_account) : null,
      credentialsEnc: this.secrets.seal(JSON.stringify(dto.credentials)),
      credentialsSummary: adapter.summarizeCredentials(credentials),
      createdAt: now,
      updatedAt: now,
    } satisfies ProviderAccount);
    await this.accounts.insert(account);
    return this.viewOne(account);
  }

  async list(): Promise<ProviderAccountView[]> {
    return this.views(await this.accounts.list());
  }

  async get(id: string): Promise<ProviderAccountView> {
    return this.viewOne(await this.find(id));
  }

  /**
   * Only the fields sent change; credentials are replaced whole and checked against the settings
   * they will be used with. A new `base_url` or `token_url` must come with new credentials: the
   * stored ones were given for the old host, and must never be sent to another.
   */
  async update(id: string, dto: UpdateProviderAccountDto): Promise<ProviderAccountView> {
    const account = await this.find(id);
    const adapter = this.adapterFor(account.provider);
    const urls = await this.checkedUrls(dto);
    const settings: AccountSettings = {
      environment: account.environment,
      baseUrl: urls.base_url === undefined ? account.baseUrl : urls.base_url,
      tokenUrl: urls.token_url === undefined ? account.tokenUrl : urls.token_url,
      pixKey: dto.pix_key === undefined ? account.pixKey : dto.pix_key,
    };
    const hostChanged = !sameUrl(settings.baseUrl, account.baseUrl) || !sameUrl(settings.tokenUrl, account.tokenUrl);
    if (hostChanged && dto.credentials === undefined) {
      throw AppError.validation([{ field: 'credentials', message: 'credentials are required when base_url or token_url changes: stored credentials never follow a changed host' }]);
    }
    this.assertEnvironmentAllowed(account.environment, dto.active ?? account.active);
    const input = dto.credentials ?? this.storedCredentials(account);
    const credentials = parsed(adapter, input, settings);
    Object.assign(account, settingsColumns(settings), {
      name: dto.name ?? account.name,
      active: dto.active ?? account.active,
      // Replaced whole; null removes it.
      receiverAccount: dto.receiver_account === undefined ? account.receiverAccount : dto.receiver_account && receiverAccountOf(dto.receiver_account),
      credentialsSummary: adapter.summarizeCredentials(credentials),
      updatedAt: new Date(),
      ...(dto.credentials ? { credentialsEnc: this.secrets.seal(JSON.stringify(dto.credentials)) } : {}),
    });
    return this.viewOne(await this.accounts.save(account));
  }

  /** Removes an account nothing uses any more, with its secrets; one a merchant lists or a pending payment uses is 409 naming them. */
  async remove(id: string): Promise<void> {
    if (!hasIdShape(id, 'pa')) throw AppError.notFound('Provider account not found.');
    const outcome = await this.accounts.deleteUnlessUsed(id);
    switch (outcome.kind) {
      case 'not_found':
        throw AppError.notFound('Provider account not found.');
      case 'in_use': {
        const uses = [
          ...(outcome.merchantIds.length ? [`merchants ${outcome.merchantIds.join(', ')} list it`] : []),
          ...(outcome.pendingPayments ? [`${outcome.pendingPayments} pending payment(s) were charged through it`] : []),
        ];
        throw new AppError(ErrorCode.CONFLICT, {
          message: `The provider account ${id} is still in use: ${uses.join('; ')}. Deactivate it instead, or remove it from those merchants and wait for the payments to settle.`,
          details: { merchant_ids: outcome.merchantIds, pending_payments: outcome.pendingPayments },
        });
      }
      case 'deleted':
        this.resolver.forget(id);
        this.logger.log({ provider_account_id: id }, `Provider account ${id} deleted with its credentials.`);
    }
  }

  /** Obtains a token and makes one read at the PSP. Never throws for a PSP that fails, or an account that cannot be used: that is the answer. */
  async check(id: string): Promise<ProviderAccountCheckView> {
    let acting: ActingAccount;
    try {
      acting = await this.resolver.byId(id);
    } catch (error) {
      if (error instanceof AccountUnusableError) return { ok: false, latency_ms: 0, detail: error.message };
      throw error;
    }
    const health = await acting.adapter.check(acting.account);
    return { ok: health.ok, latency_ms: health.latencyMs, detail: health.detail ?? null };
  }

  /** Registers the account's webhook URL at the PSP; a PSP that refuses is 502 UPSTREAM_ERROR, with its code and text for the operator. */
  async registerWebhook(id: string): Promise<ProviderAccountWebhookView> {
    const failure = { audience: 'admin', operation: 'call', accountId: id } as const;
    let acting: ActingAccount;
    try {
      acting = await this.resolver.byId(id);
    } catch (error) {
      if (error instanceof AccountUnusableError) rethrowProviderFailure(error, { ...failure, provider: error.provider });
      throw error;
    }
    const { adapter, account } = acting;
    if (!supports(adapter, 'registerWebhook')) {
      throw new AppError(ErrorCode.CONFLICT, { message: `The provider "${adapter.name}" has no webhook registration: configure it at the provider.` });
    }
    try {
      await adapter.registerWebhook(account, acting.notificationUrl);
    } catch (error) {
      rethrowProviderFailure(error, { ...failure, provider: acting.provider });
    }
    return { registered: true, webhook_url: acting.notificationUrl };
  }

  /** `base_url` / `token_url` as sent (undefined: unchanged, null: cleared) once checked, or 400 naming each refused field. */
  private async checkedUrls(dto: { base_url?: string | null; token_url?: string | null }): Promise<{ base_url?: string | null; token_url?: string | null }> {
    const checked: { base_url?: string | null; token_url?: string | null } = {};
    const problems: FieldError[] = [];
    for (const field of ['base_url', 'token_url'] as const) {
      const value = dto[field];
      if (value === undefined || value === null) {
        checked[field] = value;
        continue;
      }
      try {
        await this.urlPolicy.checkProviderUrl(value);
        // Stored as given: adapters join their paths onto it as the operator wrote it.
        checked[field] = value;
      } catch (error) {
        if (!(error instanceof WebhookUrlRejectedError)) throw error;
        problems.push({ field, message: `${field} ${error.message}` });
      }
    }
    if (problems.length) throw AppError.validation(problems);
    return checked;
  }

  /** Production refuses accounts on a PSP's homologation host unless ALLOW_HOMOLOGATION_ACCOUNTS; an inactive one may stay. */
  private assertEnvironmentAllowed(environment: ProviderAccount['environment'], active: boolean): void {
    if (active && !this.resolver.environmentAllowed(environment)) {
      throw AppError.validation([
        { field: 'environment', message: "environment sandbox (the PSP's homologation host) is refused in production unless ALLOW_HOMOLOGATION_ACCOUNTS=true" },
      ]);
    }
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

  private async viewOne(account: ProviderAccount): Promise<ProviderAccountView> {
    return (await this.views([account]))[0]!;
  }

  /** The accounts' views, with their health: this process's breaker, and the last hour's failed attempts. */
  private async views(accounts: ProviderAccount[]): Promise<ProviderAccountView[]> {
    const failures = await this.failures.summaries(
      accounts.map((account) => account.id),
      new Date(this.clock.now().getTime() - RECENT_FAILURES_MS),
    );
    return accounts.map((account) => {
      const breaker = this.breakers.health(account.id);
      const failed = failures.get(account.id);
      return {
        ...this.view(account),
        health: {
          circuit: breaker.circuit,
          consecutive_failures: breaker.consecutiveFailures,
          recent_failures: failed?.recentFailures ?? 0,
          last_failure_at: failed?.lastFailureAt?.toISOString() ?? null,
          last_error: failed?.lastError ?? null,
        },
      };
    });
  }

  private view(account: ProviderAccount): Omit<ProviderAccountView, 'health'> {
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
      webhook_url: this.resolver.webhookUrl(account),
      receiver_account: account.receiverAccount && receiverAccountOf(account.receiverAccount),
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

/** Whether two stored URLs name the same place (`https://h` and `https://h/` do). */
function sameUrl(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
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
