import { Injectable } from '@nestjs/common';
import { SecretBox } from '../common/crypto/secret-box';
import { AppError, FieldError } from '../common/errors/app-error';
import { decodeCursor, toPage } from '../common/http/cursor';
import { hasIdShape, newId } from '../common/ids';
import { WebhookUrlPolicy, WebhookUrlRejectedError } from '../common/net/webhook-url-policy';
import { MerchantProviderAccountRepository, ProviderAccountRepository } from '../providers/provider-accounts/provider-account.repository';
import { AccountResolver } from '../providers/provider-accounts/account-resolver';
import { generateApiKey } from './api-key-material';
import { ApiKeyRepository, ApiKeySummary } from './api-key.repository';
import type { CreateMerchantDto } from './dto/create-merchant.dto';
import type { ListMerchantsQuery } from './dto/list-merchants.query';
import type { UpdateMerchantDto } from './dto/update-merchant.dto';
import { MerchantRepository, MerchantSettable, MerchantSummary } from './merchant.repository';
import { ApiKeyView, IssuedApiKeyView, MerchantPage, MerchantView, MerchantWithSecretView } from './merchant.view';
import { AppConfig } from '../config/app-config';
import { GENERATE_SECRET, generateSigningSecret, signingSecretProblem } from './signing-secret';

/** Values derived from the settable fields that need checking; absent keys are left unchanged. */
type MerchantSettings = Partial<Pick<MerchantSettable, 'webhookUrl' | 'webhookSigningSecretEnc' | 'provider'>> & {
  /** The secret made for `"generate"`, to be returned once. */
  generatedSecret?: string;
  /** The merchant's ordered provider accounts, checked to exist and be active. */
  providerAccounts?: string[];
};

const DEFAULT_PAGE_SIZE = 50;

function toMerchantView({ merchant, hasSigningSecret }: MerchantSummary, providerAccounts: string[]): MerchantView {
  return {
    id: merchant.id,
    name: merchant.name,
    display_name: merchant.displayName,
    brand_color: merchant.brandColor,
    active: merchant.active,
    webhook_url: merchant.webhookUrl,
    has_webhook_signing_secret: hasSigningSecret,
    provider: merchant.provider,
    refund_after_close: merchant.refundAfterClose,
    provider_accounts: providerAccounts,
    created_at: merchant.createdAt.toISOString(),
    updated_at: merchant.updatedAt.toISOString(),
  };
}

function toApiKeyView(key: ApiKeySummary): ApiKeyView {
  return {
    id: key.id,
    prefix: key.prefix,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt === null ? null : key.lastUsedAt.toISOString(),
    revoked_at: key.revokedAt === null ? null : key.revokedAt.toISOString(),
  };
}

/**
 * Merchants and their API keys for the admin API (docs/api.md, Admin API). Signing secrets are sealed
 * with SecretBox before they reach the database and never leave it in a response, except a
 * generated one, once. Keys are stored as SHA-256 hashes; the plain key exists only in the issuing
 * response. Revocation is a single UPDATE that MerchantAuthService sees on the next request
 * (it does not cache).
 */
@Injectable()
export class AdminMerchantsService {
  constructor(
    private readonly merchants: MerchantRepository,
    private readonly keys: ApiKeyRepository,
    private readonly secretBox: SecretBox,
    private readonly urlPolicy: WebhookUrlPolicy,
    private readonly resolver: AccountResolver,
    private readonly accounts: ProviderAccountRepository,
    private readonly accountLists: MerchantProviderAccountRepository,
    private readonly config: AppConfig,
  ) {}

