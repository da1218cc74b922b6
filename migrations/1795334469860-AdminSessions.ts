import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Dashboard sessions (issue 4). Kept in the database, not in process memory, so every gateway
 * process on one PostgreSQL accepts a session another one created, and a logout or expiry takes
 * effect everywhere at once. Only the SHA-256 of the cookie value is stored: a leaked table holds
 * no usable session. Two expiries: `idle_expires_at` moves forward while the session is used,
 * `expires_at` never does.
 */
export class AdminSessions1795334469860 implements MigrationInterface {
  name = 'AdminSessions1795334469860';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE admin_sessions (
        id text PRIMARY KEY,
        token_hash bytea NOT NULL,
        email text NOT NULL,
        csrf_token text NOT NULL,
        ip text,
        user_agent text,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        idle_expires_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE UNIQUE INDEX admin_sessions_token_hash_idx ON admin_sessions (token_hash)`);
    await q.query(`CREATE INDEX admin_sessions_expires_idx ON admin_sessions (expires_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE admin_sessions`);
  }
}
