import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SecretBox } from '../common/crypto/secret-box';
import { AppError, FieldError } from '../common/errors/app-error';
import { afterCursorSql, decodeCursor, microsecondsSql, toPage } from '../common/http/cursor';
import { hasIdShape, newId } from '../common/ids';
import { WebhookUrlPolicy, WebhookUrlRejectedError } from '../common/net/webhook-url-policy';
import { sqlRows } from '../database/sql';
import { ProviderRegistry } from '../providers/provider-registry';
import { generateApiKey } from './api-key-material';
import type { CreateMerchantDto } from './dto/create-merchant.dto';
import type { ListMerchantsQuery } from './dto/list-merchants.query';
import type { UpdateMerchantDto } from './dto/update-merchant.dto';
import { ApiKeyView, IssuedApiKeyView, MerchantPage, MerchantView, MerchantWithSecretView } from './merchant.view';
import { AppConfig } from '../config/app-config';
import { GENERATE_SECRET, generateSigningSecret, signingSecretProblem } from './signing-secret';

interface MerchantRow {
  id: string;
  name: string;
  active: boolean;
  webhook_url: string | null;
  has_secret: boolean;
  provider: string | null;
  created_at: Date | string;
  updated_at: Date | string;
  /** created_at in whole microseconds since the epoch, exact (the cursor's position). */
  created_us: string;
}

interface ApiKeyRow {
  id: string;
  prefix: string;
  created_at: Date | string;
  revoked_at: Date | string | null;
}

/** The columns the views need; `created_us` keeps the full timestamp precision a JS Date would drop. */
const MERCHANT_COLUMNS = `id, name, active, webhook_url, webhook_signing_secret_enc IS NOT NULL AS has_secret, provider, created_at, updated_at,
  ${microsecondsSql('created_at')} AS created_us`;

/** Column values derived from the settable fields; absent keys are left unchanged. */
interface MerchantSettings {
  webhook_url?: string | null;
  webhook_signing_secret_enc?: string | null;
  provider?: string | null;
  /** The secret made for `"generate"`, to be returned once. */
  generatedSecret?: string;
}

const DEFAULT_PAGE_SIZE = 50;

const iso = (value: Date | string): string => new Date(value).toISOString();