  async create(dto: CreateMerchantDto): Promise<MerchantWithSecretView> {
    // In production merchant webhooks are always signed: a merchant created without a secret gets one (returned once).
    const settings = await this.settings(this.config.isProduction && dto.webhook_signing_secret === undefined ? { ...dto, webhook_signing_secret: GENERATE_SECRET } : dto);
    const created = await this.merchants.insert({
      id: newId('mer'),
      name: dto.name,
      displayName: dto.display_name ?? null,
      brandColor: dto.brand_color ?? null,
      active: dto.active ?? true,
      webhookUrl: settings.webhookUrl ?? null,
      webhookSigningSecretEnc: settings.webhookSigningSecretEnc ?? null,
      provider: settings.provider ?? null,
      refundAfterClose: dto.refund_after_close ?? false,
    });
    if (settings.providerAccounts?.length) await this.accountLists.replace(created.merchant.id, settings.providerAccounts);
    return this.withGeneratedSecret(created, settings, settings.providerAccounts ?? []);
  }

  async list(query: ListMerchantsQuery): Promise<MerchantPage> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const search = query.q?.trim();
    const rows = await this.merchants.listPage({
      search: search === '' ? undefined : search,
      after: query.cursor !== undefined ? decodeCursor(query.cursor) : undefined,
      limit,
    });
    const lists = await this.accountLists.listForMerchants(rows.map((row) => row.merchant.id));
    return toPage(rows, limit, (row) => toMerchantView(row, lists.get(row.merchant.id) ?? []));
  }

  async get(id: string): Promise<MerchantView> {
    if (!hasIdShape(id, 'mer')) throw AppError.notFound('No merchant with this id.');
    const found = await this.merchants.findSummary(id);
    if (!found) throw AppError.notFound('No merchant with this id.');
    return toMerchantView(found, await this.accountLists.listForMerchant(id));
  }

  /** Changes only the fields present; the body is validated before the merchant is looked up. */
  async update(id: string, dto: UpdateMerchantDto): Promise<MerchantWithSecretView> {
    if (!hasIdShape(id, 'mer')) throw AppError.notFound('No merchant with this id.');
    const settings = await this.settings(dto);
    const changes: Partial<MerchantSettable> = {};
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.display_name !== undefined) changes.displayName = dto.display_name;
    if (dto.brand_color !== undefined) changes.brandColor = dto.brand_color;
    if (dto.active !== undefined) changes.active = dto.active;
    if (dto.refund_after_close !== undefined) changes.refundAfterClose = dto.refund_after_close;
    if (settings.webhookUrl !== undefined) changes.webhookUrl = settings.webhookUrl;
    if (settings.webhookSigningSecretEnc !== undefined) changes.webhookSigningSecretEnc = settings.webhookSigningSecretEnc;
    if (settings.provider !== undefined) changes.provider = settings.provider;
    if (Object.keys(changes).length === 0 && settings.providerAccounts === undefined) return this.get(id);
    const updated = Object.keys(changes).length ? await this.merchants.update(id, changes) : await this.merchants.findSummary(id);
    if (!updated) throw AppError.notFound('No merchant with this id.');
    if (settings.providerAccounts !== undefined) await this.accountLists.replace(id, settings.providerAccounts);
    return this.withGeneratedSecret(updated, settings, settings.providerAccounts ?? (await this.accountLists.listForMerchant(id)));
  }

  /** A new key for the merchant (several may be active at once, for rotation). */
  async issueKey(merchantId: string): Promise<IssuedApiKeyView> {
    if (!hasIdShape(merchantId, 'mer')) throw AppError.notFound('No merchant with this id.');
    const material = generateApiKey();
    const issued = await this.keys.insertIfMerchantExists({ id: newId('key'), merchantId, keyHash: material.hash, prefix: material.prefix });
    if (!issued) throw AppError.notFound('No merchant with this id.');
    return { id: issued.id, key: material.key, prefix: issued.prefix, created_at: issued.createdAt.toISOString() };
  }

  /** Every key of the merchant, newest first, revoked ones included (the dashboard shows both). */
  async listKeys(merchantId: string): Promise<ApiKeyView[]> {
    if (!hasIdShape(merchantId, 'mer')) throw AppError.notFound('No merchant with this id.');
    const keys = await this.keys.listForMerchant(merchantId);
    if (!keys) throw AppError.notFound('No merchant with this id.');
    return keys.map(toApiKeyView);
  }

  /** Revokes an active key of this merchant; unknown, another merchant's or already revoked is 404. */
  async revokeKey(merchantId: string, keyId: string): Promise<ApiKeyView> {
    if (!hasIdShape(merchantId, 'mer') || !hasIdShape(keyId, 'key')) throw AppError.notFound('No active API key with this id.');
    const revoked = await this.keys.revokeActive(merchantId, keyId);
    if (!revoked) throw AppError.notFound('No active API key with this id.');
    return toApiKeyView(revoked);
  }

  /**
   * Checks the fields that need more than their shape (URL policy with DNS, secret format, provider
   * registry) and turns them into the merchant's field values; every problem is reported at once.
   */
  private async settings(dto: Pick<CreateMerchantDto, 'webhook_url' | 'webhook_signing_secret' | 'provider' | 'provider_accounts'>): Promise<MerchantSettings> {
    const errors: FieldError[] = [];
    const settings: MerchantSettings = {};

    if (dto.webhook_url === null) settings.webhookUrl = null;
    else if (dto.webhook_url !== undefined) {
      try {
        settings.webhookUrl = await this.urlPolicy.checkForSave(dto.webhook_url);
      } catch (error) {
        if (!(error instanceof WebhookUrlRejectedError)) throw error;
        errors.push({ field: 'webhook_url', message: `webhook_url ${error.message}` });
      }
    }

    const secret = dto.webhook_signing_secret;
    if (secret === null && this.config.isProduction) {
      errors.push({
        field: 'webhook_signing_secret',
        message: `webhook_signing_secret cannot be null in production: merchant webhooks are always signed (use "${GENERATE_SECRET}" or a secret)`,
      });
    } else if (secret === null) settings.webhookSigningSecretEnc = null;
    else if (secret === GENERATE_SECRET) {
      settings.generatedSecret = generateSigningSecret();
      settings.webhookSigningSecretEnc = this.secretBox.seal(settings.generatedSecret);
    } else if (secret !== undefined) {
      const problem = signingSecretProblem(secret);
      if (problem) errors.push({ field: 'webhook_signing_secret', message: problem });
      else settings.webhookSigningSecretEnc = this.secretBox.seal(secret);
    }

    if (dto.provider === null) settings.provider = null;
    else if (dto.provider !== undefined) {
      // A merchant's own provider is for when it has no accounts: it must have a built-in account.
      if (this.resolver.hasBuiltIn(dto.provider)) settings.provider = dto.provider;
      else {
        const known = this.resolver.builtInProviders();
        errors.push({ field: 'provider', message: `provider must be ${known.length ? `one of: ${known.join(', ')}` : 'a registered provider'} (or null for the default)` });
      }
    }

    if (dto.provider_accounts !== undefined) {
      const ids = dto.provider_accounts;
      const found = await this.accounts.findByIds(ids.filter((id) => hasIdShape(id, 'pa')));
      const active = new Set(found.filter((account) => account.active).map((account) => account.id));
      const bad = ids.filter((id) => !active.has(id));
      if (bad.length) errors.push({ field: 'provider_accounts', message: `provider_accounts must list active provider accounts; unknown or inactive: ${bad.join(', ')}` });
      else settings.providerAccounts = ids;
    }

    if (errors.length) throw AppError.validation(errors);
    return settings;
  }

  private withGeneratedSecret(saved: MerchantSummary, settings: MerchantSettings, providerAccounts: string[]): MerchantWithSecretView {
    const view: MerchantWithSecretView = toMerchantView(saved, providerAccounts);
    if (settings.generatedSecret !== undefined) view.webhook_signing_secret = settings.generatedSecret;
    return view;
  }
}
