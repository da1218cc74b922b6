import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { sqlEntities } from '../database/sql';
import { AdminSession } from './admin-session.entity';

/** A session as the dashboard sees it: never its token hash, address or user agent. */
export type LiveSession = Pick<AdminSession, 'id' | 'email' | 'csrfToken' | 'createdAt' | 'lastSeenAt' | 'idleExpiresAt' | 'expiresAt'>;

/** What a sign-in records; the expiries are set by the database. */
export type NewSession = Pick<AdminSession, 'id' | 'tokenHash' | 'email' | 'csrfToken' | 'ip' | 'userAgent'>;

const LIVE_COLUMNS = 'id, email, csrf_token, created_at, last_seen_at, idle_expires_at, expires_at';

/**
 * Every query of the `admin_sessions` table. Expiry is judged by the database's now(), so every
 * process agrees on whether a session is still live.
 */
@Injectable()
export class AdminSessionRepository {
  constructor(@InjectRepository(AdminSession) private readonly sessions: Repository<AdminSession>) {}

  /** Deletes every session past its idle or its absolute expiry. */
  async deleteExpired(): Promise<void> {
    await this.sessions.manager.query(`DELETE FROM admin_sessions WHERE expires_at <= now() OR idle_expires_at <= now()`);
  }

  /** Records a session that expires after `idleSeconds` without use, and after `absoluteSeconds` in any case. */
  async open(session: NewSession, idleSeconds: number, absoluteSeconds: number): Promise<LiveSession> {
    const [opened] = await sqlEntities(
      this.sessions.manager,
      AdminSession,
      `INSERT INTO admin_sessions (id, token_hash, email, csrf_token, ip, user_agent, idle_expires_at, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7), now() + make_interval(secs => $8))
       RETURNING ${LIVE_COLUMNS}`,
      [session.id, session.tokenHash, session.email, session.csrfToken, session.ip, session.userAgent, idleSeconds, absoluteSeconds],
    );
    return opened!;
  }

  /** The session with this token hash if neither its idle nor its absolute expiry has passed. */
  async findLiveByTokenHash(tokenHash: Buffer): Promise<LiveSession | null> {
    const [found] = await sqlEntities(
      this.sessions.manager,
      AdminSession,
      `SELECT ${LIVE_COLUMNS} FROM admin_sessions WHERE token_hash = $1 AND idle_expires_at > now() AND expires_at > now()`,
      [tokenHash],
    );
    return found ?? null;
  }

  /**
   * Marks the session seen now and pushes its idle expiry to `idleSeconds` from now, never past its
   * absolute expiry. Null when the session no longer exists.
   */
  async touch(id: string, idleSeconds: number): Promise<LiveSession | null> {
    const [touched] = await sqlEntities(
      this.sessions.manager,
      AdminSession,
      `UPDATE admin_sessions SET last_seen_at = now(), idle_expires_at = LEAST(now() + make_interval(secs => $2), expires_at)
        WHERE id = $1 RETURNING ${LIVE_COLUMNS}`,
      [id, idleSeconds],
    );
    return touched ?? null;
  }

  /** Ends the session with this token hash (sign-out); nothing when there is none. */
  async deleteByTokenHash(tokenHash: Buffer): Promise<void> {
    await this.sessions.manager.query(`DELETE FROM admin_sessions WHERE token_hash = $1`, [tokenHash]);
  }
}
