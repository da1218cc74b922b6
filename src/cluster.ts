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
export function runPrimary(loaded: LoadedConfig, exec: string): void {
  const count = loaded.config.workers;
  if (!loaded.config.redisUrl) {
    console.warn(
      `WORKERS=${count} without REDIS_URL: rate limits and failed-authentication throttling count per worker, so a merchant key gets up to ${count} × RATE_LIMIT_PER_SECOND; set REDIS_URL to share them`,
    );
  }
  answerWorkersMetricsRequests();
  cluster.setupPrimary({ exec });
  new Primary(loaded).start();
}

/** The primary's run: its workers started, watched and restarted, then stopped together. */
class Primary {
  private readonly config: AppConfig;
  private readonly generated: LoadedConfig['generated'];
  private readonly count: number;
  private readonly env: Record<string, string>;
  /** Workers listening now; one that is not yet is stopped by a signal, having no shutdown of its own yet. */
  private readonly listening = new Set<number>();
  /** Whether every worker of the first start has listened; a worker that exits before then fails the start. */
  private started = false;
  private readonly firstListeners = new Set<number>();
  private readonly restarts = new Set<NodeJS.Timeout>();
  private recentExits: number[] = [];
  private readonly bootLines = new Set<string>();
  private stopping: { code: number } | undefined;

  constructor({ config, generated }: LoadedConfig) {
    this.config = config;
    this.generated = generated;
    this.count = config.workers;
    this.env = workerEnv(config, generated);
  }

  start(): void {
    cluster.on('listening', (worker) => this.onListening(worker));
    cluster.on('message', (_worker, message: unknown) => this.onMessage(message));
    cluster.on('exit', (worker, code, signal) => this.onExit(worker, code, signal));
    process.on('SIGTERM', this.onSignal);
    process.on('SIGINT', this.onSignal);
    for (let i = 0; i < this.count; i++) cluster.fork(this.env);
  }

  private workers(): Worker[] {
    return Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined);
  }

  /** The banner, once every worker of the first start listens. */
  private onListening(worker: Worker): void {
    this.listening.add(worker.id);
    if (this.started) return;
    this.firstListeners.add(worker.id);
    if (this.firstListeners.size < this.count) return;
    this.started = true;
    console.log(bannerLines(this.config, this.generated).join('\n'));
  }

  /** A worker that failed to start: its lines, each printed once whichever worker sent it. */
  private onMessage(message: unknown): void {
    if (!isMessage(message, BOOT_FAILED)) return;
    for (const line of (message as { lines: string[] }).lines) {
      if (this.bootLines.has(line)) continue;
      this.bootLines.add(line);
      console.error(line);
    }
  }

  private onExit(worker: Worker, code: number | null, signal: string | null): void {
    this.listening.delete(worker.id);
    if (this.stopping) {
      // A worker that abandoned work (exit 1) or was killed outright makes the whole shutdown exit 1
      // (one stopped by SIGTERM before it could listen had nothing in flight).
      if (code !== null ? code !== 0 : signal === 'SIGKILL') this.stopping.code = 1;
      if (this.workers().length === 0) this.finish();
      return;
    }
    if (!this.started) {
      // A worker that cannot start means none can (its lines, once, came through BOOT_FAILED).
      this.stop(1);
      return;
    }
    this.restartLater(worker, code, signal);
  }

  /** Another worker in place of one that died, after a wait that grows while they keep dying. */
  private restartLater(worker: Worker, code: number | null, signal: string | null): void {
    const now = Date.now();
    this.recentExits = [...this.recentExits.filter((at) => now - at < RESTART_WINDOW_MS), now];
    const delay = restartDelayMs(this.recentExits.length);
    console.error(`Worker ${worker.process.pid} exited (${exitDescription(code, signal)}); starting another in ${delay} ms`);
    const timer = setTimeout(() => {
      this.restarts.delete(timer);
      cluster.fork(this.env);
    }, delay);
    this.restarts.add(timer);
  }

  private stop(code: number): void {
    this.stopping = { code };
    for (const timer of this.restarts) clearTimeout(timer);
    this.restarts.clear();
    // One deadline for all: each worker exits by it on its own (src/main.ts), and whichever has not
    // by then (its main thread stuck) is killed with the primary.
    const { shutdownTimeoutMs } = this.config;
    const deadlineAt = Date.now() + shutdownTimeoutMs;
    setTimeout(() => {
      const left = this.workers();
      console.error(`Shutdown deadline (${shutdownTimeoutMs} ms) reached; killing ${left.length} worker(s) still running`);
      for (const worker of left) worker.process.kill('SIGKILL');
      process.exit(1);
    }, shutdownTimeoutMs).unref();
    for (const worker of this.workers()) {
      if (this.listening.has(worker.id) && worker.isConnected()) worker.send({ type: SHUTDOWN, deadlineAt });
      else worker.process.kill('SIGTERM');
    }
    if (this.workers().length === 0) this.finish();
  }

  private finish(): void {
    if (!this.started && this.bootLines.size === 0) console.error('Gateway failed to start: a worker exited during start-up');
    process.exit(this.stopping?.code ?? 1);
  }

  private readonly onSignal = (signal: NodeJS.Signals): void => {
    if (this.stopping) {
      // A second signal: as with one process, exit at once.
      const left = this.workers();
      console.error(`${signal} received again: exiting now; killing ${left.length} worker(s) still running`);
      for (const worker of left) worker.process.kill('SIGKILL');
      process.exit(1);
    }
    console.log(
      `${signal} received: each of the ${this.count} workers finishes its requests and deliveries in flight, then closes the database (exiting within ${this.config.shutdownTimeoutMs} ms)`,
    );
    this.stop(0);
  };
}
