import pino, { type DestinationStream } from 'pino';
import type { Options } from 'pino-http';

type Destination = ReturnType<typeof pino.destination>;

let destination: Destination | undefined;
/** Until when a write stdout refuses (EAGAIN: a pipe that is full) is tried again; for ever until the process exits. */
let retryUntil = Infinity;

/**
 * The JSON lines' destination: stdout, written asynchronously (pino's default), one per process.
 * pino's own default flushes it on `exit` and, when stdout is a pipe nobody reads any more (a
 * supervisor that stopped reading, a full pipe), retries that write for ever: the process, its port
 * already closed, never ends and no signal handler runs again. This one is flushed by
 * `flushLogsBeforeExit`, which gives up (docs/operations.md, Shutdown).
 */
export function logDestination(): DestinationStream {
  destination ??= pino.destination({ dest: 1, sync: false, retryEAGAIN: () => Date.now() < retryUntil });
  return destination;
}

/** nestjs-pino's `pinoHttp`: `params` writing JSON lines to `logDestination()`, unless they name a destination already (pino-pretty). */
export function withLogDestination(params: Options | [Options, DestinationStream]): [Options, DestinationStream] {
  return Array.isArray(params) ? params : [params, logDestination()];
}

/**
 * Just before process.exit: writes the lines still buffered, waiting at most `ms` for a full stdout
 * to take them, and drops the rest, so that nothing is left for pino's flush at `exit`.
 */
export function flushLogsBeforeExit(ms: number): void {
  if (!destination || (destination as Destination & { destroyed?: boolean }).destroyed) return;
  retryUntil = Date.now() + ms;
  try {
    destination.flushSync();
  } catch {
    // stdout took no more within `ms`: what is left is dropped.
  }
  destination.destroy();
}
