/**
 * An in-memory admin API for component tests, in place of the network under web/src/api.ts (the
 * dashboard's one port to the gateway). Routes, query parameters, request bodies, answers and
 * error envelopes are typed by the generated OpenAPI types (web/src/api-types.ts): a test cannot
 * answer with a shape the gateway does not send, nor stub a route the gateway does not have; and a
 * component that calls a route the test did not stub, or sends a query parameter or body field the
 * API does not take, or leaves out a header it requires, fails the test.
 *
 * Until the routing back end is merged, a payment's `attempts` and an account's `health` are not in
 * the generated types: tests answer them through the factories (web/test/factories.ts:
 * paymentAttempt, accountHealth, mercadoPagoProvider in providerCatalogue), typed by the local
 * declarations of web/src/types.ts, which the generated shapes accept as extra members.
 */
import type { components, paths } from '../src/api-types';

type Schemas = components['schemas'];
type Verb = 'get' | 'post' | 'patch' | 'delete';
const PREFIX = '/admin/api';
type AdminPath = Extract<keyof paths, `${typeof PREFIX}/${string}`>;
type Operation<P extends AdminPath, V extends Verb> = NonNullable<paths[P][V]>;

/** "GET /payments/{id}": a method and an admin API path as the OpenAPI document names them. */
export type Route = {
  [P in AdminPath]: { [V in Verb]: paths[P][V] extends { responses: unknown } ? `${Uppercase<V>} ${P extends `${typeof PREFIX}${infer Rest}` ? Rest : never}` : never }[Verb];
}[AdminPath];

type OperationOf<R extends Route> = R extends `${infer M} ${infer Rest}`
  ? `${typeof PREFIX}${Rest}` extends infer P extends AdminPath
    ? Lowercase<M> extends infer V extends Verb
      ? Operation<P, V>
      : never
    : never
  : never;

type SuccessContent<O> = O extends { responses: infer S }
  ? S extends { 200: { content: { 'application/json': infer C } } }
    ? C
    : S extends { 201: { content: { 'application/json': infer C } } }
      ? C
      : S extends { 202: { content: { 'application/json': infer C } } }
        ? C
        : never
  : never;
/** The `data` the route answers with on success. */
export type DataOf<R extends Route> = SuccessContent<OperationOf<R>> extends { data: infer D } ? D : never;
type RawQuery<R extends Route> = OperationOf<R> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;
/** The route's query parameters, as the URL carries them (strings). */
export type QueryOf<R extends Route> = [RawQuery<R>] extends [never] ? Record<string, never> : { [K in keyof RawQuery<R>]?: string };
/** The JSON body the route takes; undefined for routes without one. */
export type BodyOf<R extends Route> = OperationOf<R> extends { requestBody: { content: { 'application/json': infer B } } } ? B : undefined;

