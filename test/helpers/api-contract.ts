import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import OpenAPIBackend, { type Document, type Operation } from 'openapi-backend';
import { documentAjv, EventSchemas, summarize } from './event-schemas';

/**
 * The API contract check of the e2e tier (docs/api.md, "The document is tested"): every request an
 * e2e spec sends to a gateway it booted (startTestApp) and every answer it gets are validated against
 * the document that gateway serves at /docs/json, by openapi-backend (Ajv, JSON Schema 2020-12 as
 * OpenAPI 3.1 reads it). A spec file fails after its last test when any exchange broke the document
 * (test/helpers/api-contract-setup.ts). With API_CONTRACT_REPORT=<file>, each violation is also
 * appended to that file as a JSON line, to count them over a run.
 */

/**
 * What the gateway serves that is not the API: pages, assets, the simulated PSP, the document itself,
 * and the payer's public pages (/pay, /l: HTML, and the JSON and event stream their script reads),
 * which the document leaves out (src/checkout, ApiExcludeController).
 */
const NOT_API = /^\/(docs|sandbox|admin(?!\/api)|assets|favicon|robots|pay|l)(\/|\?|$|\.)|^\/($|\?)/;

/**
 * Rules the gateway applies that a JSON Schema cannot state (docs/api.md, "Rules beyond the schema"):
 * a CPF's or CNPJ's check digits, an opaque cursor, a field valid only beside another's value or
 * today's date, a setting of this deployment, what a credential holds, where a URL points. A
 * VALIDATION_ERROR for a request the document accepts is not a violation when every field it names
 * matches one of these: its field and, where given, its message.
 */
export const RULES_BEYOND_THE_SCHEMA: readonly { field: RegExp; message?: RegExp }[] = [
  { field: /^(payments\.\d+\.)?(recipientDocument|payer\.document)$/, message: /check digits/ },
  { field: /^cursor$/ },
  { field: /^(base_url|token_url)$/, message: /cloud metadata|user name or password|public address|must be left out/ },
  { field: /^provider_accounts$/, message: /active provider accounts/ },
  { field: /^receiver_account$/, message: /needs its receiver_account/ },
  { field: /^webhook_url$/ },
  { field: /^webhook_signing_secret$/ },
  { field: /^provider$/, message: /or null for the default/ },
  { field: /^environment$/, message: /ALLOW_HOMOLOGATION_ACCOUNTS/ },
  { field: /^credentials(\.|$)/ },
  // `at most 2 decimal places`: a float whose shortest text has more digits than multipleOf's precision shows.
  {
    field: /^(payments\.\d+\.)?amount$/,
    message: /at most 2 decimal places$|must be at most [\d.]+$|exactly one of|refused for a fixed|required for a variable|at least the recurrence/,
  },
  { field: /^(startDate|endDate|dueDate)$/, message: /today|after startDate|days after|provider refused/ },
  { field: /^data\.amount$/ },
  { field: /^payer\.account$/, message: /is required for journey/ },
  { field: /^firstPayment/ },
  // A due-date charge's terms against each other, the amount and today (a batch's items carry their index).
  {
    field: /^(payments\.\d+\.)?due(\.|$)/,
    message:
      /today|on or before due\.date|later than|percent (of at most|below) 100|less than the amount|required for type|is only for|takes its values in|offers due-date charges/,
  },
  { field: /^(payments\.\d+\.)?recipientAddress$/, message: /only for a due-date charge/ },
  // A batch's externalIds, unique within it.
  { field: /^payments\.\d+\.externalId$/, message: /already used by another payment of this batch/ },
  { field: /^body$/, message: /give amount, due or both/ },
  // A payment link's range against itself and MAX_PAYMENT_AMOUNT, its expiry against now.
  { field: /^amountRange\.(min|max)$/, message: /must be at most [\d.]+$|greater than amountRange\.min/ },
  { field: /^expiresAt$/, message: /in the future/ },
  // Where a checkout page sends the payer: http only to the merchant's own machine.
  { field: /returnUrl$/, message: /http only on localhost/ },
  // A provider event's time: a date-time the format allows, outside the years any event can have.
  { field: /^created_at$/, message: /between 1970 and 9999/ },
  // An unpaired surrogate: a pattern over code points needs the `u` flag, which some validators lack.
  { field: /./, message: /must be valid Unicode text|field name with control characters or invalid Unicode/ },
  { field: /./, message: /is nested deeper than/ },
];

/** Refusals of the bytes rather than the fields: a JSON content type with no JSON. */
const REFUSED_BYTES = /Body cannot be empty|Unexpected|JSON/;

export interface Violation {
  where: string;
  kind: 'undocumented-route' | 'undocumented-status' | 'response-body' | 'accepted-invalid-request' | 'refused-valid-request' | 'event-body';
  detail: string;
}

interface Exchange {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  status: number;
  contentType: string;
  payload: string | undefined;
}

class ApiContract {
  readonly violations: Violation[] = [];
  private api?: OpenAPIBackend;
  private events?: EventSchemas;
  /** openapi-backend's router rebuilds its list of operations twice per lookup: each method and path is looked up once. */
  private readonly operations = new Map<string, Operation | undefined>();

