import type { AppConfig } from './config/app-config';
import { LOCAL_SECRETS_FILE, type LoadedConfig } from './config/load-config';

/**
 * What the gateway prints once it listens: where, on which database, and the credentials it generated
 * on this start (shown once). Printed by the one process, or by the cluster primary once every
 * worker listens (src/cluster.ts), never by each worker.
 */
export function bannerLines(config: AppConfig, generated: LoadedConfig['generated']): string[] {
  const base = `http://localhost:${config.port}`;
  const lines = [
    `Pix gateway listening on http://${config.host}:${config.port}`,
    `  database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded, in ${config.dataDir}`}`,
  ];
  // One process (WORKERS=1) prints what it always did.
  if (config.workers > 1) lines.push(`  workers: ${config.workers} processes sharing port ${config.port}`);
  lines.push(`  API docs: ${base}/docs    dashboard: ${base}/admin    health: ${base}/health`);
  if (generated.includes('adminApiToken')) lines.push(`  admin API token (shown once, kept in ${config.dataDir}/${LOCAL_SECRETS_FILE}): ${config.adminApiToken.reveal()}`);
  if (generated.includes('adminPassword')) lines.push(`  dashboard login (shown once): ${config.adminEmail} / ${config.adminPassword.reveal()}`);
  if (generated.includes('secretsKey')) lines.push(`  generated SECRETS_KEY into ${config.dataDir}/${LOCAL_SECRETS_FILE}; set SECRETS_KEY yourself in production`);
  return lines;
}