// The names the API accepts, at run time, for the fake to refuse any other a component sends. The
// types make each list exactly the generated one: a parameter or field added to or removed from
// the API is a type error here until the list follows.
type QueryRoute = { [R in Route]: [RawQuery<R>] extends [never] ? never : R }[Route];
type BodyRoute = { [R in Route]: BodyOf<R> extends undefined ? never : R }[Route];
const QUERY_PARAMETERS: { [R in QueryRoute]: Record<keyof RawQuery<R>, true> } = {
  'GET /merchants': { q: true, limit: true, cursor: true },
  'GET /payments': {
    merchant_id: true,
    status: true,
    external_id: true,
    payment_link_id: true,
    paid_after_close: true,
    created_from: true,
    created_to: true,
    limit: true,
    cursor: true,
  },
  'GET /payment-links': { merchant_id: true, active: true, limit: true, cursor: true },
  'GET /payment-batches': { merchant_id: true, status: true, limit: true, cursor: true },
  'GET /recurrences': { merchant_id: true, status: true, external_id: true, limit: true, cursor: true },
  'GET /webhook-deliveries': { status: true, merchant_id: true, limit: true, cursor: true },
  'GET /stats': { day_start: true },
};
const BODY_FIELDS: { [R in BodyRoute]: Record<keyof BodyOf<R>, true> } = {
  'POST /merchants': {
    name: true,
    display_name: true,
    brand_color: true,
    webhook_url: true,
    webhook_signing_secret: true,
    provider: true,
    provider_accounts: true,
    active: true,
    refund_after_close: true,
  },
  'PATCH /merchants/{id}': {
    name: true,
    display_name: true,
    brand_color: true,
    active: true,
    webhook_url: true,
    webhook_signing_secret: true,
    provider: true,
    provider_accounts: true,
    refund_after_close: true,
  },
  'POST /provider-accounts': { name: true, provider: true, environment: true, base_url: true, token_url: true, pix_key: true, credentials: true, receiver_account: true },
  'PATCH /provider-accounts/{id}': { name: true, active: true, base_url: true, token_url: true, pix_key: true, credentials: true, receiver_account: true },
  'POST /merchants/{id}/payment-links': {
    title: true,
    description: true,
    amount: true,
    amountRange: true,
    expiresAt: true,
    maxPayments: true,
    collect: true,
    returnUrl: true,
  },
  'POST /payments/{id}/simulate': { event: true, amount: true },
  'POST /payments/{id}/refunds': { amount: true, reason: true },
  'POST /recurrences/{id}/simulate': { action: true },
  'POST /recurring-charges/{id}/simulate': { action: true },
  'POST /test-payments': { merchantId: true, amount: true, description: true, due: true },
  'POST /session': { email: true, password: true },
};

// The request headers the API requires, by route: the generated `header` parameters that are not
// optional, but the CSRF token, which web/src/api.ts sends on every change once signed in.
type RequiredHeader<R extends Route> = OperationOf<R> extends { parameters: { header: infer H } } ? Exclude<keyof H, 'X-CSRF-Token'> : never;
type HeaderRoute = { [R in Route]: [RequiredHeader<R>] extends [never] ? never : R }[Route];
const REQUIRED_HEADERS: { [R in HeaderRoute]: RequiredHeader<R>[] } = {
  'POST /payments/{id}/refunds': ['Idempotency-Key'],
  'POST /test-payments': ['Idempotency-Key'],
};

/** What in a request the API would not understand: unknown query parameters or body fields, required headers missing. */
function unknownNames(route: Route, query: Record<string, string>, body: unknown, headers: Record<string, string> = {}): string[] {
  const known = (QUERY_PARAMETERS as Partial<Record<Route, Record<string, true>>>)[route] ?? {};
  const fields = (BODY_FIELDS as Partial<Record<Route, Record<string, true>>>)[route];
  const problems = Object.keys(query)
    .filter((name) => !known[name])
    .map((name) => `query parameter ${name}`);
  if (body !== undefined && !fields) problems.push('a body');
  const required = ((REQUIRED_HEADERS as Partial<Record<Route, string[]>>)[route] ?? []).filter((name) => !headers[name.toLowerCase()]);
  problems.push(...required.map((name) => `no ${name} header`));
  if (fields && body && typeof body === 'object')
    problems.push(
      ...Object.keys(body)
        .filter((name) => !fields[name])
        .map((name) => `body field ${name}`),
    );
  return problems;
}

export interface ApiRequest<R extends Route> {
  route: R;
  /** The path's {placeholders}, decoded. */
  params: Record<string, string>;
  query: QueryOf<R>;
  body: BodyOf<R>;
  /** The request's headers, names in lower case. */
  headers: Record<string, string>;
}

/** An error the gateway answers with, in its envelope. */
export class Failure {
  constructor(
    readonly status: number,
    readonly error: Schemas['ApiErrorBody'],
  ) {}
}

