import { randomUUID } from 'node:crypto';
import createClient, { type Client, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { components, paths } from '../../web/src/api-types';
import { TEST_ADMIN_TOKEN } from './test-env';

/**
 * The gateway's API as its clients see it, typed by its own OpenAPI document (web/src/api-types.ts,
 * as the dashboard's types are): a path, parameter or body field the API does not document fails
 * the type-check. Raw bytes, odd headers and methods stay with http() (./http.ts).
 */

type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
type Success<R> = NonNullable<R extends { data?: infer D } ? D : never>;
type Failure<R> = NonNullable<R extends { error?: infer E } ? E : never>;

/** What a test asserts on: the status, the headers and the envelope, with its `data` or `error` at hand. */
export interface ApiResult<R> {
  status: number;
  headers: Headers;
  /** The whole envelope as sent, success or error. */
  body: Success<R> | Failure<R>;
  /** The body's bytes as text, for what the parsed body cannot show (a secret that must not appear anywhere). */
  text: string;
  /** The success envelope's `data` (the resource), on a 2xx answer. */
  data: (Success<R> extends { data: infer V } ? V : Success<R>) | undefined;
  /** The error envelope's `error` ({code, message, details}), on any other answer. */
  error: (Failure<R> extends { error: infer X } ? X : Failure<R>) | undefined;
}

/** The paths that have operation `M` (openapi-typescript writes `put?: never` for the others). */
type PathsWith<Paths, M extends Method> = { [P in keyof Paths]: Paths[P] extends Record<M, object> ? P : never }[keyof Paths];

/** Path `P`'s operation `M`, as openapi-typescript wrote it. */
type Operation<Paths, P extends keyof Paths, M extends Method> = Paths[P] extends Record<M, infer O> ? O : never;

type Call<Paths, M extends Method> = <Path extends PathsWith<Paths, M>, Init extends MaybeOptionalInit<Record<M, Operation<Paths, Path, M>>, M>>(
  url: Path,
  ...init: undefined extends Init ? [init?: Init] : [init: Init]
) => Promise<ApiResult<FetchResponse<Operation<Paths, Path, M> & Record<string | number, unknown>, Init, `${string}/${string}`>>>;

export interface ApiClient<Paths> {
  GET: Call<Paths, 'get'>;
  POST: Call<Paths, 'post'>;
  PUT: Call<Paths, 'put'>;
  PATCH: Call<Paths, 'patch'>;
  DELETE: Call<Paths, 'delete'>;
}

type Send = (url: string, init?: object) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** Each answer's text, kept by the client's fetch before openapi-fetch parses (and so consumes) the body. */
const texts = new WeakMap<Response, string>();
async function fetchKeepingText(request: Request): Promise<Response> {
  const response = await fetch(request);
  texts.set(response, await response.clone().text());
  return response;
}

function apiClient<Paths extends object>(client: Client<Paths>): ApiClient<Paths> {
  // openapi-fetch answers {data, error, response}; tests read status and headers next to the body.
  const wrap = (send: unknown) => async (url: string, init?: object) => {
    const { data, error, response } = await (send as Send)(url, init);
    const body = (data ?? error) as { data?: unknown; error?: unknown } | undefined;
    const [ok, failed] = [data === undefined ? undefined : body?.data, error === undefined ? undefined : body?.error];
    return { status: response.status, headers: response.headers, body, text: texts.get(response) ?? '', data: ok, error: failed };
  };
  return { GET: wrap(client.GET), POST: wrap(client.POST), PUT: wrap(client.PUT), PATCH: wrap(client.PATCH), DELETE: wrap(client.DELETE) } as unknown as ApiClient<Paths>;
}

/** Headers the merchant client sends itself, so a call names only what it is about. */
type ManagedHeader = 'X-Merchant-Key' | 'Idempotency-Key';
type WithoutManagedHeaders<Op> = Op extends { parameters: { header?: infer H } }
  ? Omit<Op, 'parameters'> & { parameters: Omit<Op['parameters'], 'header'> & { header?: Omit<H, ManagedHeader> & Partial<Pick<H, ManagedHeader & keyof H>> } }
  : Op;
export type MerchantPaths = { [P in keyof paths]: { [M in keyof paths[P]]: WithoutManagedHeaders<paths[P][M]> } };

export type AdminClient = ApiClient<paths> & {
  /** A merchant and one API key, made through the admin API (for a gateway that is only reachable over HTTP). */
  newMerchant(fields?: Partial<components['schemas']['CreateMerchantDto']>): Promise<{ id: string; apiKey: string }>;
};
export type MerchantClient = ApiClient<MerchantPaths>;

/** The admin API with a Bearer token (the test gateways' TEST_ADMIN_TOKEN unless told). */
export function adminClient(baseUrl: string, token: string = TEST_ADMIN_TOKEN): AdminClient {
  const api = apiClient(createClient<paths>({ baseUrl, fetch: fetchKeepingText, headers: { authorization: `Bearer ${token}` } }));
  const newMerchant: AdminClient['newMerchant'] = async (fields = {}) => {
    const merchant = await api.POST('/admin/api/merchants', { body: { name: 'Loja Teste', ...fields } });
    if (!merchant.data) throw new Error(`creating a merchant failed: ${merchant.status} ${JSON.stringify(merchant.body)}`);
    const key = await api.POST('/admin/api/merchants/{id}/api-keys', { params: { path: { id: merchant.data.id } } });
    if (!key.data) throw new Error(`issuing a key failed: ${key.status} ${JSON.stringify(key.body)}`);
    return { id: merchant.data.id, apiKey: key.data.key };
  };
  return { ...api, newMerchant };
}

/**
 * The merchant API with `X-Merchant-Key: apiKey`. A POST without an Idempotency-Key gets a fresh
 * one (the API requires it on every creation); pass `params.header['Idempotency-Key']` to replay.
 */
export function merchantClient(baseUrl: string, apiKey: string): MerchantClient {
  const client = createClient<MerchantPaths>({ baseUrl, fetch: fetchKeepingText, headers: { 'X-Merchant-Key': apiKey } });
  client.use({
    onRequest: ({ request }) => {
      if (request.method === 'POST' && !request.headers.has('idempotency-key')) request.headers.set('idempotency-key', randomUUID());
      return request;
    },
  });
  return apiClient(client);
}

/** Both clients on one gateway: a TestApp's (t.admin, t.merchant()) or a gateway process's (apiClients(gw.url)). */
export interface ApiClients {
  admin: AdminClient;
  merchant(apiKey: string): MerchantClient;
}

export function apiClients(baseUrl: string, adminToken: string = TEST_ADMIN_TOKEN): ApiClients {
  return { admin: adminClient(baseUrl, adminToken), merchant: (apiKey) => merchantClient(baseUrl, apiKey) };
}
