import { randomBytes } from 'node:crypto';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { hash, verify } from '@node-rs/argon2';
import type { FastifyRequest } from 'fastify';
import type { AdminSessionVerifier } from '../auth/admin-auth.guard';
import { safeEqual, sha256 } from '../common/crypto/hash';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { newId } from '../common/ids';
import { AppConfig } from '../config/app-config';
import type { LoginDto } from './dto/login.dto';
import type { SessionView } from './dto/session.view';
import { AuthFailuresService } from '../common/throttle/auth-failures.service';
import { LoginBackoffService } from '../common/throttle/login-backoff.service';
import { AdminSessionRepository, LiveSession } from './admin-session.repository';
import { SESSION_ABSOLUTE_SECONDS, SESSION_IDLE_SECONDS, sessionCookie } from './session-cookie';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** A session's idle expiry is pushed forward at most once a minute, not on every request. */
const TOUCH_EVERY_MS = 60_000;

const normaliseEmail = (email: string): string => email.trim().toLowerCase();

function toView(session: LiveSession): SessionView {
  return {
    email: session.email,
    csrf_token: session.csrfToken,
    created_at: session.createdAt.toISOString(),
    idle_expires_at: session.idleExpiresAt.toISOString(),
    expires_at: session.expiresAt.toISOString(),
  };
}

/**
 * Dashboard sign-in with ADMIN_EMAIL / ADMIN_PASSWORD, and the sessions it opens. The configured
 * password is hashed with argon2id once at boot and every attempt is verified against that hash,
 * whether or not the email matched, so a wrong email costs as long as a wrong password. Sessions
 * live in the database (every process sees them); the browser holds a random 256-bit token in an
 * httpOnly cookie, the table only its SHA-256. As the admin guard's session verifier it also
 * enforces CSRF: a state-changing call made with the cookie must carry the session's token in
 * `X-CSRF-Token` (a page on another site can make the browser send a cookie, never a header).
 */
@Injectable()
export class AdminSessionService implements AdminSessionVerifier, OnModuleInit {
  private readonly logger = new Logger('AdminSession');
  private passwordHash!: string;
  /** The session each authenticated request carried (read by GET /admin/api/session). */
  private readonly byRequest = new WeakMap<FastifyRequest, LiveSession>();

  constructor(
    private readonly sessions: AdminSessionRepository,
    private readonly config: AppConfig,
    private readonly failures: AuthFailuresService,
    private readonly backoff: LoginBackoffService,
  ) {}

  async onModuleInit(): Promise<void> {
    this.passwordHash = await hash(this.config.adminPassword.reveal());
  }

  /** Opens a session; returns the cookie value (to set) and the session. */
  async login(dto: LoginDto, req: FastifyRequest): Promise<{ token: string; session: SessionView }> {
    // Slowed per client address (with the other failed authentications) and per account: an address
    // that failed too often, or an account backing off, is refused before the password is checked.
    await this.failures.assertNotBlocked(req);
    const attempt = await this.backoff.begin(normaliseEmail(dto.email));
    // Both checks always run: the time taken does not tell whether the email was right.
    const emailMatches = safeEqual(normaliseEmail(dto.email), normaliseEmail(this.config.adminEmail));
    const passwordMatches = await verify(this.passwordHash, dto.password);
    if (!emailMatches || !passwordMatches) {
      await attempt.failed();
      await this.failures.recordFailure(req, 'dashboard_login');
      throw new AppError(ErrorCode.UNAUTHORIZED, { message: 'The email or password is wrong.' });
    }
    await attempt.succeeded();

    const token = randomBytes(32).toString('base64url');
    await this.sessions.deleteExpired();
    const session = await this.sessions.open(
      {
        id: newId('ses'),
        tokenHash: sha256(token),
        email: this.config.adminEmail,
        csrfToken: randomBytes(24).toString('base64url'),
        ip: req.ip ?? null,
        userAgent: (req.headers['user-agent'] ?? '').slice(0, 300) || null,
      },
      SESSION_IDLE_SECONDS,
      SESSION_ABSOLUTE_SECONDS,
    );
    this.logger.log({ session: session.id, ip: req.ip }, 'Dashboard sign-in');
    return { token, session: toView(session) };
  }

  /**
   * The admin guard's second way in: a live session, and for POST/PATCH/DELETE the matching CSRF
   * token (403 FORBIDDEN when it is missing or wrong, so the dashboard can tell it from an expiry).
   */
  async verify(req: FastifyRequest): Promise<boolean> {
    const session = await this.find(req);
    if (!session) return false;
    if (!SAFE_METHODS.has(req.method)) {
      const header = req.headers['x-csrf-token'];
      if (typeof header !== 'string' || !safeEqual(header, session.csrfToken)) {
        throw new AppError(ErrorCode.FORBIDDEN, { message: 'This change needs the X-CSRF-Token header of your dashboard session; reload the page and try again.' });
      }
    }
    this.byRequest.set(req, session);
    return true;
  }

  /** The signed-in session, or 401 when the request has none. */
  async describe(req: FastifyRequest): Promise<SessionView> {
    const session = this.byRequest.get(req) ?? (await this.find(req));
    if (!session) throw new AppError(ErrorCode.UNAUTHORIZED, { message: 'You are not signed in, or your session has expired.' });
    return toView(session);
  }

  /** Ends the request's session (the caller has verified it, CSRF included). */
  async logout(req: FastifyRequest): Promise<void> {
    const token = sessionCookie(req);
    if (token) await this.sessions.deleteByTokenHash(sha256(token));
  }

  private async find(req: FastifyRequest): Promise<LiveSession | undefined> {
    const token = sessionCookie(req);
    // A real token is 43 base64url characters; anything else cannot match, so spare the database.
    if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
    const session = await this.sessions.findLiveByTokenHash(sha256(token));
    if (!session) return undefined;
    if (Date.now() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      return (await this.sessions.touch(session.id, SESSION_IDLE_SECONDS)) ?? session;
    }
    return session;
  }
}