function toMerchantView(row: MerchantRow): MerchantView {
  return {
    id: row.id,
    name: row.name,
    active: row.active,
    webhook_url: row.webhook_url,
    has_webhook_signing_secret: row.has_secret,
    provider: row.provider,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

function toApiKeyView(row: ApiKeyRow): ApiKeyView {
  return { id: row.id, prefix: row.prefix, created_at: iso(row.created_at), revoked_at: row.revoked_at === null ? null : iso(row.revoked_at) };
}

/** `%`, `_` and `\` in a search term are literal characters, not LIKE wildcards. */
function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly secretBox: SecretBox,
    private readonly urlPolicy: WebhookUrlPolicy,
    private readonly providers: ProviderRegistry,
    private readonly config: AppConfig,
  ) {}

  async create(dto: CreateMerchantDto): Promise<MerchantWithSecretView> {
    // In production merchant webhooks are always signed: a merchant created without a secret gets one (returned once).
    const settings = await this.settings(this.config.isProduction && dto.webhook_signing_secret === undefined ? { ...dto, webhook_signing_secret: GENERATE_SECRET } : dto);
    const [row] = await sqlRows<MerchantRow>(
      this.dataSource,
      `INSERT INTO merchants (id, name, active, webhook_url, webhook_signing_secret_enc, provider)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${MERCHANT_COLUMNS}`,
      [newId('mer'), dto.name, dto.active ?? true, settings.webhook_url ?? null, settings.webhook_signing_secret_enc ?? null, settings.provider ?? null],
    );
    return this.withGeneratedSecret(row!, settings);
  }

  async list(query: ListMerchantsQuery): Promise<MerchantPage> {
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    const params: unknown[] = [];
    const where: string[] = [];
    if (query.q !== undefined && query.q.trim() !== '') {
      const term = query.q.trim();
      params.push(likePattern(term), term);
      where.push(`(name ILIKE $${params.length - 1} ESCAPE '\\' OR id = $${params.length})`);
    }
    if (query.cursor !== undefined) {
      const after = decodeCursor(query.cursor);
      params.push(after.createdUs, after.id);
      where.push(afterCursorSql('created_at', 'id', `$${params.length - 1}`, `$${params.length}`));
    }
    params.push(limit + 1);
    const rows = await sqlRows<MerchantRow>(
      this.dataSource,
      `SELECT ${MERCHANT_COLUMNS} FROM merchants ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    );
    return toPage(rows, limit, toMerchantView);
  }

  async get(id: string): Promise<MerchantView> {
    if (!hasIdShape(id, 'mer')) throw AppError.notFound('No merchant with this id.');
    const [row] = await sqlRows<MerchantRow>(this.dataSource, `SELECT ${MERCHANT_COLUMNS} FROM merchants WHERE id = $1`, [id]);
    if (!row) throw AppError.notFound('No merchant with this id.');
    return toMerchantView(row);
  }

  /** Changes only the fields present; the body is validated before the merchant is looked up. */
  async update(id: string, dto: UpdateMerchantDto): Promise<MerchantWithSecretView> {
    if (!hasIdShape(id, 'mer')) throw AppError.notFound('No merchant with this id.');
    const settings = await this.settings(dto);
    const changes: Record<string, unknown> = {};
    if (dto.name !== undefined) changes.name = dto.name;
    if (dto.active !== undefined) changes.active = dto.active;
    for (const column of ['webhook_url', 'webhook_signing_secret_enc', 'provider'] as const) {
      if (settings[column] !== undefined) changes[column] = settings[column];
    }
    const columns = Object.keys(changes);
    if (columns.length === 0) return this.get(id);
    const [row] = await sqlRows<MerchantRow>(
      this.dataSource,
      `UPDATE merchants SET ${columns.map((column, i) => `${column} = $${i + 2}`).join(', ')}, updated_at = now()
        WHERE id = $1 RETURNING ${MERCHANT_COLUMNS}`,
      [id, ...columns.map((column) => changes[column])],
    );
    if (!row) throw AppError.notFound('No merchant with this id.');
    return this.withGeneratedSecret(row, settings);
  }

  /** A new key for the merchant (several may be active at once, for rotation). */
  async issueKey(merchantId: string): Promise<IssuedApiKeyView> {
    if (!hasIdShape(merchantId, 'mer')) throw AppError.notFound('No merchant with this id.');
    const material = generateApiKey();
    // One statement: no key is written for a merchant that does not exist.
    const [row] = await sqlRows<ApiKeyRow>(
      this.dataSource,
      `INSERT INTO api_keys (id, merchant_id, key_hash, prefix)
       SELECT $1, id, $3, $4 FROM merchants WHERE id = $2
       RETURNING id, prefix, created_at, revoked_at`,
      [newId('key'), merchantId, material.hash, material.prefix],
    );
    if (!row) throw AppError.notFound('No merchant with this id.');
    return { id: row.id, key: material.key, prefix: row.prefix, created_at: iso(row.created_at) };
  }

  /** Every key of the merchant, newest first, revoked ones included (the dashboard shows both). */
  async listKeys(merchantId: string): Promise<ApiKeyView[]> {
    if (!hasIdShape(merchantId, 'mer')) throw AppError.notFound('No merchant with this id.');
    const rows = await sqlRows<ApiKeyRow & { merchant_id: string }>(
      this.dataSource,
      `SELECT m.id AS merchant_id, k.id, k.prefix, k.created_at, k.revoked_at
         FROM merchants m LEFT JOIN api_keys k ON k.merchant_id = m.id
        WHERE m.id = $1
        ORDER BY k.created_at DESC, k.id DESC`,
      [merchantId],
    );
    if (rows.length === 0) throw AppError.notFound('No merchant with this id.');
    return rows.filter((row) => row.id !== null).map(toApiKeyView);
  }

  /** Revokes an active key of this merchant; unknown, another merchant's or already revoked is 404. */
  async revokeKey(merchantId: string, keyId: string): Promise<ApiKeyView> {
    if (!hasIdShape(merchantId, 'mer') || !hasIdShape(keyId, 'key')) throw AppError.notFound('No active API key with this id.');
    const [row] = await sqlRows<ApiKeyRow>(
      this.dataSource,
      `UPDATE api_keys SET revoked_at = now()
        WHERE id = $1 AND merchant_id = $2 AND revoked_at IS NULL
        RETURNING id, prefix, created_at, revoked_at`,
      [keyId, merchantId],
    );
    if (!row) throw AppError.notFound('No active API key with this id.');
    return toApiKeyView(row);
  }

  /**
   * Checks the fields that need more than their shape (URL policy with DNS, secret format, provider
   * registry) and turns them into column values; every problem is reported at once.
   */
  private async settings(dto: Pick<CreateMerchantDto, 'webhook_url' | 'webhook_signing_secret' | 'provider'>): Promise<MerchantSettings> {
    const errors: FieldError[] = [];
    const settings: MerchantSettings = {};

    if (dto.webhook_url === null) settings.webhook_url = null;
    else if (dto.webhook_url !== undefined) {
      try {
        settings.webhook_url = await this.urlPolicy.checkForSave(dto.webhook_url);
      } catch (error) {
        if (!(error instanceof WebhookUrlRejectedError)) throw error;
        errors.push({ field: 'webhook_url', message: `webhook_url ${error.message}` });
      }
    }

    const secret = dto.webhook_signing_secret;
    if (secret === null && this.config.isProduction) {
      errors.push({ field: 'webhook_signing_secret', message: `webhook_signing_secret cannot be null in production: merchant webhooks are always signed (use "${GENERATE_SECRET}" or a secret)` });
    } else if (secret === null) settings.webhook_signing_secret_enc = null;
    else if (secret === GENERATE_SECRET) {
      settings.generatedSecret = generateSigningSecret();
      settings.webhook_signing_secret_enc = this.secretBox.seal(settings.generatedSecret);
    } else if (secret !== undefined) {
      const problem = signingSecretProblem(secret);
      if (problem) errors.push({ field: 'webhook_signing_secret', message: problem });
      else settings.webhook_signing_secret_enc = this.secretBox.seal(secret);
    }

    if (dto.provider === null) settings.provider = null;
    else if (dto.provider !== undefined) {
      if (this.providers.has(dto.provider)) settings.provider = dto.provider;
      else {
        const known = this.providers.names();
        errors.push({ field: 'provider', message: `provider must be ${known.length ? `one of: ${known.join(', ')}` : 'a registered provider'} (or null for the default)` });
      }
    }

    if (errors.length) throw AppError.validation(errors);
    return settings;
  }

  private withGeneratedSecret(row: MerchantRow, settings: MerchantSettings): MerchantWithSecretView {
    const view: MerchantWithSecretView = toMerchantView(row);
    if (settings.generatedSecret !== undefined) view.webhook_signing_secret = settings.generatedSecret;
    return view;
  }
}
