import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When each API key last authenticated a request (`last_used_at`), so that an operator rotating keys
 * can tell a key still in use from a forgotten one. Written at most once a minute per key (see
 * ApiKeyRepository.recordUse); null for a key never used since this migration.
 */
export class ApiKeyLastUsed1795810000000 implements MigrationInterface {
  name = 'ApiKeyLastUsed1795810000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE api_keys DROP COLUMN last_used_at`);
  }
}
