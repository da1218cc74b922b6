import { randomBytes } from 'node:crypto';
import { sha256 } from '../../src/common/crypto/hash';
import { newId } from '../../src/common/ids';
import { AdminSessionRepository, NewSession } from '../../src/dashboard/admin-session.repository';
import { generateApiKey } from '../../src/merchants/api-key-material';
import type { ApiKey } from '../../src/merchants/api-key.entity';
import { ApiKeyRepository } from '../../src/merchants/api-key.repository';
import { MerchantAuthService } from '../../src/merchants/merchant-auth.service';
import { MerchantRepository } from '../../src/merchants/merchant.repository';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { testDatabase } from '../helpers/test-env';

/** The repositories behind merchant authentication and dashboard sessions, against each database and without HTTP. */
describe(`merchant and session repositories (${testDatabase()} database)`, () => {
  let ctx: MediumContext;
  beforeAll(async () => {
    ctx = await newMediumContext();
  });
  afterAll(() => ctx.close());

  describe('API keys', () => {
    let merchants: MerchantRepository;
    let keys: ApiKeyRepository;
    beforeAll(async () => {
      const repositories = await ctx.module([MerchantRepository, ApiKeyRepository]);
      merchants = repositories.get(MerchantRepository);
      keys = repositories.get(ApiKeyRepository);
    });

    async function merchantWithKey(fields: { active?: boolean; provider?: string | null } = {}) {
      const { merchant } = await merchants.insert({
        id: newId('mer'),
        name: `Loja ${randomBytes(3).toString('hex')}`,
        active: fields.active ?? true,
        webhookUrl: null,
        webhookSigningSecretEnc: null,
        provider: fields.provider ?? null,
      });
      const material = generateApiKey();
      const issued = await keys.insertIfMerchantExists({ id: newId('key'), merchantId: merchant.id, keyHash: material.hash, prefix: material.prefix });
      return { merchant, key: issued!, hash: material.hash };
    }

    it('finds an active key of an active merchant by its hash, with the merchant it authenticates', async () => {
      const { merchant, key, hash } = await merchantWithKey({ provider: 'sandbox' });
      const match = await keys.findActiveByKeyHash(hash);
      expect(match).toEqual({
        apiKey: expect.objectContaining({ id: key.id }),
        merchant: expect.objectContaining({ id: merchant.id, name: merchant.name, provider: 'sandbox' }),
        useDue: true,
        lastUsedAt: null,
      });
      expect(Buffer.from(match!.apiKey.keyHash).equals(hash)).toBe(true);
      expect(await keys.findActiveByKeyHash(generateApiKey().hash)).toBeNull();
    });

    it('finds no revoked key, and revokes a key only once', async () => {
      const { merchant, key, hash } = await merchantWithKey();
      const revoked = await keys.revokeActive(merchant.id, key.id);
      expect(revoked).toMatchObject({ id: key.id, prefix: key.prefix, revokedAt: expect.any(Date) });
      expect(await keys.findActiveByKeyHash(hash)).toBeNull();
      expect(await keys.revokeActive(merchant.id, key.id)).toBeNull();
    });

    it("revokes only through the key's own merchant", async () => {
      const owner = await merchantWithKey();
      const other = await merchantWithKey();
      expect(await keys.revokeActive(other.merchant.id, owner.key.id)).toBeNull();
      expect(await keys.findActiveByKeyHash(owner.hash)).toMatchObject({ apiKey: { id: owner.key.id } });
    });

    it('finds no key of an inactive merchant until it is active again', async () => {
      const { merchant, key, hash } = await merchantWithKey({ active: false });
      expect(await keys.findActiveByKeyHash(hash)).toBeNull();
      expect(await merchants.update(merchant.id, { active: true })).toMatchObject({ merchant: { id: merchant.id, active: true } });
      expect(await keys.findActiveByKeyHash(hash)).toMatchObject({ apiKey: { id: key.id }, merchant: { id: merchant.id } });
      await merchants.update(merchant.id, { active: false });
      expect(await keys.findActiveByKeyHash(hash)).toBeNull();
    });

    it('writes no key for a merchant that does not exist, and tells an unknown merchant from one without keys', async () => {
      const material = generateApiKey();
      const ghost = newId('mer');
      expect(await keys.insertIfMerchantExists({ id: newId('key'), merchantId: ghost, keyHash: material.hash, prefix: material.prefix })).toBeNull();
      expect(await keys.findActiveByKeyHash(material.hash)).toBeNull();
      expect(await keys.listForMerchant(ghost)).toBeNull();

      const { merchant } = await merchants.insert({ id: newId('mer'), name: 'Sem chaves', active: true, webhookUrl: null, webhookSigningSecretEnc: null, provider: null });
      expect(await keys.listForMerchant(merchant.id)).toEqual([]);
    });

    it("lists a merchant's keys newest first, revoked ones included, without their hashes", async () => {
      const { merchant, key: first } = await merchantWithKey();
      const material = generateApiKey();
      const second = (await keys.insertIfMerchantExists({ id: newId('key'), merchantId: merchant.id, keyHash: material.hash, prefix: material.prefix }))!;
      await keys.revokeActive(merchant.id, first.id);
      // Two inserts can share a millisecond on the embedded database, whose clock has no finer grain.
      await ctx.dataSource.query(`UPDATE api_keys SET created_at = created_at - interval '1 second' WHERE id = $1`, [first.id]);
      const listed = await keys.listForMerchant(merchant.id);
      expect(listed!.map((k) => ({ id: k.id, revoked: k.revokedAt !== null }))).toEqual([
        { id: second.id, revoked: false },
        { id: first.id, revoked: true },
      ]);
      for (const k of listed!) expect((k as Partial<ApiKey>).keyHash).toBeUndefined();
    });

    describe('last use', () => {
      const lastUsedAt = async (id: string) => (await ctx.dataSource.query(`SELECT last_used_at FROM api_keys WHERE id = $1`, [id]))[0].last_used_at as Date | null;
      /** Moves a key's recorded last use back (a use long ago), as test set-up: no test waits a minute. */
      const usedAgo = (id: string, seconds: number) => ctx.dataSource.query(`UPDATE api_keys SET last_used_at = now() - make_interval(secs => $2) WHERE id = $1`, [id, seconds]);

      it('records a use once, then not again within the minute, and again once the minute has passed', async () => {
        const { key, hash } = await merchantWithKey();
        expect(key.lastUsedAt).toBeNull();
        expect(await keys.recordUse(key.id)).toBe(true);
        const first = await lastUsedAt(key.id);
        expect(first).toBeInstanceOf(Date);
        expect(await keys.findActiveByKeyHash(hash)).toMatchObject({ useDue: false });
        expect(await keys.recordUse(key.id)).toBe(false);
        expect(await lastUsedAt(key.id)).toEqual(first);

        await usedAgo(key.id, 50);
        expect(await keys.findActiveByKeyHash(hash)).toMatchObject({ useDue: false });
        expect(await keys.recordUse(key.id)).toBe(false);

        await usedAgo(key.id, 61);
        expect(await keys.findActiveByKeyHash(hash)).toMatchObject({ useDue: true });
        expect(await keys.recordUse(key.id)).toBe(true);
        expect(await keys.findActiveByKeyHash(hash)).toMatchObject({ useDue: false });
      });

      it('writes a due use once when several requests record it at the same time', async () => {
        const { key } = await merchantWithKey();
        const written = await Promise.all(Array.from({ length: 6 }, () => keys.recordUse(key.id)));
        expect(written.filter(Boolean)).toHaveLength(1);
      });

      it('is written by authentication at most once a minute, and listed with the key', async () => {
        const auth = await ctx.get(MerchantAuthService, [ApiKeyRepository]);
        const { merchant } = await merchantWithKey();
        const material = generateApiKey();
        const key = (await keys.insertIfMerchantExists({ id: newId('key'), merchantId: merchant.id, keyHash: material.hash, prefix: material.prefix }))!;

        await auth.authenticate(material.key);
        const first = await lastUsedAt(key.id);
        expect(first).toBeInstanceOf(Date);
        await auth.authenticate(material.key);
        expect(await lastUsedAt(key.id)).toEqual(first);

        await usedAgo(key.id, 120);
        const old = await lastUsedAt(key.id);
        await auth.authenticate(material.key);
        expect((await lastUsedAt(key.id))!.getTime()).toBeGreaterThan(old!.getTime() + 60_000);

        const listed = await keys.listForMerchant(merchant.id);
        const mine = listed!.find((k) => k.id === key.id)!;
        const other = listed!.find((k) => k.id !== key.id)!;
        expect(mine.lastUsedAt).toEqual(await lastUsedAt(key.id));
        expect(other.lastUsedAt).toBeNull();
        expect(await keys.findForMerchant(merchant.id, key.id)).toMatchObject({ id: key.id, prefix: key.prefix, lastUsedAt: mine.lastUsedAt });
        expect(await keys.findForMerchant(newId('mer'), key.id)).toBeNull();
      });
    });
  });

  describe('admin sessions', () => {
    let sessions: AdminSessionRepository;
    beforeAll(async () => {
      sessions = await ctx.get(AdminSessionRepository);
    });

    const IDLE = 1800;
    const ABSOLUTE = 12 * 3600;
    function newSession(): { token: Buffer; session: NewSession } {
      const token = sha256(randomBytes(32));
      return {
        token,
        session: { id: newId('ses'), tokenHash: token, email: 'admin@example.com', csrfToken: randomBytes(24).toString('base64url'), ip: '127.0.0.1', userAgent: null },
      };
    }
    /** Moves a session's expiries to before now (a session left since long ago), as test set-up. */
    const pastExpiry = (id: string, column: 'idle_expires_at' | 'expires_at') =>
      ctx.dataSource.query(`UPDATE admin_sessions SET ${column} = now() - interval '1 second' WHERE id = $1`, [id]);
    const stored = async (id: string) => (await ctx.dataSource.query(`SELECT count(*)::int AS n FROM admin_sessions WHERE id = $1`, [id]))[0].n as number;

    it('opens a session with its idle and absolute expiries, and finds it live by its token hash', async () => {
      const { token, session } = newSession();
      const opened = await sessions.open(session, IDLE, ABSOLUTE);
      expect(opened).toMatchObject({ id: session.id, email: session.email, csrfToken: session.csrfToken });
      expect(opened.idleExpiresAt.getTime() - opened.createdAt.getTime()).toBe(IDLE * 1000);
      expect(opened.expiresAt.getTime() - opened.createdAt.getTime()).toBe(ABSOLUTE * 1000);
      expect(await sessions.findLiveByTokenHash(token)).toEqual(opened);
      expect(await sessions.findLiveByTokenHash(sha256(randomBytes(32)))).toBeNull();
    });

    it('finds no session past its idle expiry, nor past its absolute expiry, and deletes both as expired', async () => {
      const idle = newSession();
      const absolute = newSession();
      const live = newSession();
      for (const s of [idle, absolute, live]) await sessions.open(s.session, IDLE, ABSOLUTE);
      await pastExpiry(idle.session.id, 'idle_expires_at');
      await pastExpiry(absolute.session.id, 'expires_at');

      expect(await sessions.findLiveByTokenHash(idle.token)).toBeNull();
      expect(await sessions.findLiveByTokenHash(absolute.token)).toBeNull();
      await sessions.deleteExpired();
      expect([await stored(idle.session.id), await stored(absolute.session.id), await stored(live.session.id)]).toEqual([0, 0, 1]);
      expect(await sessions.findLiveByTokenHash(live.token)).toMatchObject({ id: live.session.id });
    });

    it('pushes the idle expiry forward on a touch, never past the absolute expiry', async () => {
      const { session } = newSession();
      const opened = await sessions.open(session, 60, 600);
      const touched = await sessions.touch(session.id, 120);
      expect(touched!.lastSeenAt.getTime()).toBeGreaterThanOrEqual(opened.lastSeenAt.getTime());
      expect(touched!.idleExpiresAt.getTime() - touched!.lastSeenAt.getTime()).toBe(120_000);
      expect(touched!.expiresAt).toEqual(opened.expiresAt);

      const capped = await sessions.touch(session.id, 3600);
      expect(capped!.idleExpiresAt).toEqual(opened.expiresAt);
      expect(await sessions.touch(newId('ses'), 120)).toBeNull();
    });

    it('ends a session by its token hash', async () => {
      const { token, session } = newSession();
      await sessions.open(session, IDLE, ABSOLUTE);
      await sessions.deleteByTokenHash(token);
      expect(await sessions.findLiveByTokenHash(token)).toBeNull();
      expect(await stored(session.id)).toBe(0);
    });
  });
});
