import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A signed-in dashboard operator (migration AdminSessions). The cookie value itself is never stored. */
@Entity({ name: 'admin_sessions' })
export class AdminSession {
  @PrimaryColumn({ type: 'text' }) id: string;
  /** SHA-256 of the cookie value. */
  @Column({ name: 'token_hash', type: 'bytea' }) tokenHash: Buffer;
  @Column({ type: 'text' }) email: string;
  /** Sent back by the dashboard in `X-CSRF-Token` on every state-changing call. */
  @Column({ name: 'csrf_token', type: 'text' }) csrfToken: string;
  @Column({ type: 'text', nullable: true }) ip: string | null;
  @Column({ name: 'user_agent', type: 'text', nullable: true }) userAgent: string | null;
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'last_seen_at', type: 'timestamptz' }) lastSeenAt: Date;
  @Column({ name: 'idle_expires_at', type: 'timestamptz' }) idleExpiresAt: Date;
  @Column({ name: 'expires_at', type: 'timestamptz' }) expiresAt: Date;
}
