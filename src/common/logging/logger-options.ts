import type { DestinationStream } from 'pino';
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
 *   per entry (still after redaction: the hook runs before the stream).
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
  if (!prettyLogs(config, stdoutIsTty)) return options;
  const pretty = pinoPretty({
    singleLine: true,
    colorize: stdoutIsTty,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    destination: prettyDestination,
    sync: true,
  });
  return [options, pretty];
}

/** Readable lines only for a person at a terminal; production and pipes (log shippers, tests) get JSON. */
export function prettyLogs(config: Pick<AppConfig, 'isProduction'>, stdoutIsTty: boolean): boolean {
  return stdoutIsTty && !config.isProduction;
}
