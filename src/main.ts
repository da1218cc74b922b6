import 'reflect-metadata';
import cluster from 'node:cluster';
import { setFlagsFromString } from 'node:v8';
import { bannerLines } from './banner';
import { isShutdownRequest, reportBootFailure, runPrimary } from './cluster';
import { ConfigError, type LoadedConfig, loadConfig } from './config/load-config';
import { answerPrimaryCollections } from './metrics/cluster-metrics';

/**
 * Lines that say why the boot failed: one per refused setting (loadConfig's, or a module's own, a
 * provider's), or the error's message; its stack too with LOG_LEVEL=debug or trace.
 */
function bootFailureLines(error: unknown): string[] {
  if (error instanceof ConfigError) return error.problems.map((problem) => `config: ${problem}`);
  const lines = [`Gateway failed to start: ${error instanceof Error ? error.message : String(error)}`];
  if (error instanceof Error && error.stack && ['debug', 'trace'].includes(process.env.LOG_LEVEL?.trim() ?? '')) lines.push(error.stack);
  return lines;
}

/** Stops the boot. A cluster worker hands its lines to the primary, which prints them once for all workers. */
async function failBoot(error: unknown): Promise<never> {
  const lines = bootFailureLines(error);
  if (cluster.isWorker) await reportBootFailure(lines);
  else for (const line of lines) console.error(line);
  process.exit(1);
}

async function main(): Promise<void> {
  let loaded: LoadedConfig;
  try {
    loaded = loadConfig(process.env);
  } catch (error) {
    return failBoot(error);
  }
  // WORKERS > 1: this process forks the workers and serves nothing itself (src/cluster.ts).
  if (loaded.config.workers > 1 && cluster.isPrimary) return runPrimary(loaded, __filename);
  await serve(loaded);
}

/** The gateway in this process: the one process, or one cluster worker. */
async function serve({ config, generated }: LoadedConfig): Promise<void> {
  // V8 reads this factor at each full collection, so it may be set now; Node refuses it in
  // NODE_OPTIONS, hence a setting of the gateway's own (docs/performance.md, Memory).
  if (config.heapGrowingPercent > 0) setFlagsFromString(`--heap-growing-percent=${config.heapGrowingPercent}`);
  answerPrimaryCollections();
  // Loaded here, not at the top: a cluster primary never builds the app, and skips loading it.
  const { closeGracefully, createApp } = await import('./app.js');
  let app;
  try {
    app = await createApp(config);
  } catch (error) {
    return failBoot(error);
  }
  // On SIGTERM/SIGINT: stop accepting connections, let requests and deliveries in flight finish
  // (at most SHUTDOWN_TIMEOUT_MS), close the database, exit 0. A second signal exits at once, and
  // so does a shutdown that hangs well past its bound. A cluster worker is told by its primary,
  // which says so once for all of them; a terminal's Ctrl-C also signals the worker itself, which
  // is not a second signal.
  let closing = false;
  const shutdown = (signal: NodeJS.Signals, fromPrimary = false) => {
    if (closing) {
      if (fromPrimary) return;
      process.exit(1);
    }
    closing = true;
    if (!cluster.isWorker) console.log(`${signal} received: finishing requests and deliveries in flight (at most ${config.shutdownTimeoutMs} ms), then closing the database`);
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
  if (cluster.isWorker) process.on('message', (message) => isShutdownRequest(message) && shutdown('SIGTERM', true));
  await app.listen({ port: config.port, host: config.host });
  // A worker's primary prints the banner once, when every worker listens.
  if (!cluster.isWorker) console.log(bannerLines(config, generated).join('\n'));
}

main().catch(failBoot);
