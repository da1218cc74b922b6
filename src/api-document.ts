import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { getMetadataStorage, ValidationTypes } from 'class-validator';

import { ErrorCode } from './common/errors/error-codes';
import { DETAIL_MODEL_NAMES, errorResponse, errorStatus } from './common/http/api-docs';
import { MULTILINE_FIELDS, MULTILINE_TEXT_PATTERN, TEXT_PATTERN } from './common/http/input-limits';
import { ProviderAdapters } from './providers/provider-registry';
import { addEventWebhooks, EVENT_MODELS, WEBHOOKS_TAG } from './api-webhooks';
import { AppConfig } from './config/app-config';
import { SESSION_COOKIE } from './dashboard/session-cookie';

type OperationObject = NonNullable<OpenAPIObject['paths'][string]['get']>;
interface ResponseObject {
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, unknown>;
}
interface SchemaObject {
  type?: string | string[];
  properties?: Record<string, SchemaOrRef>;
  items?: SchemaOrRef;
  anyOf?: SchemaOrRef[];
  oneOf?: SchemaOrRef[];
  allOf?: SchemaOrRef[];
  additionalProperties?: unknown;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMaximum?: number;
  format?: string;
  'x-trimmed'?: boolean;
}
type SchemaOrRef = SchemaObject | { $ref: string };
interface ParameterObject {
  name: string;
  in: string;
  schema?: SchemaOrRef;
}

/**
 * The OpenAPI document merchants generate clients from (docs/api.md, "The document"). OpenAPI 3.1, so
 * that a nullable object is `anyOf: [{$ref}, {type: null}]` as every JSON Schema validator reads it,
 * and the events the gateway sends are `webhooks`. Operation ids are the handlers' method names
 * (`createPayment`), unique across controllers.
 */

/** Tags by resource, in the order a reader meets them; `x-tagGroups` groups them by who calls. */
const TAG_GROUPS: readonly { name: string; tags: readonly { name: string; description: string }[] }[] = [
  {
    name: 'Merchant API',
    tags: [
      { name: 'payments', description: 'Create Pix payments and read their status (merchant API key, `X-Merchant-Key`).' },
      { name: 'refunds', description: 'Refund a paid payment, in full or in part, and cancel a pending one (merchant API key).' },
      { name: 'recurrences', description: 'Pix Automático: ask a payer once for a recurring authorization, then charge each cycle (merchant API key).' },
      { name: 'api-keys', description: 'The calling API key: its prefix and when it was last used, for key rotation (merchant API key).' },
    ],
  },
  {
    name: 'Provider callbacks',
    tags: [
      {
        name: 'provider-callbacks',
        description: "Where PSPs post their events. Not called by merchants: each provider's own authentication, and every event is read back from the PSP.",
      },
    ],
  },
  {
    name: 'Operator API',
    tags: [
      { name: 'merchants', description: 'Merchants, their settings and their API keys (admin token or dashboard session).' },
      { name: 'provider-accounts', description: "Merchants' accounts at PSPs: credentials, checks, webhook registration." },
      { name: 'providers', description: 'The provider catalogue: what each PSP needs and offers.' },
      { name: 'admin-payments', description: 'Payments across merchants: detail, test payments, simulated events, refunds and cancellation.' },
      { name: 'admin-recurrences', description: 'Recurrences and recurring charges across merchants.' },
      { name: 'deliveries', description: 'Events forwarded to merchants: history, redelivery, test events.' },
      { name: 'invariant-checks', description: "The money invariant check: the PSPs' books against the gateway's." },
      { name: 'session', description: "The dashboard's sign-in session (cookie with CSRF token)." },
      { name: 'dashboard', description: "The dashboard's overview figures." },
    ],
  },
  {
    name: 'Operations',
    tags: [
      { name: 'metrics', description: 'Prometheus metrics (METRICS_TOKEN or the admin token).' },
      { name: 'health', description: 'Liveness and readiness, for load balancers and orchestrators (no authentication).' },
    ],
  },
  // The document's `webhooks` (api-webhooks.ts), not paths.
  { name: 'Webhooks (sent to merchants)', tags: [WEBHOOKS_TAG] },
];
const TAGS = TAG_GROUPS.flatMap((group) => group.tags);