/** A VALIDATION_ERROR naming fields, as the gateway's validation pipe answers. */
export function validationFailure(fields: { field: string; message: string }[]): Failure {
  return new Failure(400, { code: 'VALIDATION_ERROR', message: 'The request is invalid.', details: { fields } });
}

type Handler<R extends Route> = (request: ApiRequest<R>) => DataOf<R> | Failure | Promise<DataOf<R> | Failure>;

interface Stub {
  method: string;
  pattern: RegExp;
  names: string[];
  route: Route;
  handler: Handler<never>;
}

export interface FakeApi {
  /** Answers `route` with `handler` (or a fixed value) from now on; a later stub of the same route wins. */
  on<R extends Route>(route: R, answer: Handler<R> | DataOf<R> | Failure): void;
  /** The requests made to `route` so far, oldest first. */
  requests<R extends Route>(route: R): ApiRequest<R>[];
}

function compile(route: Route): Omit<Stub, 'handler'> {
  const [method, path] = route.split(' ') as [string, string];
  const names: string[] = [];
  const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { method, pattern: new RegExp(`^${source}$`), names, route };
}

/**
 * Puts a fake admin API in place of fetch for each test of the calling describe block, and fails
 * the test if a component made a request that no stub answers.
 */
export function useFakeApi(): FakeApi {
  let stubs: Stub[] = [];
  let log: ApiRequest<Route>[] = [];
  let unexpected: string[] = [];
  const original = globalThis.fetch;

  const fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url, location.href);
    const method = (init.method ?? 'GET').toUpperCase();
    const path = url.pathname.startsWith(PREFIX) ? url.pathname.slice(PREFIX.length) : url.pathname;
    for (const stub of [...stubs].reverse()) {
      const match = stub.method === method ? stub.pattern.exec(path) : null;
      if (!match) continue;
      const request = {
        route: stub.route,
        params: Object.fromEntries(stub.names.map((name, i) => [name, decodeURIComponent(match[i + 1]!)])),
        query: Object.fromEntries(url.searchParams),
        body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
        headers: Object.fromEntries(Object.entries((init.headers ?? {}) as Record<string, string>).map(([name, value]) => [name.toLowerCase(), value])),
      } as ApiRequest<Route>;
      const unknown = unknownNames(stub.route, request.query, request.body, request.headers);
      if (unknown.length > 0) unexpected.push(`${stub.route} with ${unknown.join(', ')}: not what the API takes`);
      log.push(request);
      return respond(await stub.handler(request as never));
    }
    unexpected.push(`${method} ${url.pathname}${url.search}`);
    return respond(new Failure(404, { code: 'NOT_FOUND', message: `No stub answers ${method} ${path}.` }));
  };

  beforeEach(() => {
    stubs = [];
    log = [];
    unexpected = [];
    globalThis.fetch = fetch;
  });
  afterEach(() => {
    globalThis.fetch = original;
    if (unexpected.length > 0) throw new Error(`The component made requests the API or the test does not answer:\n${unexpected.join('\n')}`);
  });

  return {
    on(route, answer) {
      const handler = (typeof answer === 'function' ? answer : () => answer) as Handler<never>;
      stubs.push({ ...compile(route), handler });
    },
    requests<R extends Route>(route: R) {
      return log.filter((request) => request.route === route) as unknown as ApiRequest<R>[];
    },
  };
}

function respond(answer: unknown): Response {
  const requestId = '00000000-0000-4000-8000-000000000000';
  const [status, payload] =
    answer instanceof Failure
      ? [answer.status, { success: false, error: answer.error, request_id: requestId, provider: 'sandbox' } satisfies Schemas['ApiErrorEnvelope']]
      : [200, { success: true, data: answer, request_id: requestId, provider: 'sandbox' }];
  // web/src/api.ts reads only these three members of a Response.
  const response: Pick<Response, 'ok' | 'status' | 'json'> = { ok: status < 400, status, json: async () => payload };
  return response as Response;
}

/** A promise the test settles: to look at a component while its request is still in flight. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
