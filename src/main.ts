import 'reflect-metadata';
import cluster from 'node:cluster';
import { setFlagsFromString } from 'node:v8';
import { bannerLines } from './banner';
import { reportBootFailure, runPrimary, shutdownRequestDeadline } from './cluster';
import { ShutdownProgress } from './common/lifecycle/shutdown-progress';
import { armWatchdog } from './common/lifecycle/watchdog';
import { flushLogsBeforeExit } from './common/logging/log-destination';
import { ConfigError, type LoadedConfig, loadConfig } from './config/load-config';
import { answerPrimaryCollections } from './metrics/cluster-metrics';

/** How long the last logs may wait for stdout: after a second signal, and at most after a finished close. */
const SECOND_SIGNAL_FLUSH_MS = 100;
const MAX_FINAL_FLUSH_MS = 2_000;
/** A flush overruns its bound by up to one of sonic-boom's 100 ms retries; the watchdog must not kill it for that. */
const FLUSH_MARGIN_MS = 120;
/**
 * How long after the deadline the watchdog kills a process still there. The main thread's own timer
 * exits at the deadline; on a loaded machine its last line and exit can run a little late, and the
 * watchdog is for a main thread that is stuck, not slow (a kill would lose the exit code and line).
 */
const WATCHDOG_GRACE_MS = 1_000;

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
  // On SIGTERM/SIGINT: stop accepting connections, let requests and deliveries in flight finish,
  // close the database, exit 0; the process is gone SHUTDOWN_TIMEOUT_MS after the signal whatever is
  // still under way, exit 1 with one line naming what it abandoned (docs/operations.md, Shutdown). A
  // second signal exits at once. A cluster worker is told by its primary, with the primary's
  // deadline, and the primary says so once for all of them; a terminal's Ctrl-C also signals the
  // worker itself, which is not a second signal.
  const progress = app.get(ShutdownProgress);
  const timeoutMs = config.shutdownTimeoutMs;
  const abandoned = () => `abandoned: ${progress.abandoned().join(', ') || 'nothing'}`;
  /** The last line, the logs flushed for at most `flushMs` (stdout may be a pipe nobody reads), then exit. */
  const exit = (code: number, line: string | undefined, flushMs: number): never => {
    if (line) console.error(line);
    flushLogsBeforeExit(flushMs);
    process.exit(code);
  };
  let closing = false;
  const shutdown = (signal: NodeJS.Signals, fromPrimary?: { deadlineAt: number }) => {
    if (closing) {
      if (fromPrimary) return;
      exit(1, `${signal} received again: exiting now; ${abandoned()}`, SECOND_SIGNAL_FLUSH_MS);
    }
    closing = true;
    const startedAt = Date.now();
    const deadlineAt = fromPrimary?.deadlineAt ?? startedAt + timeoutMs;
    progress.begin(deadlineAt, timeoutMs);
    if (!cluster.isWorker) console.log(`${signal} received: finishing requests and deliveries in flight, then closing the database (exiting within ${timeoutMs} ms)`);
    // What can end the process while its main thread is stuck; the timer below normally comes first.
    armWatchdog(deadlineAt + WATCHDOG_GRACE_MS, `Shutdown deadline (${timeoutMs} ms) passed with the process stuck; killing it`);
    // Ref'd: until the close is done or the deadline comes, the process does not end by itself with its close half done.
    const deadline = setTimeout(() => exit(1, `Shutdown deadline (${timeoutMs} ms) reached; exiting; ${abandoned()}`, progress.msLeft() - FLUSH_MARGIN_MS), progress.closeMsLeft());
    const flushMs = () => Math.min(MAX_FINAL_FLUSH_MS, progress.msLeft() - FLUSH_MARGIN_MS);
    closeGracefully(app, (message) => console.error(message)).then(
      () => {
        clearTimeout(deadline);
        if (progress.abandoned().length === 0) exit(0, undefined, flushMs());
        exit(1, `Shutdown finished in ${Date.now() - startedAt} ms; ${abandoned()}`, flushMs());
      },
      (error: unknown) => {
        clearTimeout(deadline);
        exit(1, `Shutdown failed: ${error instanceof Error ? error.message : String(error)}; ${abandoned()}`, flushMs());
      },
    );
  };
  // Not `process.on('SIGTERM', shutdown)`: Node passes the signal's number as a second argument,
  // which read as "from the primary" made every second signal ignored.
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  if (cluster.isWorker) {
    process.on('message', (message) => {
      const deadlineAt = shutdownRequestDeadline(message);
      if (deadlineAt !== undefined) shutdown('SIGTERM', { deadlineAt });
    });
  }
  await app.listen({ port: config.port, host: config.host });
  // A worker's primary prints the banner once, when every worker listens.
  if (!cluster.isWorker) console.log(bannerLines(config, generated).join('\n'));
}

main().catch(failBoot);
