import { stdSerializers } from 'pino';
import { isValidCnpj, normaliseDocument } from '../validation/brazilian-document';

/**
 * Log redaction, applied to every line the gateway writes through pino. Two layers:
 *
 * 1. Structured: request headers that carry credentials are censored by path (`LOG_REDACT_PATHS`),
 *    and errors are serialized without the values a database driver attaches to them
 *    (`serializeError`: TypeORM's `parameters`, PostgreSQL's `detail`), which hold payer data.
 * 2. Textual: `redactLogLine` runs on the final serialized line (pino's `hooks.streamWrite`), so a
 *    payer document, a merchant key, a bearer token, a signing secret or a PEM block is removed
 *    whatever field or message it ended up in, including log calls written after this one.
 */

export const REDACTED = '[redacted]';

/** Paths pino censors before serializing (credentials in request and response headers). */
export const LOG_REDACT_PATHS = ['req.headers["x-merchant-key"]', 'req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]'];

/** Error properties that carry the values of a failed statement, never its shape. */
const VALUE_CARRYING_ERROR_FIELDS = ['parameters', 'detail', 'where', 'params', 'body', 'config'];

/**
 * pino's error serializer, minus the statement values (also on `cause` and `driverError`). pino-http
 * hands it the error already through pino's own serializer; called directly it receives the Error.
 */
export function serializeError(error: unknown): unknown {
  if (error === null || typeof error !== 'object') return error;
  const serialized = (error instanceof Error ? stdSerializers.err(error) : error) as Record<string, unknown>;
  return stripValues(serialized, new Set());
}

function stripValues(value: Record<string, unknown>, seen: Set<object>): Record<string, unknown> {
  if (seen.has(value)) return value;
  seen.add(value);
  for (const field of VALUE_CARRYING_ERROR_FIELDS) if (field in value) value[field] = REDACTED;
  for (const nested of ['cause', 'driverError', 'originalError']) {
    const inner = value[nested];
    if (inner && typeof inner === 'object') value[nested] = stripValues({ ...(inner as Record<string, unknown>) }, seen);
  }
  return value;
}

/**
 * Not a letter or digit right before, unless that letter is a JSON escape (`\n123…`): the line is
 * serialized JSON, so a document at the start of a new text line follows `\n`.
 */
const BEFORE = String.raw`(?<![0-9A-Za-z.](?<!\\[nrt]))`;
const AFTER = String.raw`(?![0-9A-Za-z])`;
/**
 * CPF (11 digits) and CNPJ (14 characters: since July 2026 the first 12 may be letters), bare or
 * written with their usual punctuation.
 */
const DOCUMENT = new RegExp(
  String.raw`${BEFORE}(?:\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}|\d{3}\.?\d{3}\.?\d{3}-?\d{2}|[0-9A-Za-z]{2}\.?[0-9A-Za-z]{3}\.?[0-9A-Za-z]{3}\/?[0-9A-Za-z]{4}-?\d{2})${AFTER}`,
  'g',
);

const TEXT_RULES: readonly [RegExp, string | ((match: string, ...groups: string[]) => string)][] = [
  // PEM blocks (certificates, private keys); in a JSON line their newlines are `\n` escapes.
  [/-----BEGIN ([A-Z0-9 ]+)-----[\s\S]*?-----END \1-----/g, `-----${REDACTED} $1-----`],
  // A key cut short (no END line): up to the end of the JSON string it is in.
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:[^"\\]|\\.)*/g, REDACTED],
  // Merchant API keys and webhook signing secrets, wherever they appear.
  [/mk_(live|test)_[0-9A-Za-z]+/g, `mk_$1_${REDACTED}`],
  [/whsec_[0-9A-Za-z+/=_-]+/g, `whsec_${REDACTED}`],
  // Credentials in a query string (`?access_token=…`, `&secret=…`), should a URL reach a log line.
  [/([?&](?:[a-z_]*token|[a-z_]*secret|[a-z_]*key|password|signature|sig)=)[^&\s"\\#]+/gi, `$1${REDACTED}`],
  // Bearer credentials (an Authorization header that reached a message or an error).
  [/\b(Bearer)(\s+|%20)[^\s"\\,;]+/gi, `$1 ${REDACTED}`],
];

/** Removes documents, keys, tokens, signing secrets and PEM blocks from one serialized log line. */
export function redactLogLine(line: string): string {
  let out = line;
  for (const [pattern, replacement] of TEXT_RULES) out = out.replace(pattern, replacement as string);
  return out.replace(DOCUMENT, (match, offset: number, whole: string) => {
    // Fourteen letters and digits are also what ids and hashes look like: one with letters is a
    // document only if its check digits say so (a random token passes one time in about a hundred).
    if (/[A-Za-z]/.test(match) && !isValidCnpj(normaliseDocument(match))) return match;
    // A document written as a bare JSON number (`"doc":12345678901`) becomes a string, so the line stays JSON.
    const before = whole[offset - 1];
    return before === ':' || before === ',' || before === '[' ? `"${REDACTED}"` : REDACTED;
  });
}
