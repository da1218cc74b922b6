import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * /metrics with WORKERS > 1 (src/cluster.ts). A scrape lands on one worker, whose registry knows only
 * its own requests; the whole gateway's series are the sum over every worker. prom-client's
 * AggregatorRegistry.clusterMetrics() collects and adds them up, but only the primary can call it
 * (it messages each worker). So the worker that got the scrape asks the primary over the cluster's
 * IPC channel, the primary runs clusterMetrics() and sends the text back, and the worker answers
 * the request with it. The route, its guard and its access line stay the worker's, as with one
 * process; the primary serves no HTTP of its own.
 */

const REQUEST = 'pix-gateway:metrics-request';
const ANSWER = 'pix-gateway:metrics-answer';

/** Longer than clusterMetrics()'s own 5 s limit, so the primary's answer (or its error) arrives first. */
const ASK_TIMEOUT_MS = 10_000;

interface MetricsRequest {
  type: typeof REQUEST;
  id: number;
}
interface MetricsAnswer {
  type: typeof ANSWER;
  id: number;
  body?: string;
  error?: string;
}

function isMessage<T extends { type: string }>(message: unknown, type: T['type']): message is T {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}

/**
 * In a cluster worker, first thing: answer the primary's collection requests from now on, with no
 * series until contributeToClusterMetrics names the app's registry. The primary waits for every
 * connected worker, so one still booting (a replacement, say) that did not answer would fail every
 * scrape meanwhile, after clusterMetrics()'s 5 s.
 */
export function answerPrimaryCollections(): void {
  if (!cluster.isWorker) return;
  // Until setRegistries, prom-client answers with its global registry, which the gateway leaves empty.
  // Constructing one is what installs the worker's answer (prom-client's lib/cluster.js); it does so once.
  new AggregatorRegistry();
}

/** In a cluster worker: `registry` is what this worker contributes when the primary collects. Nothing outside a worker (one process, or the tests' several apps in one process). */
export function contributeToClusterMetrics(registry: Registry): void {
  if (!cluster.isWorker) return;
  AggregatorRegistry.setRegistries([registry]);
  answerPrimaryCollections();
}

/** Whether this process is a cluster worker, whose scrapes are answered by askPrimaryForMetrics. */
export function metricsAreClustered(): boolean {
  return cluster.isWorker;
}

let nextId = 0;
let listening = false;
const pending = new Map<number, { resolve: (body: string) => void; reject: (error: Error) => void }>();

/** In a cluster worker: the exposition text of every worker, summed by the primary. */
export function askPrimaryForMetrics(): Promise<string> {
  if (!listening) {
    process.on('message', onAnswer);
    listening = true;
  }
  const id = nextId++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error('The cluster primary did not answer with the metrics in time'));
    }, ASK_TIMEOUT_MS);
    pending.set(id, {
      resolve: (body) => (clearTimeout(timer), resolve(body)),
      reject: (error) => (clearTimeout(timer), reject(error)),
    });
    process.send!({ type: REQUEST, id } satisfies MetricsRequest);
  });
}

function onAnswer(message: unknown): void {
  if (!isMessage<MetricsAnswer>(message, ANSWER)) return;
  const waiting = pending.get(message.id);
  if (!waiting) return;
  pending.delete(message.id);
  if (message.body !== undefined) waiting.resolve(message.body);
  else waiting.reject(new Error(`The cluster primary could not collect the metrics: ${message.error ?? 'unknown error'}`));
}

/** In the cluster primary: answers the workers' askPrimaryForMetrics with every worker's series, aggregated. */
export function answerWorkersMetricsRequests(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isMessage<MetricsRequest>(message, REQUEST)) return;
    const reply = (answer: Omit<MetricsAnswer, 'type' | 'id'>) => {
      // The worker may have exited meanwhile; it no longer waits.
      if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...answer } satisfies MetricsAnswer);
    };
    aggregator.clusterMetrics().then(
      (body) => reply({ body }),
      (error: unknown) => reply({ error: error instanceof Error ? error.message : String(error) }),
    );
  });
}
