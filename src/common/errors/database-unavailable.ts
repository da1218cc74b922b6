import { AppError } from './app-error';
import { ErrorCode } from './error-codes';

/**
 * The one place that tells "the database is unreachable" from every other failure (docs/operations.md,
 * Database outage): such a request is answered 503 SERVICE_UNAVAILABLE with Retry-After, and the
 * idempotency claims it could not release are released once the database answers again.
 *
 * A failure counts when the database server said it is going away or not taking connections, or
 * when the connection to it failed:
 * - PostgreSQL's SQLSTATE class 08 (connection exception; not 08P01, a protocol violation, which
 *   is a bug), 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 53300
 *   too_many_connections;
 * - a socket error (Node's errno code) on the way to it: refused, reset, broken pipe, timed out,
 *   no route, no such host (yet);
 * - pg's and pg-pool's own words for a connection lost or never made (they carry no code).
 *
 * TypeORM wraps a failed statement in QueryFailedError (the driver's error in `driverError`); a
 * failure to get a connection from the pool arrives as pg's error itself. Other dependencies'
 * socket errors never arrive here raw: the PSP transport turns its own into UpstreamError.
 */

const SERVER_CODES = new Set(['57P01', '57P02', '57P03', '53300']);
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENOTFOUND', 'EAI_AGAIN']);
const CONNECTION_LOST = [
  'Connection terminated', // pg: "Connection terminated", "… unexpectedly", "… due to connection timeout"
  'timeout exceeded when trying to connect', // pg-pool: connectionTimeoutMillis passed
  'is not queryable', // pg: a client that lost its connection, asked again
  'Connection is not established', // TypeORM: the data source lost its pool
];

interface ErrorShape {
  code?: unknown;
  message?: unknown;
  driverError?: unknown;
  errors?: unknown;
  name?: unknown;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return unavailableCause(error) !== undefined;
}

/**
 * One line naming why the database is unreachable (`57P01: terminating connection due to
 * administrator command`, `ECONNREFUSED: connect ECONNREFUSED 10.0.0.5:5432`), for the outage's log
 * line; undefined when `error` is not such a failure.
 */
export function databaseUnavailableReason(error: unknown): string | undefined {
  const cause = unavailableCause(error);
  if (!cause) return undefined;
  // Node's AggregateError has no message of its own: its first error's says where it tried.
  const first = Array.isArray(cause.errors) ? (cause.errors[0] as ErrorShape | undefined) : undefined;
  const message = [cause.message, first?.message].find((text): text is string => typeof text === 'string' && text !== '') ?? 'no message';
  const line = message.split('\n', 1)[0]!;
  return typeof cause.code === 'string' ? `${cause.code}: ${line}` : line;
}

/** The error (possibly inside TypeORM's wrapper or Node's AggregateError) that says the database is unreachable. */
function unavailableCause(error: unknown, depth = 0): ErrorShape | undefined {
  if (typeof error !== 'object' || error === null || depth > 3) return undefined;
  const shape = error as ErrorShape;
  if (shape.driverError !== undefined) return unavailableCause(shape.driverError, depth + 1);
  const code = shape.code;
  if (typeof code === 'string') {
    if (SERVER_CODES.has(code) || (code.startsWith('08') && code.length === 5 && code !== '08P01') || SOCKET_CODES.has(code)) return shape;
  }
  // Node reports a connection to a name with several addresses (localhost: ::1 and 127.0.0.1) that all refused as one AggregateError.
  if (Array.isArray(shape.errors)) {
    for (const inner of shape.errors) if (unavailableCause(inner, depth + 1)) return shape.code !== undefined ? shape : (inner as ErrorShape);
  }
  const message = typeof shape.message === 'string' ? shape.message : '';
  if (code === undefined && CONNECTION_LOST.some((words) => message.includes(words))) return shape;
  return undefined;
}

/** How long a client is asked to wait before retrying a request the database's absence failed. */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

/** The answer to a request the database's absence failed: 503 SERVICE_UNAVAILABLE with Retry-After. */
export function databaseUnavailableError(cause?: unknown): AppError {
  return new AppError(ErrorCode.SERVICE_UNAVAILABLE, {
    message: 'The database is unreachable; retry after the time in Retry-After.',
    headers: { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) },
    cause,
  });
}