/** Paths whose operations need no credential of the gateway's own: providers authenticate by their own schemes, probes by none. */
const PUBLIC_PATH = /^\/(webhooks|health)(\/|$)/;

/**
 * Answers any operation can give, whatever its own decorators say: an unexpected failure, and the
 * database out of reach (503 with Retry-After). Operations with a body also refuse bytes that are
 * not JSON, too many of them, or another media type, before any route runs.
 */
const ANY_OPERATION = [ErrorCode.INTERNAL_ERROR, ErrorCode.SERVICE_UNAVAILABLE] as const;
const WITH_BODY = [ErrorCode.VALIDATION_ERROR, ErrorCode.PAYLOAD_TOO_LARGE, ErrorCode.UNSUPPORTED_MEDIA_TYPE] as const;
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer', minimum: 1 } } };

/** Serves the document at /docs (Swagger UI), /docs/json and /docs/yaml, built on first request and then kept. */
export function setupApiDocument(app: NestFastifyApplication, config: AppConfig): void {
  const builder = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Pix Gateway API')
    .setDescription(
      'Create Pix payments, read their status, and receive provider events. Every body is the envelope ' +
        '`{success, data | error, request_id, provider}`; `X-Request-Id` repeats `request_id`. ' +
        'To try the merchant API here: Authorize with a merchant key (issued in the dashboard), then Execute.',
    )
    .setVersion('1')
    .setLicense('MIT', 'https://opensource.org/license/mit')
    .addServer(config.publicBaseUrl, 'This gateway (PUBLIC_BASE_URL)')
    .addSecurity('merchantKey', {
      type: 'apiKey',
      in: 'header',
      name: 'X-Merchant-Key',
      description: 'A merchant API key (`mk_…`), issued in the admin dashboard or by `POST /admin/api/merchants/{id}/api-keys`.',
    })
    // Opaque tokens, not JWTs: addBearerAuth would add `bearerFormat: JWT`, telling clients to expect one.
    .addSecurity('adminToken', {
      type: 'http',
      scheme: 'bearer',
      description: 'The admin token, ADMIN_API_TOKEN: an opaque string (generated ones look like `adm_…`), sent as `Authorization: Bearer <token>`.',
    })
    .addSecurity('adminSession', {
      type: 'apiKey',
      in: 'cookie',
      name: SESSION_COOKIE,
      description: "The dashboard's session cookie, set by `POST /admin/api/session`. Changes also need `csrfToken`.",
    })
    .addSecurity('csrfToken', {
      type: 'apiKey',
      in: 'header',
      name: 'X-CSRF-Token',
      description: "The session's CSRF token (`csrf_token` of `POST`/`GET /admin/api/session`), required beside the cookie on every change.",
    })
    .addSecurity('metricsToken', { type: 'http', scheme: 'bearer', description: "METRICS_TOKEN, a scraper's own opaque token, for `GET /metrics` only." });
  for (const tag of TAGS) builder.addTag(tag.name, tag.description);
  const buildDocument = () => {
    const document = SwaggerModule.createDocument(app, builder.build(), {
      operationIdFactory: (_controller, method) => method,
      extraModels: [...EVENT_MODELS],
    });
    const provider = (document.components?.schemas?.CreateProviderAccountDto as SchemaObject | undefined)?.properties?.provider;
    // The adapters this gateway was built with: what `provider` of a new account may be.
    if (provider && !('$ref' in provider)) provider.enum = app.get(ProviderAdapters).names();
    return addEventWebhooks(completeDocument(document));
  };
  SwaggerModule.setup('docs', app, buildDocument, {
    jsonDocumentUrl: 'docs/json',
    yamlDocumentUrl: 'docs/yaml',
    // Swagger UI would otherwise send the whole document to validator.swagger.io for its badge.
    swaggerOptions: { validatorUrl: null },
    patchDocumentOnRequest: (req, _res, document) => (isSwaggerUi(req as { url?: string }) ? calledFromThePage(document) : document),
  });
}

/** The script that hands Swagger UI its document (the JSON and YAML documents are fetched by other paths). */
function isSwaggerUi(req: { url?: string }): boolean {
  return (req.url ?? '').split('?')[0]!.endsWith('/swagger-ui-init.js');
}

