import cluster, { type Worker } from 'node:cluster';
import { bannerLines } from './banner';
import type { AppConfig } from './config/app-config';
import type { LoadedConfig } from './config/load-config';
import { answerWorkersMetricsRequests } from './metrics/cluster-metrics';

/**
 * WORKERS > 1: this process (the primary) forks that many workers, each the whole gateway
 * (src/main.ts), sharing the listening port through node:cluster (round-robin on Linux). The primary
 * serves no request: it has read the configuration (so a bad one fails once, before any fork),
 * prints the banner once every worker listens, answers the workers' /metrics with all of them
 * summed (src/metrics/cluster-metrics.ts), restarts a worker that dies, and on SIGTERM/SIGINT has
 * every worker shut down gracefully before it exits. The workers share everything else through
 * PostgreSQL (and Redis for throttling): migrations run under an advisory lock, and background
 * jobs lease their rows (README, "More than one core").
 */

const SHUTDOWN = 'pix-gateway:shutdown';
const BOOT_FAILED = 'pix-gateway:boot-failed';

/** A worker that exits this long after the last one counts as a new run of failures. */
const RESTART_WINDOW_MS = 60_000;
const FIRST_RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 30_000;

function isMessage(message: unknown, type: string): boolean {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}

/** In a worker: the deadline (ms since the epoch) a message from the primary asks it to shut down by; undefined for any other message. */
export function shutdownRequestDeadline(message: unknown): number | undefined {
  return isMessage(message, SHUTDOWN) ? (message as { deadlineAt: number }).deadlineAt : undefined;
}

/** In a worker that failed to start: hands its lines to the primary, which prints each once for every worker. */
export function reportBootFailure(lines: string[]): Promise<void> {
  return new Promise((resolve) => process.send!({ type: BOOT_FAILED, lines }, undefined, {}, () => resolve()));
}

/** The wait before starting a worker in place of one that died, the `exits`th to die within a minute: 0.5 s, doubling, at most 30 s. */
export function restartDelayMs(exits: number): number {
  return Math.min(MAX_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** Math.max(0, exits - 1));
}

/**
 * What the workers add to the primary's environment: the credentials the primary generated on this
 * start (development only), so every worker holds the same ones, whatever DATA_DIR keeps (even
 * nothing, `:memory:`). A given value is in the environment already.
 */
export function workerEnv(config: AppConfig, generated: LoadedConfig['generated']): Record<string, string> {
  const env: Record<string, string> = {};
  if (generated.includes('adminApiToken')) env.ADMIN_API_TOKEN = config.adminApiToken.reveal();
  if (generated.includes('adminEmail')) env.ADMIN_EMAIL = config.adminEmail;
  if (generated.includes('adminPassword')) env.ADMIN_PASSWORD = config.adminPassword.reveal();
  if (generated.includes('secretsKey')) env.SECRETS_KEY = config.secretsKey.reveal().toString('hex');
  return env;
}

function exitDescription(code: number | null, signal: string | null): string {
  return signal ? `killed by ${signal}` : `exit code ${code}`;
}

/** Runs the cluster primary; `exec` is the script each worker runs (src/main.ts, built). */
export function runPrimary({ config, generated }: LoadedConfig, exec: string): void {
  const count = config.workers;
  if (!config.redisUrl) {
    console.warn(
      `WORKERS=${count} without REDIS_URL: rate limits and failed-authentication throttling count per worker, so a merchant key gets up to ${count} × RATE_LIMIT_PER_SECOND; set REDIS_URL to share them`,
    );
  }
  answerWorkersMetricsRequests();
  cluster.setupPrimary({ exec });
  const env = workerEnv(config, generated);

  /** Workers listening now; one that is not yet is stopped by a signal, having no shutdown of its own yet. */
  const listening = new Set<number>();
  /** Whether every worker of the first start has listened; a worker that exits before then fails the start. */
  let started = false;
  const firstListeners = new Set<number>();
  const restarts = new Set<NodeJS.Timeout>();
  let recentExits: number[] = [];
  const bootLines = new Set<string>();
  let stopping: { code: number } | undefined;

  const workers = (): Worker[] => Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);

  cluster.on('listening', (worker) => {
    listening.add(worker.id);
    if (started) return;
    firstListeners.add(worker.id);
    if (firstListeners.size < count) return;
    started = true;
    console.log(bannerLines(config, generated).join('\n'));
  });

  cluster.on('message', (_worker, message: unknown) => {
    if (!isMessage(message, BOOT_FAILED)) return;
    for (const line of (message as { lines: string[] }).lines) {
      if (bootLines.has(line)) continue;
      bootLines.add(line);
      console.error(line);
    }
  });

  cluster.on('exit', (worker, code, signal) => {
    listening.delete(worker.id);
    if (stopping) {
      // A worker that abandoned work (exit 1) or was killed outright makes the whole shutdown exit 1
      // (one stopped by SIGTERM before it could listen had nothing in flight).
      if (code !== null ? code !== 0 : signal === 'SIGKILL') stopping.code = 1;
      if (workers().length === 0) finish();
      return;
    }
    if (!started) {
      // A worker that cannot start means none can (its lines, once, came through BOOT_FAILED).
      stop(1);
      return;
    }
    const now = Date.now();
    recentExits = [...recentExits.filter((at) => now - at < RESTART_WINDOW_MS), now];
    const delay = restartDelayMs(recentExits.length);
    console.error(`Worker ${worker.process.pid} exited (${exitDescription(code, signal)}); starting another in ${delay} ms`);
    const timer = setTimeout(() => {
      restarts.delete(timer);
      cluster.fork(env);
    }, delay);
    restarts.add(timer);
  });

  function stop(code: number): void {
    stopping = { code };
    for (const timer of restarts) clearTimeout(timer);
    restarts.clear();
    // One deadline for all: each worker exits by it on its own (src/main.ts), and whichever has not
    // by then (its main thread stuck) is killed with the primary.
    const deadlineAt = Date.now() + config.shutdownTimeoutMs;
    setTimeout(() => {
      const left = workers();
      console.error(`Shutdown deadline (${config.shutdownTimeoutMs} ms) reached; killing ${left.length} worker(s) still running`);
      for (const worker of left) worker.process.kill('SIGKILL');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    for (const worker of workers()) {
      if (listening.has(worker.id) && worker.isConnected()) worker.send({ type: SHUTDOWN, deadlineAt });
      else worker.process.kill('SIGTERM');
    }
    if (workers().length === 0) finish();
  }

  function finish(): void {
    if (!started && bootLines.size === 0) console.error('Gateway failed to start: a worker exited during start-up');
    process.exit(stopping?.code ?? 1);
  }

  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      // A second signal: as with one process, exit at once.
      const left = workers();
      console.error(`${signal} received again: exiting now; killing ${left.length} worker(s) still running`);
      for (const worker of left) worker.process.kill('SIGKILL');
      process.exit(1);
    }
    console.log(
      `${signal} received: each of the ${count} workers finishes its requests and deliveries in flight, then closes the database (exiting within ${config.shutdownTimeoutMs} ms)`,
    );
    stop(0);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);

  for (let i = 0; i < count; i++) cluster.fork(env);
}
