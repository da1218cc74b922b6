import { randomBytes } from 'node:crypto';
import { SecretBox } from '../../src/common/crypto/secret-box';
import { AppError } from '../../src/common/errors/app-error';
import { ErrorCode } from '../../src/common/errors/error-codes';
import { AdminMerchantsService } from '../../src/merchants/admin-merchants.service';
import { MerchantAuthService } from '../../src/merchants/merchant-auth.service';
import { ProvidersModule } from '../../src/providers/providers.module';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { MERCHANT_SERVICES } from '../helpers/merchant-services';
import { testDatabase } from '../helpers/test-env';

/** The error code a promise rejects with, or 'ok'. */
async function outcome(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

describe(`merchants and API keys (${testDatabase()} database)`, () => {
  let ctx: MediumContext;
  let merchants: AdminMerchantsService;
  let auth: MerchantAuthService;
  beforeAll(async () => {
    ctx = await newMediumContext();
    const moduleRef = await ctx.module(MERCHANT_SERVICES, [ProvidersModule]);
    merchants = moduleRef.get(AdminMerchantsService);
    auth = moduleRef.get(MerchantAuthService);
  });
  afterAll(() => ctx.close());

  it('authenticates an issued key, then refuses it as soon as it is revoked (no cache)', async () => {
    const merchant = await merchants.create({ name: 'Loja' });
    const issued = await merchants.issueKey(merchant.id);
    await expect(auth.authenticate(issued.key)).resolves.toMatchObject({ id: merchant.id, apiKeyId: issued.id, provider: null });
    await merchants.revokeKey(merchant.id, issued.id);
    expect(await outcome(auth.authenticate(issued.key))).toBe(ErrorCode.INVALID_MERCHANT_KEY);
  });

  it('refuses every key of an inactive merchant, and accepts them again after reactivation', async () => {
    const merchant = await merchants.create({ name: 'Loja', active: false });
    const keys = [await merchants.issueKey(merchant.id), await merchants.issueKey(merchant.id)];
    for (const { key } of keys) expect(await outcome(auth.authenticate(key))).toBe(ErrorCode.INVALID_MERCHANT_KEY);
    await merchants.update(merchant.id, { active: true, provider: 'sandbox' });
    for (const { key } of keys) await expect(auth.authenticate(key)).resolves.toMatchObject({ id: merchant.id, provider: 'sandbox' });
  });

  it('revokes a key exactly once when two admins revoke it at the same time', async () => {
    const merchant = await merchants.create({ name: 'Loja' });
    const issued = await merchants.issueKey(merchant.id);
    const results = await Promise.all([outcome(merchants.revokeKey(merchant.id, issued.id)), outcome(merchants.revokeKey(merchant.id, issued.id))]);
    expect(results.sort()).toEqual([ErrorCode.NOT_FOUND, 'ok']);
  });

  it('stores only the key hash and a 12-character prefix', async () => {
    const merchant = await merchants.create({ name: 'Loja' });
    const issued = await merchants.issueKey(merchant.id);
    const rows = await ctx.dataSource.query('SELECT * FROM api_keys WHERE id = $1', [issued.id]);
    expect(JSON.stringify(rows)).not.toContain(issued.key.slice(12));
    expect(rows[0].prefix).toBe(issued.key.slice(0, 12));
  });

  it('keeps the signing secret sealed under SECRETS_KEY', async () => {
    const created = await merchants.create({ name: 'Loja', webhook_signing_secret: 'generate' });
    const [row] = await ctx.dataSource.query('SELECT webhook_signing_secret_enc AS enc FROM merchants WHERE id = $1', [created.id]);
    expect(row.enc).toMatch(/^v1\./);
    expect(new SecretBox(ctx.config).open(row.enc)).toBe(created.webhook_signing_secret);
  });

  it('keeps the display name and brand colour the checkout pages show, and null removes them', async () => {
    const created = await merchants.create({ name: 'Loja da Ana LTDA', display_name: 'Ana Doces', brand_color: '#0b6e4f' });
    expect(created).toMatchObject({ name: 'Loja da Ana LTDA', display_name: 'Ana Doces', brand_color: '#0b6e4f' });
    const [row] = await ctx.dataSource.query('SELECT display_name, brand_color FROM merchants WHERE id = $1', [created.id]);
    expect(row).toEqual({ display_name: 'Ana Doces', brand_color: '#0b6e4f' });
    await expect(merchants.list({ q: created.id })).resolves.toMatchObject({ items: [{ display_name: 'Ana Doces', brand_color: '#0b6e4f' }] });

    const renamed = await merchants.update(created.id, { display_name: 'Doces da Ana' });
    expect(renamed).toMatchObject({ display_name: 'Doces da Ana', brand_color: '#0b6e4f' });
    const cleared = await merchants.update(created.id, { display_name: null, brand_color: null });
    expect(cleared).toMatchObject({ name: 'Loja da Ana LTDA', display_name: null, brand_color: null });
    await expect(merchants.get(created.id)).resolves.toMatchObject({ display_name: null, brand_color: null });
  });

  it('pages merchants that share a millisecond without skipping or repeating one', async () => {
    const run = randomBytes(2).toString('hex');
    const ids = ['X', 'Y', 'Z'].map((c) => `mer_${c.repeat(20)}${run}`);
    for (const [i, id] of ids.entries()) {
      await ctx.dataSource.query('INSERT INTO merchants (id, name, created_at, updated_at) VALUES ($1, $2, $3, $3)', [id, `Burst ${run}`, `2021-06-01 12:00:00.000${3 - i}00+00`]);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await merchants.list({ q: `burst ${run}`, limit: 1, cursor });
      seen.push(...page.items.map((m) => m.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(ids);
  });
});