/**
 * Swagger UI's "Try it out" calls the first server. PUBLIC_BASE_URL is where PSPs and merchants
 * reach the gateway, not always where its pages were opened (http://127.0.0.1:3000 and the default
 * http://localhost:3000 are two origins to a browser), so the pages call their own origin first.
 */
function calledFromThePage(document: OpenAPIObject): OpenAPIObject {
  return { ...document, servers: [{ url: '/', description: 'The gateway these pages came from' }, ...(document.servers ?? [])] };
}

/** What decorators cannot say once per operation: the shared answers, who may call, closed request bodies, the order. */
export function completeDocument(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item) as [string, OperationObject][]) {
      operation.security = securityOf(path, method, operation);
      addErrors(operation, ANY_OPERATION);
      if (operation.requestBody) addErrors(operation, WITH_BODY);
      // Query and path parameters are held to the same text rules as bodies.
      else if (operation.parameters?.length) addErrors(operation, [ErrorCode.VALIDATION_ERROR]);
      // A change made with the dashboard's session and no valid CSRF token.
      if (operation.security.some((requirement) => 'csrfToken' in requirement)) addErrors(operation, [ErrorCode.FORBIDDEN]);
      for (const status of ['429', '503']) {
        const response = operation.responses[status] as ResponseObject | undefined;
        if (response) response.headers = { ...RETRY_AFTER, ...response.headers };
      }
    }
  }
  applyValidationRules(document);
  describeInputRules(document);
  return { ...sortPathsByTag(document), 'x-tagGroups': TAG_GROUPS.map((group) => ({ name: group.name, tags: group.tags.map((tag) => tag.name) })) } as OpenAPIObject;
}

/**
 * Every operation declares who may call it: the admin API (AdminAuth) the token or the dashboard's
 * session, with its CSRF token on a change; providers' and probes' paths no credential of the
 * gateway's; any other what its controller says, or none.
 */
function securityOf(path: string, method: string, operation: OperationObject): NonNullable<OperationObject['security']> {
  if (PUBLIC_PATH.test(path)) return [];
  const admin = path.startsWith('/admin/api/') && operation.security?.some((requirement: Record<string, string[]>) => 'adminToken' in requirement);
  if (!admin) return operation.security ?? [];
  return method === 'get' ? [{ adminToken: [] }, { adminSession: [] }] : [{ adminToken: [] }, { adminSession: [], csrfToken: [] }];
}

/** Adds `codes` to the operation's error answers, beside the codes it documents itself. */
function addErrors(operation: OperationObject, codes: readonly ErrorCode[]): void {
  for (const code of codes) {
    const status = String(errorStatus(code));
    const existing = operation.responses[status] as ResponseObject | undefined;
    const examples = (existing?.content?.['application/json'] as { examples?: Record<string, unknown> } | undefined)?.examples;
    if (existing && !examples) continue;
    if (examples?.[code]) continue;
    const documented = Object.keys(examples ?? {}) as ErrorCode[];
    operation.responses[status] = errorResponse(
      [...documented, code].map((known) => ({ code: known, sample: known === code ? undefined : sampleOf(examples, known) })),
    ) as OperationObject['responses'][string];
  }
}

/** The example an operation already gives for `code`, kept as it was. */
function sampleOf(examples: Record<string, unknown> | undefined, code: ErrorCode) {
  const value = (examples?.[code] as { value?: { error?: { message?: string; details?: Record<string, unknown>; upstream_status?: number }; provider?: string } } | undefined)
    ?.value;
  return value ? { message: value.error?.message, details: value.error?.details, upstream_status: value.error?.upstream_status, provider: value.provider } : undefined;
}

/**
 * What the gateway checks of every input, said in the document: request bodies name every field it
 * takes (the validation refuses any other: forbidNonWhitelisted), no text holds a control character
 * (input-limits.ts; tab, CR and LF only in multi-line fields), and an error's `details` is exactly one of its shapes.
 */
