import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

type OperationObject = NonNullable<OpenAPIObject['paths'][string]['get']>;
interface ResponseObject { description: string; headers?: Record<string, unknown>; content?: Record<string, unknown> }
interface SchemaObject { type?: string; properties?: Record<string, SchemaObject | { $ref: string }>; items?: SchemaObject | { $ref: string }; additionalProperties?: unknown }
import { ErrorCode } from './common/errors/error-codes';
import { errorResponse, errorStatus } from './common/http/api-docs';
import { addEventWebhooks } from './api-webhooks';
import { AppConfig } from './config/app-config';
import { SESSION_COOKIE } from './dashboard/session-cookie';

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
    const document = SwaggerModule.createDocument(app, builder.build(), { operationIdFactory: (_controller, method) => method });
    return addEventWebhooks(completeDocument(document));
  };
  SwaggerModule.setup('docs', app, buildDocument, {
    jsonDocumentUrl: 'docs/json',
    yamlDocumentUrl: 'docs/yaml',
    // Swagger UI would otherwise send the whole document to validator.swagger.io for its badge.
    swaggerOptions: { validatorUrl: null },
  });
}

/** What decorators cannot say once per operation: the shared answers, who may call, closed request bodies, the order. */
export function completeDocument(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item) as [string, OperationObject][]) {
      operation.security = securityOf(path, method, operation);
      addErrors(operation, ANY_OPERATION);
      if (operation.requestBody) addErrors(operation, WITH_BODY);
      // A change made with the dashboard's session and no valid CSRF token.
      if (operation.security.some((requirement) => 'csrfToken' in requirement)) addErrors(operation, [ErrorCode.FORBIDDEN]);
      for (const status of ['429', '503']) {
        const response = operation.responses[status] as ResponseObject | undefined;
        if (response) response.headers = { ...RETRY_AFTER, ...response.headers };
      }
    }
  }
  closeRequestBodies(document);
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

/** Request bodies name every field the gateway takes: the validation refuses any other (forbidNonWhitelisted). */
function closeRequestBodies(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  const seen = new Set<string>();
  const close = (schema: SchemaObject | { $ref: string } | undefined): void => {
    if (!schema) return;
    if ('$ref' in schema) {
      const name = schema.$ref.replace('#/components/schemas/', '');
      if (seen.has(name)) return;
      seen.add(name);
      close(schemas[name] as SchemaObject);
      return;
    }
    if (schema.type === 'object' && schema.properties && schema.additionalProperties === undefined) schema.additionalProperties = false;
    for (const property of Object.values(schema.properties ?? {})) close(property);
    if (schema.items) close(schema.items);
  };
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item) as OperationObject[]) {
      const body = operation.requestBody as { content?: Record<string, { schema?: SchemaObject }> } | undefined;
      // Provider callbacks are the PSPs' formats, which grow fields the gateway ignores.
      if (!body?.content || operation.tags?.includes('provider-callbacks')) continue;
      for (const media of Object.values(body.content)) close(media.schema);
    }
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
