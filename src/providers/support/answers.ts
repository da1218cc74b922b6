import { UpstreamError } from '../provider-adapter';
import type { OutboundAnswer } from '../transport/transport';

/** Longest provider text carried into an error (a problem's title and detail). */
const MAX_PROVIDER_TEXT = 300;

/** The answer's body as JSON (a leading byte order mark ignored, as RFC 8259 section 8.1 allows), or undefined when it is not JSON. */
export function jsonOf(answer: OutboundAnswer): unknown {
  const text = answer.text.replace(/^\uFEFF/, '');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The answer's body as a JSON object, or an UpstreamError `malformed`. */
export function jsonObjectOf(label: string, answer: OutboundAnswer): Record<string, unknown> {
  const body = jsonOf(answer);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new UpstreamError({ kind: 'malformed', message: `${label}: the answer is not a JSON object`, upstreamStatus: answer.status });
  }
  return body as Record<string, unknown>;
}

/** What a PSP's error body says: its code and its words. */
export interface ProviderProblem {
  code?: string;
  message?: string;
  /** A Pix API problem's `violacoes`: which property was refused (`cob.devedor.cpf`) and why. Never their `valor`, which may be payer data. */
  violations?: { property?: string; reason?: string }[];
}

/**
 * Reads the error bodies PSPs answer with: an RFC 7807 problem (the Pix API's own, `type` `title`
 * `detail`, its code being the type's last segment: `CobOperacaoInvalida`), an OAuth2 error
 * (`error`, `error_description`), and Banco do Brasil's two other shapes, `{erros:[{codigo,
 * mensagem}]}` and its gateway's `{statusCode, error, message}`
 * (https://github.com/frones/ACBr/blob/master/Fontes/ACBrPIXCD/ACBrPIXPSPBancoDoBrasil.pas).
 */
export function problemOf(body: unknown): ProviderProblem {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const b = body as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
  const cut = (value: string | undefined) => (value && value.length > MAX_PROVIDER_TEXT ? `${value.slice(0, MAX_PROVIDER_TEXT - 1)}…` : value);
  if (text(b.type) !== undefined || text(b.title) !== undefined) {
    const type = text(b.type);
    const code = type === undefined ? undefined : type.replace(/\/+$/, '').split(/[/#:]/).pop() || type;
    const words = [text(b.title), text(b.detail)].filter((part): part is string => part !== undefined).join(': ');
    const violations = (Array.isArray(b.violacoes) ? b.violacoes : [])
      .filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null)
      .map((v) => ({ property: text(v.propriedade), reason: text(v.razao) }))
      .filter((v) => v.property !== undefined || v.reason !== undefined);
    const listed = violations.map((v) => [v.property, v.reason].filter(Boolean).join(': ')).join('; ');
    const message = [words, listed && `(${listed})`].filter(Boolean).join(' ');
    return { code: code === 'about:blank' || code === 'blank' ? undefined : code, message: cut(message || undefined), ...(violations.length ? { violations } : {}) };
  }
  if (Array.isArray(b.erros) && typeof b.erros[0] === 'object' && b.erros[0] !== null) {
    const first = b.erros[0] as Record<string, unknown>;
    const code = typeof first.codigo === 'number' ? String(first.codigo) : text(first.codigo);
    return { code, message: cut(text(first.mensagem)) };
  }
  if (text(b.error) !== undefined) {
    return { code: text(b.error), message: cut(text(b.error_description) ?? text(b.message)) };
  }
  return { message: cut(text(b.message)) };
}

/** A non-2xx answer as an UpstreamError `http` carrying the PSP's code and words. */
export function httpFailure(label: string, answer: OutboundAnswer, readProblem: (body: unknown) => ProviderProblem = problemOf): UpstreamError {
  const problem = readProblem(jsonOf(answer));
  return new UpstreamError({
    kind: 'http',
    message: `${label}: HTTP ${answer.status}${problem.code ? ` ${problem.code}` : ''}`,
    upstreamStatus: answer.status,
    providerCode: problem.code,
    providerMessage: problem.message,
  });
}

/** An answer whose status is not one of `expected`: `http` when it is not 2xx, `malformed` when it is an unexpected 2xx. */
export function unexpectedAnswer(label: string, answer: OutboundAnswer, readProblem: (body: unknown) => ProviderProblem = problemOf): UpstreamError {
  if (answer.status >= 200 && answer.status < 300) {
    return new UpstreamError({ kind: 'malformed', message: `${label}: unexpected HTTP ${answer.status}`, upstreamStatus: answer.status });
  }
  return httpFailure(label, answer, readProblem);
}

/** `read()`, with an UpstreamError it throws returned instead: what every parser answers. */
export function settle<T>(read: () => T): T | UpstreamError {
  try {
    return read();
  } catch (error) {
    if (error instanceof UpstreamError) return error;
    throw error;
  }
}

/** A parser's result, or its UpstreamError thrown. */
export function orThrow<T>(result: T | UpstreamError): T {
  if (result instanceof UpstreamError) throw result;
  return result;
}