function describeInputRules(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
  const walked = new Set<string>();
  const walk = (schema: SchemaOrRef | undefined, name: string, closed: boolean): void => {
    if (!schema) return;
    if ('$ref' in schema) {
      const target = schema.$ref.replace('#/components/schemas/', '');
      if (walked.has(`${target}:${closed}`)) return;
      walked.add(`${target}:${closed}`);
      walk(schemas[target], name, closed);
      return;
    }
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.includes('string') && !schema.pattern && !schema.enum && schema.const === undefined) {
      schema.pattern = MULTILINE_FIELDS.has(name) ? MULTILINE_TEXT_PATTERN : TEXT_PATTERN;
    }
    if (closed && types.includes('object') && schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
    for (const [property, value] of Object.entries(schema.properties ?? {})) walk(value, property, closed);
    walk(schema.items, name, closed);
    for (const member of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) walk(member, name, closed);
  };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as OperationObject[]) {
      for (const parameter of (operation.parameters ?? []) as ParameterObject[]) walk(parameter.schema, parameter.name, false);
      const body = operation.requestBody as { content?: Record<string, { schema?: SchemaOrRef }> } | undefined;
      // Provider callbacks are the PSPs' formats, which grow fields the gateway ignores.
      const closed = !operation.tags?.includes('provider-callbacks');
      for (const media of Object.values(body?.content ?? {})) walk(media.schema, '', closed);
    }
  }
  for (const name of DETAIL_MODEL_NAMES) {
    const detail = schemas[name];
    if (detail) Object.assign(detail, { additionalProperties: false, minProperties: 1 });
  }
}

/**
 * The DTOs' own validation rules (class-validator's metadata), stated in their schemas: a pattern,
 * lengths, allowed values, bounds. The document says what the validation refuses because it reads it
 * from the same decorators, so the two cannot drift apart.
 */
function applyValidationRules(document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
  const storage = getMetadataStorage();
  for (const target of (storage as unknown as { validationMetadatas: Map<new () => unknown, unknown> }).validationMetadatas.keys()) {
    const schema = schemas[target.name];
    if (!schema?.properties) continue;
    for (const rule of storage.getTargetValidationMetadatas(target, '', true, false)) {
      const property = schema.properties[rule.propertyName];
      if (!property || '$ref' in property || rule.type !== ValidationTypes.CUSTOM_VALIDATION) continue;
      const constraints = (rule.constraints ?? []) as unknown[];
      const constrained = property.anyOf?.find((member): member is SchemaObject => !('$ref' in member)) ?? property;
      applyRule(constrained, rule.name ?? '', constraints);
    }
  }
}

function applyRule(schema: SchemaObject, name: string, constraints: unknown[]): void {
  const [first, second] = constraints;
  switch (name) {
    case 'matches':
      if (first instanceof RegExp && !first.flags.replace('u', '') && !schema.pattern) schema.pattern = first.source;
      return;
    case 'isLength':
      schema.minLength ??= first as number;
      // A trimmed field's length is its pattern's: the spaces around it do not count.
      if (typeof second === 'number' && !schema['x-trimmed']) schema.maxLength ??= second;
      return;
    case 'maxLength':
      schema.maxLength ??= first as number;
      return;
    case 'minLength':
      schema.minLength ??= first as number;
      return;
    case 'isIn':
      schema.enum ??= [...(first as unknown[])];
      return;
    case 'isEmail':
      schema.format ??= 'email';
      return;
    case 'min':
      schema.minimum ??= first as number;
      return;
    case 'max':
      schema.maximum ??= first as number;
      // A lower maximum than the amount's own bound replaces it: one upper bound, not two.
      if (schema.exclusiveMaximum !== undefined && schema.maximum < schema.exclusiveMaximum) delete schema.exclusiveMaximum;
      return;
  }
}

/** The paths reordered by their first tag's place in TAGS (stable), so the JSON reads in the UI's order. */
function sortPathsByTag(document: OpenAPIObject): OpenAPIObject {
  const rank = (item: object) => {
    const tags = Object.values(item as Record<string, { tags?: string[] } | undefined>).flatMap((operation) => operation?.tags ?? []);
    const ranks = tags.map((tag) => TAGS.findIndex((known) => known.name === tag)).filter((index) => index >= 0);
    return ranks.length ? Math.min(...ranks) : TAGS.length;
  };
  const paths = Object.entries(document.paths).map(([path, item], index) => ({ path, item, index, rank: rank(item) }));
  paths.sort((a, b) => a.rank - b.rank || a.index - b.index);
  return { ...document, paths: Object.fromEntries(paths.map(({ path, item }) => [path, item])) };
}
