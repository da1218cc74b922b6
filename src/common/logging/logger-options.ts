import type { DestinationStream, LogFn, Logger } from 'pino';
import type { Options } from 'pino-http';
import pinoPretty from 'pino-pretty';
import type { AppConfig } from '../../config/app-config';
import { LOG_REDACT_PATHS, REDACTED, redactLogLine, serializeError } from './redact';

/**
 * The pino settings of the whole gateway (nestjs-pino builds one pino-http instance from them).
 *
 * - Every line passes `redactLogLine` (pino's `streamWrite` hook) after `LOG_REDACT_PATHS` and the
 *   error serializer have removed credentials and statement values: see ./redact.ts.
 * - pino-http's own per-request line is off: the access log (src/common/http/access-log.ts) writes
 *   exactly one line per API request, with the route pattern and who called.
 * - JSON lines, except in development on a terminal, where pino-pretty prints one readable line
 *   per entry (still after redaction: the hook runs before the stream), its fields once, as
 *   `key=value` (prettyMessage).
 * - Nest's start-up lines are debug (demoteNestBootLines).
 */
export function pinoHttpParams(
  config: AppConfig,
  stdoutIsTty = process.stdout.isTTY === true,
  prettyDestination: NodeJS.WritableStream | number = 1,
): Options | [Options, DestinationStream] {
  const options: Options = {
    level: config.logLevel,
    redact: { paths: LOG_REDACT_PATHS, censor: REDACTED },
    serializers: { err: serializeError },
    hooks: { streamWrite: redactLogLine },
    genReqId: (req) => (req as unknown as { id: string }).id,
    customProps: (req) => ({ request_id: (req as unknown as { id: string }).id }),
    autoLogging: false,
    quietReqLogger: true,
  };
  options.hooks!.logMethod = demoteNestBootLines;
  if (!prettyLogs(config, stdoutIsTty)) return options;
  const pretty = pinoPretty({
    colorize: stdoutIsTty,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    // The fields are printed by prettyMessage, once, as `key=value`, on the message's line: no JSON
    // tail repeating the message (so no singleLine either, which would also drop the line's end).
    hideObject: true,
    messageFormat: prettyMessage,
    destination: prettyDestination,
    sync: true,
  });
  return [options, pretty];
}

/**
 * Nest's own start-up chatter (a line per module initialised and per route mapped, about 70): debug,
 * so that start-up at info is the banner. `LOG_LEVEL=debug` shows them again.
 */
export const NEST_BOOT_CONTEXTS: ReadonlySet<string> = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

function demoteNestBootLines(this: Logger, args: Parameters<LogFn>, method: LogFn, level: number): void {
  const first = args[0] as { context?: unknown } | undefined;
  if (level === INFO && first !== null && typeof first === 'object' && NEST_BOOT_CONTEXTS.has(first.context as string)) {
    this.debug(...(args as [object, string]));
    return;
  }
  method.apply(this, args);
}

const INFO = 30;
const ERROR = 50;
/** Shown by pino-pretty itself (time, level) or not worth a terminal's width. */
const NOT_PRINTED = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'context', 'err']);
/** Already in an access line's message (`GET /v1/payments/:id 404 NOT_FOUND`). */
const IN_ACCESS_MESSAGE = new Set(['method', 'route', 'status', 'error_code']);

/**
 * One terminal line per entry: `[Context] message key=value …`, leaving out what the message says
 * already. An access line (it has a status and a duration) carries its method, route, status and
 * error code in the message; an error's stack follows on its own lines, at error level and above.
 */
export function prettyMessage(log: Record<string, unknown>, messageKey: string, _levelLabel?: string, extras?: { colors?: { gray?: (s: string) => string } }): string {
  const dim = extras?.colors?.gray ?? ((text: string) => text);
  const access = log.status !== undefined && log.duration_ms !== undefined;
  const context = typeof log.context === 'string' ? `[${log.context}] ` : '';
  const text = log[messageKey];
  const message = typeof text === 'string' ? text : '';
  const fields: string[] = [];
  for (const [key, value] of Object.entries(log)) {
    if (NOT_PRINTED.has(key) || key === messageKey || value === null || value === undefined) continue;
    if (access && IN_ACCESS_MESSAGE.has(key)) continue;
    // An id or a reason the message already says (`… for payment pay_… failed`) is not said twice; JSON lines keep every field.
    if (typeof value === 'string' && value.length >= 6 && message.includes(value)) continue;
    fields.push(`${key}=${formatValue(value)}`);
  }
  const err = log.err as { type?: string; message?: string; stack?: string } | undefined;
  if (err && typeof err === 'object') fields.push(`err=${formatValue(err.message ?? err.type ?? 'error')}`);
  const stack = err?.stack && Number(log.level) >= ERROR ? `\n${err.stack.replace(/^/gm, '    ')}` : '';
  return `${context}${message}${fields.length ? ` ${dim(fields.join(' '))}` : ''}${stack}`;
}

function formatValue(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value) ?? '';
}

/** Readable lines only for a person at a terminal; production and pipes (log shippers, tests) get JSON. */
export function prettyLogs(config: Pick<AppConfig, 'isProduction'>, stdoutIsTty: boolean): boolean {
  return stdoutIsTty && !config.isProduction;
}