  /** Reads the document `fastify` serves; the first app of a spec file sets it for the file. */
  async load(fastify: FastifyInstance): Promise<void> {
    if (this.api) return;
    const response = await fastify.inject({ method: 'GET', url: '/docs/json' });
    this.events = new EventSchemas(JSON.parse(response.body) as object, { exact: true });
    const api = new OpenAPIBackend({
      definition: JSON.parse(response.body) as Document,
      apiRoot: '/',
      strict: true,
      // openapi-backend checks a document against OpenAPI 3.0's schema only; the 3.1 document's own
      // validity is the lint's (test/integration/openapi-lint.spec.ts). Quick mode skips that check.
      quick: true,
      validate: true,
      ajvOpts: { strict: false, allErrors: true },
      customizeAjv: (_ajv, options) => documentAjv(options),
    });
    this.api = await api.init();
  }

  check(exchange: Exchange): void {
    const api = this.api;
    const [path, query = ''] = exchange.url.split('?', 2) as [string, string?];
    if (!api || NOT_API.test(exchange.url)) return;
    const where = `${exchange.method} ${path} → ${exchange.status}`;
    const request = { method: exchange.method, path, query, headers: exchange.headers as Record<string, string>, body: exchange.body };
    const route = `${exchange.method} ${path}`;
    if (!this.operations.has(route)) this.operations.set(route, api.matchOperation(request));
    const operation = this.operations.get(route);
    if (!operation) {
      // A path the API does not have is refused whatever the document says.
      if (exchange.status !== 404 && exchange.status !== 405) this.add({ where, kind: 'undocumented-route', detail: 'no operation matches' });
      return;
    }
    const requestErrors = api.validator.validateRequest(request, operation).errors ?? [];
    if (requestErrors.length && exchange.status < 400) {
      this.add({ where, kind: 'accepted-invalid-request', detail: summarize(requestErrors) });
    }
    const body = parse(exchange);
    if (!requestErrors.length && exchange.status === 400 && isValidationError(body) && !onlyRulesBeyondTheSchema(body)) {
      this.add({ where, kind: 'refused-valid-request', detail: JSON.stringify(body.error.details ?? body.error.message) });
    }
    this.checkResponse(api, operation, where, exchange, body);
  }

  /**
   * A body the gateway posted to a merchant (test/helpers/merchant-receiver.ts): a violation unless
   * the document's webhook for its `event` describes it, every field included (EventSchemas).
   */
  checkEvent(body: unknown, where: string): void {
    const problem = this.events?.problem(body);
    if (problem) this.add({ where, kind: 'event-body', detail: problem });
  }

  private checkResponse(api: OpenAPIBackend, operation: Operation, where: string, exchange: Exchange, body: unknown): void {
    const responses = operation.responses ?? {};
    const documented = responses[String(exchange.status)] ?? responses[`${String(exchange.status)[0]}XX`] ?? responses.default;
    if (!documented) {
      this.add({ where, kind: 'undocumented-status', detail: `${operation.operationId} documents ${Object.keys(responses).join(', ')}` });
      return;
    }
    if (!exchange.contentType.includes('json') || body === undefined) return;
    const result = api.validator.validateResponse(body, operation, exchange.status);
    if (result.errors?.length) this.add({ where, kind: 'response-body', detail: summarize(result.errors) });
  }

  private add(violation: Violation): void {
    this.violations.push(violation);
    const report = process.env.API_CONTRACT_REPORT;
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    if (report) (require('node:fs') as typeof import('node:fs')).appendFileSync(report, `${JSON.stringify({ file: expect.getState().testPath, ...violation })}\n`);
  }
}

/** The contract of the spec file running (Jest gives each file its own module registry). */
export const apiContract = new ApiContract();

/** Validates every exchange of `fastify` once the document is loaded; call before the app listens. */
export function watchApiContract(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    apiContract.check({
      method: req.method,
      url: req.url,
      headers: req.headers,
      body: req.body,
      status: reply.statusCode,
      contentType: String(reply.getHeader('content-type') ?? ''),
      payload: typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined,
    });
    return payload;
  });
}

function parse(exchange: Exchange): unknown {
  if (exchange.payload === undefined || !exchange.contentType.includes('json')) return undefined;
  try {
    return JSON.parse(exchange.payload);
  } catch {
    return undefined;
  }
}

interface ErrorEnvelope {
  error: { code: string; message: string; details?: { fields?: { field: string; message: string }[] } };
}

function isValidationError(body: unknown): body is ErrorEnvelope {
  return (body as Partial<ErrorEnvelope> | undefined)?.error?.code === 'VALIDATION_ERROR';
}

function onlyRulesBeyondTheSchema(body: ErrorEnvelope): boolean {
  const fields = body.error.details?.fields ?? [];
  if (!fields.length) return REFUSED_BYTES.test(body.error.message);
  return fields.every(({ field, message }) => RULES_BEYOND_THE_SCHEMA.some((rule) => rule.field.test(field) && (rule.message?.test(message) ?? true)));
}
