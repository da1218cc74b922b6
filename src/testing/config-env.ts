/**
 * An environment loadConfig accepts under NODE_ENV=production, with nothing listening behind it:
 * for specs of configuration rules, each of which removes or weakens one thing.
 */
export const PRODUCTION_CONFIG_ENV: Readonly<Record<string, string>> = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://gateway@db:5432/gateway',
  SECRETS_KEY: 'b'.repeat(64),
  ADMIN_API_TOKEN: 'x'.repeat(32),
  ADMIN_EMAIL: 'ops@example.com',
  ADMIN_PASSWORD: 'a-long-passphrase',
  PUBLIC_BASE_URL: 'https://pix.example.com',
  DATA_DIR: ':memory:',
};
