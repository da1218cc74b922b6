import 'reflect-metadata';
import { closeGracefully, createApp } from './app';
import { ConfigError, loadConfig, LOCAL_SECRETS_FILE } from './config/load-config';

/** Settings refused at boot, by loadConfig or by a module that checks its own (a provider's): one line each. */
function exitOnConfigError(error: unknown): void {
  if (!(error instanceof ConfigError)) return;
  for (const problem of error.problems) console.error(`config: ${problem}`);
  process.exit(1);
}

async function main(): Promise<void> {
  let loaded;
  try {
    loaded = loadConfig(process.env);
  } catch (error) {
    exitOnConfigError(error);
    throw error;
  }
  const { config, generated } = loaded;
  let app;
  try {
    app = await createApp(config);
  } catch (error) {
    exitOnConfigError(error);
    throw error;
  }
  // On SIGTERM/SIGINT: stop accepting connections, let requests and deliveries in flight finish
  // (at most SHUTDOWN_TIMEOUT_MS), close the database, exit 0. A second signal exits at once, and
  // so does a shutdown that hangs well past its bound.
  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    console.log(`${signal} received: finishing requests and deliveries in flight (at most ${config.shutdownTimeoutMs} ms), then closing the database`);
    setTimeout(() => {
      console.error('Shutdown did not finish in time; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs + 5_000).unref();
    closeGracefully(app, config.shutdownTimeoutMs, (message) => console.error(message)).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`Shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  await app.listen({ port: config.port, host: config.host });

  const base = `http://localhost:${config.port}`;
  const lines = [
    `Pix gateway listening on http://${config.host}:${config.port}`,
    `  database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded, in ${config.dataDir}`}`,
    `  API docs: ${base}/docs    dashboard: ${base}/admin    health: ${base}/health`,
  ];
  if (generated.includes('adminApiToken')) lines.push(`  admin API token (shown once, kept in ${config.dataDir}/${LOCAL_SECRETS_FILE}): ${config.adminApiToken.reveal()}`);
  if (generated.includes('adminPassword')) lines.push(`  dashboard login (shown once): ${config.adminEmail} / ${config.adminPassword.reveal()}`);
  if (generated.includes('secretsKey')) lines.push(`  generated SECRETS_KEY into ${config.dataDir}/${LOCAL_SECRETS_FILE}; set SECRETS_KEY yourself in production`);
  console.log(lines.join('\n'));
}

main().catch((error) => {
  console.error(`Gateway failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
