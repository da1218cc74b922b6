import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'api_keys' })
export class ApiKey {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'merchant_id', type: 'text' })
  merchantId: string;

  /** SHA-256 of the key; the key itself is shown once and never stored. */
  @Column({ name: 'key_hash', type: 'bytea' })
  keyHash: Buffer;

  /** First 12 characters, for display (`mk_live_AbCd`). */
  @Column({ type: 'text' })
  prefix: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  /** When the key last authenticated a request, to the minute (written at most once a minute). */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
