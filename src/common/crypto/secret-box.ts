import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

const VERSION = 'v1';

/**
 * Encrypts secrets at rest (merchant signing secrets, provider credentials) with AES-256-GCM under
 * SECRETS_KEY. Output: `v1.<iv>.<tag>.<ciphertext>` in base64url. The authentication tag means a
 * tampered or wrong-key value fails loudly instead of decrypting to garbage.
 */
@Injectable()
export class SecretBox {
  constructor(private readonly config: AppConfig) {}

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.config.secretsKey.reveal(), iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
  }

  open(sealed: string): string {
    const [version, iv, tag, ciphertext] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error('Unrecognised sealed secret format');
    const decipher = createDecipheriv('aes-256-gcm', this.config.secretsKey.reveal(), Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
  }
}
