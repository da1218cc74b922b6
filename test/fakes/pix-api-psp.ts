import { randomBytes, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer, request as httpsRequest, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { createDynamicPix, hasError } from 'pix-utils';
import { brCodeCrc } from '../../src/domain/br-code';
import { brasiliaDate, cycleOf, daysBetween, type Frequency } from '../../src/domain/recurrence';
import { testPki, type TestPki } from '../../src/testing/certificates';
import { patchedDocument, pixApiValidator, PixApiValidator, type Query } from './pix-api-openapi';

/*
 * A fake PSP speaking the Central Bank's Pix API (the OpenAPI document beside this file) over real
 * HTTPS with mutual TLS, with OAuth2 client credentials in front, as a bank's "API Pix" does.
 * Every request it receives, every answer it gives and every callback it posts is checked against
 * the (corrected) document; a violation is recorded and the request answered 400 naming it, so a
 * spec that calls `assertNoViolations()` after each test learns when the gateway, or the fake,
 * steps outside the standard.
 */

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

export interface PixApiPspOptions {
  /** Where the API lives under the origin: `/v2` (default), `/api/v1`, `` … */
  basePath?: string;
  /** The OAuth2 token endpoint, outside or inside the base path (default `/oauth/token`). */
  tokenPath?: string;
  clientId?: string;
  clientSecret?: string;
  /** Lifetime of issued access tokens, in seconds (default 3600). */
  tokenTtlSeconds?: number;
  /** The status of a created charge: 201 as the document says (default), or 200 as some PSPs answer. */
  createStatus?: 200 | 201;
  /** The status of a devolução asked for: 201 as the document says (default), or 200 as some PSPs answer. */
  refundStatus?: 200 | 201;
  /** The status of a charge revised or removed (`PATCH /cob/{txid}`): 200 as the document says (default), or 201 as Banco do Brasil answers. */
  reviseStatus?: 200 | 201;
  /** The name of the charge's copy-and-paste BR Code: `pixCopiaECola` (the document's) or `brcode` (Sicoob's). */
  copyPasteField?: 'pixCopiaECola' | 'brcode';
  /** Query parameters every API call must carry, e.g. Banco do Brasil's `{ 'gw-dev-app-key': 'k' }`. */
  requiredQuery?: Record<string, string>;
  /** Headers every API call must carry, e.g. Sicoob's `{ client_id: 'id' }`. Names are case-insensitive. */
  requiredHeaders?: Record<string, string>;
  /** The receiver's CNPJ, shown in webhook answers. */
  receiverCnpj?: string;
  /** The BR Code's merchant name and city (field 59 and 60). */
  merchantName?: string;
  merchantCity?: string;
  /** Host (and path) prefix of the charges' payload locations; scheme-less, as the standard has it. */
  locationHost?: string;
  /** ISPB of the payer's PSP in generated end-to-end ids. */
  payerIspb?: string;
  /** Appended to the webhook URL for Pix callbacks; the document's `{webhookUrl}/pix` (default `/pix`). */
  callbackPathSuffix?: string;
  /** Certificates; the process's test PKI by default. */
  pki?: TestPki;
  /**
   * Which charge answers carry the BR Code: every one (default), only `PUT /cob/{txid}`'s
   * (`create`), or only the reads' (`read`: GET and PATCH). The document makes `pixCopiaECola`
   * optional in `CobGerada` and `CobCompleta`, and none of its examples has it.
   */
  copyPasteOn?: 'all' | 'create' | 'read';
  /**
   * The scopes this client may be granted (default: those of the gateway's calls, Pix Automático's included). Asking for
   * one beyond them is `invalid_scope` (RFC 6749 section 5.2, "exceeds the scope granted"); asking
   * for none grants them all (section 3.3, the server's default).
   */
  grantableScopes?: readonly string[];
  /**
   * Validate requests against the document with its regex-literal patterns as published
   * (`"/^\d{11}$/"`), as a PSP that applied no errata would: no `devedor.cpf` then passes.
   */
  literalPatterns?: boolean;
  /** Compress answers in this coding whenever the request admits it (RFC 9110 section 12.5.3: a request without Accept-Encoding admits any). */
  contentEncoding?: 'gzip' | 'deflate' | 'br';
  /**
   * How the token answer is written: `standard` (`"Bearer"`, `expires_in` a number, `scope`), or
   * `loose`, which RFC 6749 also allows: `"bearer"` (section 5.1: case-insensitive), `expires_in`
   * as a string, no `scope` (optional when it is the one asked for).
   */
  tokenAnswer?: 'standard' | 'loose';
  /**
   * The PSP's clock for what it records and judges by the day (charges' and Pix's times, a due date
   * in the past, a recurrence's start): a test that moves the gateway's FakeClock gives it the same
   * one, so both agree on the day a Pix was paid. Tokens expire by the wall clock.
   */
  clock?: { now(): Date };
}

export interface PixPayer {
  name: string;
  cpf?: string;
  cnpj?: string;
}

export interface PayOptions {
  /** What the payer paid, in centavos; the charge's amount by default. */
  amountCents?: number;
  payer?: PixPayer;
  /** Free text from the payer (`infoPagador`). */
  info?: string;
  /** Post `{"pix":[…]}` to the key's webhook (default true). */
  postCallback?: boolean;
}

export interface CallbackResult {
  url: string;
  /** The body as sent. */
  body: string;
  /** The receiver's status, or undefined when the post failed (see `error`). */
  status?: number;
  responseBody?: string;
  error?: string;
  /** What the document finds wrong with the body (recorded as violations for the fake's own callbacks only). */
  violations: string[];
}

export interface CallbackInit {
  method?: string;
  /** The document's name of the callback the body is checked against: `listaPix` (default), `rec` or `cobr`. */
  callback?: 'listaPix' | 'rec' | 'cobr';
  headers?: Record<string, string>;
  /** For https receivers: client certificate (the document protects callbacks with mTLS) and CA. */
  tls?: { cert?: string; key?: string; ca?: string };
}

export interface FailureSpec {
  /**
   * `down`: the socket is destroyed without an answer; `status`: that HTTP status (default 503)
   * with a generic problem body; `slow`: the answer is held `delayMs` (default 2000), then given;
   * `malformed`: 200 with a body that is not the documented JSON; `problem`: the PSP refuses with
   * the problem the document describes for the route (default status 400).
   */
  kind: 'down' | 'status' | 'slow' | 'malformed' | 'problem';
  status?: number;
  delayMs?: number;
  /** How many requests it applies to (default 1). */
  times?: number;
  /** Headers of the injected answer (`status`): a 429's `Retry-After`. */
  headers?: Record<string, string>;
  /** Only requests whose path (with the base path, as sent) matches. */
  path?: RegExp | string;
  /** Only requests of this method (`PUT` for charge creation). */
  method?: string;
  /**
   * With `status`: carry the request out first (a charge is created), then answer the injected
   * status instead of the real answer: the PSP acted, the client cannot know it.
   */
  afterHandling?: boolean;
}

export interface LoggedRequest {
  method: string;
  /** The path as sent, base path included, without the query. */
  path: string;
  query: Query;
  /** Headers, with credentials replaced by `<redacted>`. */
  headers: IncomingHttpHeaders;
  /** Parsed JSON or form body (secrets redacted), the raw text otherwise, undefined when empty. */
  body: unknown;
  at: Date;
}

export interface Webhook {
  webhookUrl: string;
  chave: string;
  criacao: string;
}

/** A `webhookrec` or `webhookcobr` registration. */
export interface RecurringWebhook {
  webhookUrl: string;
  criacao: string;
}

/** What the payer's bank answers an attempt with, when it fails (`rejeicao`). */
export interface AttemptRejection {
  codigo?: string;
  descricao?: string;
}

export interface PixApiPsp {
  /** `https://127.0.0.1:PORT` + base path: the API base URL. */
  readonly url: string;
  readonly origin: string;
  readonly tokenUrl: string;
  /** The CA that signed the server certificate (and the client certificates). */
  readonly caPem: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Charges by txid, as the API shows them (the objects are live). */
  readonly charges: Map<string, Json>;
  /** Due-date charges (`cobv`) by txid, as the API shows them. */
  readonly dueCharges: Map<string, Json>;
  /** Batches (`lotecobv`) by id: `{id, descricao, criacao, items: [{txid, status, problema?, request}]}`. */
  readonly batches: Map<string, Json>;
  /** The next batch holding `txid` refuses it (NEGADA) with `problema` (by default the document's example, a devedor out of schema). */
  refuseBatchItem(txid: string, problema?: Json): void;
  /** The next batch made stays EM_PROCESSAMENTO for `reads` reads of `GET /lotecobv/{id}`, then is processed. */
  holdBatches(reads: number): void;
  /** Received Pix by endToEndId (the same objects as in the charges' `pix` lists). */
  readonly pixes: Map<string, Json>;
  /** Registered webhooks by Pix key. */
  readonly webhooks: Map<string, Webhook>;
  readonly requests: LoggedRequest[];
  /** Callbacks posted, by `pay`, `refundSettles` or `postCallback`. */
  readonly callbacks: CallbackResult[];
  /** Violations of the document seen so far. */
  readonly violations: string[];
  /** Requests to the token endpoint. */
  readonly tokenRequests: number;
  /** TLS handshakes the server refused (no client certificate, an expired or untrusted one). */
  readonly tlsRefusals: number;
  /** Requests received and not yet answered (nor abandoned by the client). */
  readonly openRequests: number;
  /** The most requests open at once since the start or the last reset(). */
  readonly peakOpenRequests: number;
  /** Invalidates every token issued so far: the next API call with one gets 401. */
  expireTokens(): void;
  /**
   * A payment of an ATIVA charge, immediate or due-date: CONCLUIDA, a new Pix, and (unless told
   * not to) the callback. `amountCents` other than a due-date charge's original value is a late
   * payment with its fine and interest, or an early one with its discount.
   */
  pay(txid: string, options?: PayOptions): Promise<{ pix: Json; callback?: CallbackResult }>;
  /** POSTs anything to any http(s) URL: forged, batched or repeated notifications. */
  postCallback(url: string, body: unknown, init?: CallbackInit): Promise<CallbackResult>;
  /** A refund reaches its final status; the Pix's callback is posted (the document says so) unless told not to. */
  refundSettles(
    e2eid: string,
    id: string,
    status: 'DEVOLVIDO' | 'NAO_REALIZADO',
    options?: { postCallback?: boolean; motivo?: string },
  ): Promise<{ refund: Json; callback?: CallbackResult }>;
  /**
   * Money of a Pix goes back without the API: the receiver at the PSP's portal (`ORIGINAL`), or a MED
   * return (`MED_*`). A devolução with an id the PSP chose, settled DEVOLVIDO at once, and the Pix's
   * callback posted unless told not to.
   */
  refundOutside(
    e2eid: string,
    amountCents: number,
    natureza: 'ORIGINAL' | 'MED_OPERACIONAL' | 'MED_FRAUDE' | 'MED_PIX_AUTOMATICO',
    options?: { postCallback?: boolean },
  ): Promise<{ refund: Json; callback?: CallbackResult }>;
  /** Recurrences by idRec, and recurring charges by txid, as the API shows them (the objects are live). */
  readonly recurrences: Map<string, Json>;
  readonly recurringCharges: Map<string, Json>;
  /** The `webhookrec` and `webhookcobr` registrations. */
  readonly recurringWebhooks: { rec?: RecurringWebhook; cobr?: RecurringWebhook };
  /** The payer authorizes a CRIADA recurrence (APROVADA), and `{"recs":[…]}` is posted. */
  approveRecurrence(idRec: string): Promise<CallbackResult | undefined>;
  /** The payer refuses it (REJEITADA). */
  rejectRecurrence(idRec: string): Promise<CallbackResult | undefined>;
  /** The payer never answered (EXPIRADA). */
  expireRecurrence(idRec: string): Promise<CallbackResult | undefined>;
  /** The payer cancels it (CANCELADA by USUARIO_PAGADOR), and its open charges with it (then `{"cobsr":[…]}` too). */
  payerCancelsRecurrence(idRec: string): Promise<CallbackResult | undefined>;
  /** The payer's bank settles the charge's current attempt (PAGA, the charge CONCLUIDA), and `{"cobsr":[…]}` is posted. */
  settleRecurringCharge(txid: string): Promise<CallbackResult | undefined>;
  /**
   * The payer's bank fails the current attempt (REJEITADA with `rejeicao`). The charge stays ATIVA
   * while a retry may be asked for; it is REJEITADA when the policy allows none, the retries are
   * spent, or the code is one the document says rejects the charge.
   */
  failRecurringCharge(txid: string, rejection?: AttemptRejection): Promise<CallbackResult | undefined>;
  /** Queues a failure for the next matching request(s). */
  fail(spec: FailureSpec): void;
  /** Forgets the queued failures, and the peak of open requests. */
  reset(): void;
  /** Returns the violations seen so far and forgets them. */
  takeViolations(): string[];
  /** Throws, listing them, if the document was violated (and forgets them, for the next test). */
  assertNoViolations(): void;
  close(): Promise<void>;
}

const ERROR_TYPE = 'https://pix.bcb.gov.br/api/v2/error/';
const DEFAULT_SCOPES = [
  'cob.write',
  'cob.read',
  'pix.write',
  'pix.read',
  'webhook.write',
  'webhook.read',
  // Due-date charges' and their batches', which a profile that declares them asks for too.
  'cobv.write',
  'cobv.read',
  'lotecobv.write',
  'lotecobv.read',
  'payloadlocation.write',
  'payloadlocation.read',
  // Pix Automático's, which a profile that declares `recurring` asks for too.
  'rec.write',
  'rec.read',
  'payloadlocationrec.write',
  'payloadlocationrec.read',
  'solicrec.write',
  'solicrec.read',
  'cobr.write',
  'cobr.read',
  'webhookrec.write',
  'webhookrec.read',
  'webhookcobr.write',
  'webhookcobr.read',
];
const MAX_BODY = 1024 * 1024;
/** "Os códigos de rejeição da tentativa AC05, AM09, DENC, DS27, DTED, MIDI, MSUC, NITX, RC09 […] causam a rejeição da cobrança recorrente correspondente." */
const CHARGE_REJECTING_CODES = ['AC05', 'AM09', 'DENC', 'DS27', 'DTED', 'MIDI', 'MSUC', 'NITX', 'RC09'];

interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  violacoes?: { razao: string; propriedade?: string; valor?: string }[];
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Checked against the document's answer for this status instead (a profile's declared deviation). */
  documentedStatus?: number;
  /** Not checked against the document (answers of the OAuth2 layer, of the fake's own limits). */
  unchecked?: boolean;
}

interface IssuedToken {
  expiresAt: number;
  scopes: string[];
  generation: number;
}

interface FailureRule extends FailureSpec {
  remaining: number;
}

/** `centavos` as the document writes money: "10.50". */
function money(centavos: number): string {
  if (!Number.isSafeInteger(centavos) || centavos < 0) throw new Error(`not a whole number of centavos: ${centavos}`);
  return `${Math.floor(centavos / 100)}.${String(centavos % 100).padStart(2, '0')}`;
}

function centavos(value: string): number {
  const [units, cents] = value.split('.');
  return Number(units) * 100 + Number(cents ?? 0);
}

/**
 * `componentesValor` of a Pix that paid a due-date charge: its original value, and what the payer
 * paid beyond it as interest, or short of it as a discount (the document's rule: valor = original +
 * multa + juros − abatimento − desconto).
 */
function dueComponents(original: string, paid: string): Json {
  const difference = centavos(paid) - centavos(original);
  if (difference > 0) return { original: { valor: original }, juros: { valor: money(difference) } };
  if (difference < 0) return { original: { valor: original }, desconto: { valor: money(-difference) } };
  return { original: { valor: original } };
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
function alphanumeric(length: number): string {
  let text = '';
  for (let i = 0; i < length; i++) text += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return text;
}

/** yyyyMMddHHmm in UTC, as end-to-end and return ids carry it. */
function minuteStamp(date: Date): string {
  return date.toISOString().replace(/[-T:]/g, '').slice(0, 12);
}

/** An SPI id: a letter (E for a payment, D for a return), the ISPB, yyyyMMddHHmm and 11 alphanumerics = 32. */
function spiId(letter: 'E' | 'D', ispb: string, at: Date): string {
  return `${letter}${ispb}${minuteStamp(at)}${alphanumeric(11)}`;
}

function problem(status: number, type: string, title: string, detail?: string, violacoes?: Problem['violacoes']): Reply {
  const body: Problem = { type: type.includes(':') ? type : `${ERROR_TYPE}${type}`, title, status };
  if (detail !== undefined) body.detail = detail;
  if (violacoes?.length) body.violacoes = violacoes;
  return { status, body, headers: { 'content-type': 'application/problem+json' } };
}

/** Whether an Accept header admits `type` (no header admits anything). */
function admits(accept: string | undefined, type: string): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  const major = type.split('/')[0];
  return accept.split(',').some((range) => {
    const [media, ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    if (params.some((param) => /^q=0(\.0*)?$/.test(param))) return false;
    return media === '*/*' || media === `${major}/*` || media === type;
  });
}

/** Whether an Accept-Encoding header admits `coding` (RFC 9110 section 12.5.3: no header admits any). */
function admitsCoding(acceptEncoding: string | undefined, coding: string): boolean {
  if (acceptEncoding === undefined) return true;
  return acceptEncoding.split(',').some((entry) => {
    const [name, ...params] = entry.split(';').map((part) => part.trim().toLowerCase());
    return (name === coding || name === '*') && !params.some((param) => /^q=0(\.0*)?$/.test(param));
  });
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function equalSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function redactHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const copy: IncomingHttpHeaders = { ...headers };
  for (const name of Object.keys(copy)) {
    if (name === 'authorization') {
      const scheme = String(copy[name]).split(' ')[0];
      copy[name] = `${scheme} <redacted>`;
    } else if (name === 'cookie' || /secret|password|token/i.test(name)) {
      copy[name] = '<redacted>';
    }
  }
  return copy;
}

/** A charge's status, as the document's CobrancaStatus names it. */
type ChargeStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

export async function startPixApiPsp(options: PixApiPspOptions = {}): Promise<PixApiPsp> {
  const pki = options.pki ?? testPki();
  const basePath = (options.basePath ?? '/v2').replace(/\/+$/, '');
  const tokenPath = options.tokenPath ?? '/oauth/token';
  const clientId = options.clientId ?? 'fake-psp-client-id';
  const clientSecret = options.clientSecret ?? 'fake-psp-client-secret';
  const tokenTtlSeconds = options.tokenTtlSeconds ?? 3600;
  const copyPasteField = options.copyPasteField ?? 'pixCopiaECola';
  const createStatus = options.createStatus ?? 201;
  const refundStatus = options.refundStatus ?? 201;
  const reviseStatus = options.reviseStatus ?? 200;
  const receiverCnpj = options.receiverCnpj ?? '12345678000195';
  const merchantName = options.merchantName ?? 'FAKE PSP RECEBEDOR';
  const merchantCity = options.merchantCity ?? 'SAO PAULO';
  const locationHost = options.locationHost ?? 'pix.fake-psp.example/qr/v2';
  const payerIspb = options.payerIspb ?? '60701190';
  const callbackPathSuffix = options.callbackPathSuffix ?? '/pix';
  const requiredHeaders = Object.entries(options.requiredHeaders ?? {}).map(([name, value]) => [name.toLowerCase(), value] as const);
  const validator: PixApiValidator = pixApiValidator();
  // A PSP that validates requests with the document as published (answers are still checked against the corrected one).
  const requestValidator: PixApiValidator = options.literalPatterns ? new PixApiValidator(patchedDocument(['unwrapRegexLiteralPatterns'])) : validator;
  const copyPasteOn = options.copyPasteOn ?? 'all';
  const grantableScopes = options.grantableScopes ?? DEFAULT_SCOPES;
  const currentTime = (): Date => options.clock?.now() ?? new Date();

  const charges = new Map<string, Json>();
  const dueCharges = new Map<string, Json>();
  /** Batches by their id (digits), each with its charges' requests and statuses. */
  const batches = new Map<string, Json>();
  /** Charges the next batch holding them refuses, with the problem to give. */
  const batchRefusals = new Map<string, Json>();
  /** How many reads the next batch made stays EM_PROCESSAMENTO. */
  let heldBatchReads = 0;
  const pixes = new Map<string, Json>();
  const webhooks = new Map<string, Webhook>();
  const requests: LoggedRequest[] = [];
  const callbacks: CallbackResult[] = [];
  const violations: string[] = [];
  const tokens = new Map<string, IssuedToken>();
  let tokenGeneration = 0;
  let tokenRequests = 0;
  let tlsRefusals = 0;
  let openRequests = 0;
  let peakOpenRequests = 0;
  let nextLocationId = 1;
  let failures: FailureRule[] = [];
  const timers = new Set<{ timer: NodeJS.Timeout; resolve: () => void }>();
  let closed = false;

  const record = (found: string[]): void => {
    violations.push(...found);
  };

  // ---- OAuth2 client credentials (RFC 6749 section 4.4) -------------------------------------

  const tokenEndpoint = (method: string, headers: IncomingHttpHeaders, raw: string): Reply => {
    tokenRequests++;
    const oauthError = (status: number, error: string, description: string, extra?: Record<string, string>): Reply => ({
      status,
      body: { error, error_description: description },
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...extra },
      unchecked: true,
    });
    if (method !== 'POST') return { ...oauthError(405, 'invalid_request', 'the token endpoint takes POST'), headers: { allow: 'POST', 'content-type': 'application/json' } };
    if (!/^application\/x-www-form-urlencoded\b/i.test(headers['content-type'] ?? '')) {
      return oauthError(400, 'invalid_request', 'the body must be application/x-www-form-urlencoded');
    }
    const form = new URLSearchParams(raw);
    let id: string | undefined;
    let secret: string | undefined;
    const basic = /^Basic\s+(\S+)$/i.exec(headers.authorization ?? '');
    if (basic) {
      const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 0) return oauthError(401, 'invalid_client', 'malformed Basic credentials', { 'www-authenticate': 'Basic realm="fake-psp"' });
      // RFC 6749 section 2.3.1: both parts are form-urlencoded before being joined.
      id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
      if (form.has('client_secret')) return oauthError(400, 'invalid_request', 'client credentials given both by Basic and in the body');
    } else {
      id = form.get('client_id') ?? undefined;
      secret = form.get('client_secret') ?? undefined;
    }
    const grantType = form.get('grant_type');
    if (!grantType) return oauthError(400, 'invalid_request', 'grant_type is missing');
    if (id === undefined || secret === undefined) {
      return oauthError(401, 'invalid_client', 'no client credentials', { 'www-authenticate': 'Basic realm="fake-psp"' });
    }
    if (!equalSecret(id, clientId) || !equalSecret(secret, clientSecret)) {
      return oauthError(401, 'invalid_client', 'unknown client or wrong secret', basic ? { 'www-authenticate': 'Basic realm="fake-psp"' } : undefined);
    }
    if (grantType !== 'client_credentials') return oauthError(400, 'unsupported_grant_type', `grant_type ${grantType} is not supported`);
    const requested = (form.get('scope') ?? '').split(' ').filter(Boolean);
    const known = Object.keys(validator.scopes());
    const unknown = requested.filter((scope) => !known.includes(scope));
    if (unknown.length) return oauthError(400, 'invalid_scope', `unknown scope: ${unknown.join(' ')}`);
    const beyond = requested.filter((scope) => !grantableScopes.includes(scope));
    if (beyond.length) return oauthError(400, 'invalid_scope', `the client may not have: ${beyond.join(' ')}`);
    const scopes = requested.length ? requested : [...grantableScopes];
    const accessToken = randomBytes(24).toString('base64url');
    tokens.set(accessToken, { expiresAt: Date.now() + tokenTtlSeconds * 1000, scopes, generation: tokenGeneration });
    return {
      status: 200,
      body:
        options.tokenAnswer === 'loose'
          ? { access_token: accessToken, token_type: 'bearer', expires_in: String(tokenTtlSeconds) }
          : { access_token: accessToken, token_type: 'Bearer', expires_in: tokenTtlSeconds, scope: scopes.join(' ') },
      headers: { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' },
      unchecked: true,
    };
  };

  /** The bearer token's grant, or the 401 to answer (RFC 6750). */
  const authenticate = (headers: IncomingHttpHeaders): IssuedToken | Reply => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '');
    const challenge = (error?: string): Reply => ({
      ...problem(401, 'about:blank', 'Unauthorized', error ? 'the access token is invalid or has expired' : 'an access token is required'),
      headers: { 'content-type': 'application/problem+json', 'www-authenticate': `Bearer realm="fake-psp"${error ? `, error="${error}"` : ''}` },
      unchecked: true,
    });
    if (!bearer) return challenge();
    const grant = tokens.get(bearer[1]!);
    if (grant?.generation !== tokenGeneration || grant.expiresAt <= Date.now()) return challenge('invalid_token');
    return grant;
  };

  // ---- Charges (cob) -----------------------------------------------------------------------

  const brCode = (location: string): string => {
    const pix = createDynamicPix({ merchantName, merchantCity, url: location });
    if (hasError(pix)) throw new Error(`pix-utils refused the BR Code for ${location}: ${pix.message}`);
    return pix.toBRCode();
  };

  /** A charge as one answer shows it: without its BR Code where `copyPasteOn` says so. */
  const chargeView = (charge: Json, answer: 'create' | 'read'): Json => {
    const view = structuredClone(charge);
    if (copyPasteOn !== 'all' && copyPasteOn !== answer) delete view[copyPasteField];
    return view;
  };

  const createCharge = (txid: string, body: Json): Reply => {
    const existing = charges.get(txid);
    if (existing) {
      if (existing.status !== 'ATIVA') {
        return problem(400, 'CobOperacaoInvalida', 'Cobrança inválida.', `A cobrança ${txid} já existe e não está ATIVA.`);
      }
      // PUT of an ATIVA charge alters it (the document refuses that only once it is no longer
      // ATIVA): what the body changes is a revision; the same body again changes nothing.
      const semantic = chargeProblems(body);
      if (semantic) return semantic;
      reviseWith(existing, body);
      return { status: createStatus, body: chargeView(existing, 'create'), documentedStatus: 201 };
    }
    const semantic = chargeProblems(body);
    if (semantic) return semantic;
    const now = currentTime().toISOString();
    const location = `${locationHost}/${randomUUID().replace(/-/g, '')}`;
    const charge: Json = {
      calendario: { criacao: now, expiracao: body.calendario?.expiracao ?? 86400 },
      txid,
      revisao: 0,
      loc: { id: nextLocationId++, location, tipoCob: 'cob', criacao: now, txid },
      location,
      status: 'ATIVA' satisfies ChargeStatus,
      ...(body.devedor ? { devedor: body.devedor } : {}),
      valor: body.valor,
      chave: body.chave,
      ...(body.solicitacaoPagador !== undefined ? { solicitacaoPagador: body.solicitacaoPagador } : {}),
      ...(body.infoAdicionais !== undefined ? { infoAdicionais: body.infoAdicionais } : {}),
      [copyPasteField]: brCode(location),
    };
    charges.set(txid, charge);
    return { status: createStatus, body: chargeView(charge, 'create'), documentedStatus: 201 };
  };

  /** The semantic refusals the document lists for PUT/PATCH /cob/{txid}. */
  const chargeProblems = (body: Json): Reply | undefined => {
    const violacoes: Problem['violacoes'] = [];
    if (body.calendario?.expiracao !== undefined && body.calendario.expiracao <= 0) {
      violacoes.push({ razao: 'O campo cob.calendario.expiracao é igual ou menor que zero.', propriedade: 'cob.calendario.expiracao' });
    }
    if (body.valor?.original !== undefined && centavos(body.valor.original) === 0 && !body.valor.retirada) {
      violacoes.push({ razao: 'O campo cob.valor.original é zero.', propriedade: 'cob.valor.original', valor: body.valor.original });
    }
    if (!violacoes.length) return undefined;
    return problem(
      400,
      'CobOperacaoInvalida',
      'Cobrança inválida.',
      'A requisição que busca alterar ou criar uma cobrança não respeita o schema ou está semanticamente errada.',
      violacoes,
    );
  };

  const reviseCharge = (txid: string, body: Json): Reply => {
    const charge = charges.get(txid);
    if (!charge) return problem(404, 'CobNaoEncontrado', 'Cobrança não encontrada.', `Nenhuma cobrança com o txid ${txid}.`);
    if (charge.status !== 'ATIVA') return problem(400, 'CobOperacaoInvalida', 'Operação inválida.', `A cobrança ${txid} não está ATIVA.`);
    if (body.status !== undefined) {
      if (Object.keys(body).some((key) => key !== 'status')) {
        return problem(400, 'CobOperacaoInvalida', 'Operação inválida.', 'Remover a cobrança junto com outras alterações não faz sentido.');
      }
      charge.status = body.status;
      charge.revisao++;
      return { status: reviseStatus, body: chargeView(charge, 'read'), documentedStatus: 200 };
    }
    const semantic = chargeProblems(body);
    if (semantic) return semantic;
    reviseWith(charge, body);
    return { status: reviseStatus, body: chargeView(charge, 'read'), documentedStatus: 200 };
  };

  /** Applies what `body` sets to an ATIVA charge; `revisao` grows only when something changed (the document's `Revisao`). */
  const reviseWith = (charge: Json, body: Json): void => {
    const before = JSON.stringify(charge);
    if (body.calendario?.expiracao !== undefined) charge.calendario.expiracao = body.calendario.expiracao;
    if (body.valor) charge.valor = { ...charge.valor, ...body.valor };
    for (const key of ['devedor', 'chave', 'solicitacaoPagador', 'infoAdicionais']) {
      if (body[key] !== undefined) charge[key] = body[key];
    }
    if (JSON.stringify(charge) !== before) charge.revisao++;
  };

  const getCharge = (txid: string, query: Query): Reply => {
    const charge = charges.get(txid);
    const revisao = firstValue(query.revisao);
    if (!charge || (revisao !== undefined && Number(revisao) > charge.revisao)) {
      return problem(404, 'CobNaoEncontrado', 'Cobrança não encontrada.', `Nenhuma cobrança com o txid ${txid}${revisao !== undefined ? ` na revisão ${revisao}` : ''}.`);
    }
    return { status: 200, body: chargeView(charge, 'read') };
  };

  const page = <T>(items: T[], query: Query): { items: T[]; paginacao: Json } => {
    const paginaAtual = Number(firstValue(query['paginacao.paginaAtual']) ?? 0);
    const itensPorPagina = Number(firstValue(query['paginacao.itensPorPagina']) ?? 100);
    return {
      items: items.slice(paginaAtual * itensPorPagina, (paginaAtual + 1) * itensPorPagina),
      paginacao: { paginaAtual, itensPorPagina, quantidadeDePaginas: Math.max(1, Math.ceil(items.length / itensPorPagina)), quantidadeTotalDeItens: items.length },
    };
  };

  const inRange = (iso: string, query: Query): boolean => {
    const at = Date.parse(iso);
    return at >= Date.parse(firstValue(query.inicio)!) && at <= Date.parse(firstValue(query.fim)!);
  };

  const listCharges = (query: Query): Reply => {
    const cpf = firstValue(query.cpf);
    const cnpj = firstValue(query.cnpj);
    const status = firstValue(query.status);
    const found = [...charges.values()].filter(
      (charge) =>
        inRange(charge.calendario.criacao, query) &&
        (cpf === undefined || charge.devedor?.cpf === cpf) &&
        (cnpj === undefined || charge.devedor?.cnpj === cnpj) &&
        (status === undefined || charge.status === status),
    );
    const { items, paginacao } = page(found, query);
    const parametros: Json = { inicio: firstValue(query.inicio), fim: firstValue(query.fim), paginacao };
    for (const key of ['cpf', 'cnpj', 'status'] as const) if (query[key] !== undefined) parametros[key] = firstValue(query[key]);
    return { status: 200, body: { parametros, cobs: items.map((charge) => chargeView(charge, 'read')) } };
  };

  // ---- Due-date charges (cobv) and their batches (lotecobv) ------------------------------------
  //
  // Due-date charges are held apart from immediate ones (`GET /cob/{txid}` of a cobv's txid is 404,
  // as at a PSP), under the same Pix, callbacks and refunds. A batch asks for charges that exist
  // only once it is processed: at once, unless the test holds it (holdBatches) for some reads, or
  // refuses one of its charges (refuseBatchItem).

  const cobvProblem = (violacoes: NonNullable<Problem['violacoes']>): Reply =>
    problem(
      400,
      'CobVOperacaoInvalida',
      'Cobrança inválida.',
      'A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o _schema_ ou está semanticamente errada.',
      violacoes,
    );

  /** The semantic refusals the document lists for PUT and PATCH /cobv/{txid}, of the charge `charge` would be (`createdOn`: its creation day). */
  const dueChargeProblems = (charge: Json, createdOn: string): Reply | undefined => {
    const violacoes: NonNullable<Problem['violacoes']> = [];
    const refuse = (razao: string, propriedade: string) => violacoes.push({ razao, propriedade });
    const due: string = charge.calendario.dataDeVencimento;
    if (due < createdOn) refuse('O campo cobv.calendario.dataDeVencimento é anterior à data de criação da cobrança.', 'cobv.calendario.dataDeVencimento');
    if ((charge.calendario.validadeAposVencimento ?? 30) < 0)
      refuse('O campo cobv.calendario.validadeAposVencimento é menor do que zero.', 'cobv.calendario.validadeAposVencimento');
    const original = centavos(charge.valor.original);
    if (original === 0) refuse('O campo cobv.valor.original apresenta o valor zero.', 'cobv.valor.original');
    const reaches = (modalidade: number, valorPerc: string, percentModalidades: number[]) =>
      percentModalidades.includes(modalidade) ? centavos(valorPerc) >= 10_000 : centavos(valorPerc) >= original;
    const abatimento = charge.valor.abatimento;
    if (abatimento && reaches(abatimento.modalidade, abatimento.valorPerc, [2])) {
      refuse('O objeto cobv.valor.abatimento representa um valor maior ou igual ao valor da cobrança original ou maior ou igual a 100%.', 'cobv.valor.abatimento');
    }
    const desconto = charge.valor.desconto;
    if (desconto) {
      const fixedDates = desconto.modalidade === 1 || desconto.modalidade === 2;
      const steps: Json[] = desconto.descontoDataFixa ?? [];
      if (fixedDates && desconto.valorPerc !== undefined)
        refuse('O objeto cobv.valor.desconto apresenta modalidade no valor 1 ou 2, porém cobv.valor.desconto.valorPerc encontra-se preenchido', 'cobv.valor.desconto');
      if (fixedDates && steps.length === 0)
        refuse('O objeto cobv.valor.desconto apresenta modalidade no valor 1 ou 2, porém o array cobv.valor.desconto.descontoDataFixa está vazio ou nulo.', 'cobv.valor.desconto');
      if (!fixedDates && desconto.valorPerc === undefined)
        refuse(
          'O objeto cobv.valor.desconto apresenta modalidade nos valores de 3 a 6, porém o elemento cobv.valor.desconto.valorPerc não está preenchido.',
          'cobv.valor.desconto',
        );
      if (!fixedDates && desconto.descontoDataFixa !== undefined)
        refuse(
          'O objeto cobv.valor.desconto apresenta modalidade nos valores de 3 a 6, porém o elemento cobv.valor.desconto.descontoDataFixa está preenchido ou não nulo.',
          'cobv.valor.desconto',
        );
      const values = fixedDates ? steps.map((step) => step.valorPerc as string) : desconto.valorPerc === undefined ? [] : [desconto.valorPerc as string];
      if (values.some((value) => reaches(desconto.modalidade, value, [2, 5, 6]))) {
        refuse(
          'O objeto cobv.valor.desconto apresenta algum elemento de desconto que representa um valor maior ou igual ao valor da cobrança original ou maior ou igual a 100%.',
          'cobv.valor.desconto',
        );
      }
      if (steps.some((step) => step.data > due))
        refuse(
          'O objeto cobv.valor.desconto apresenta algum elemento cuja data seja posterior à data de vencimento representada por calendario.dataDeVencimento.',
          'cobv.valor.desconto',
        );
    }
    return violacoes.length ? cobvProblem(violacoes) : undefined;
  };

  /** A txid a batch holds in EM_PROCESSAMENTO or NEGADA: `PUT|PATCH /cobv` of it is refused (the document's first violation of both). */
  const heldByBatch = (txid: string): boolean =>
    [...batches.values()].some((lote) => lote.items.some((item: Json) => item.txid === txid && (item.status === 'EM_PROCESSAMENTO' || item.status === 'NEGADA')));

  /** `PUT /cobv/{txid}`: a new charge, or a change of an ATIVA one; the Reply, or the charge made. */
  const putDueCharge = (txid: string, body: Json, options: { viaBatch?: boolean } = {}): Reply => {
    if (!options.viaBatch && heldByBatch(txid)) {
      return cobvProblem([
        { razao: 'Este txid está associado a um lote e no referido lote, o status desta cobrança está atribuído como EM_PROCESSAMENTO ou NEGADA.', propriedade: 'cobv.txid' },
      ]);
    }
    if (charges.has(txid)) return cobvProblem([{ razao: `O txid ${txid} já é de uma cobrança imediata.`, propriedade: 'cobv.txid' }]);
    const existing = dueCharges.get(txid);
    if (existing) {
      if (existing.status !== 'ATIVA') return problem(400, 'CobVOperacaoInvalida', 'Cobrança inválida.', `A cobrança ${txid} já existe e não está ATIVA.`);
      // A PUT says the whole charge again: what it leaves out of `valor` is gone.
      const revised = reviseDueWith(structuredClone(existing), { ...body, valor: undefined });
      revised.valor = body.valor;
      revised.calendario.validadeAposVencimento = body.calendario.validadeAposVencimento ?? 30;
      const semantic = dueChargeProblems(revised, existing.calendario.criacao.slice(0, 10));
      if (semantic) return semantic;
      if (JSON.stringify(revised) !== JSON.stringify(existing)) revised.revisao = existing.revisao + 1;
      dueCharges.set(txid, revised);
      return { status: createStatus, body: chargeView(revised, 'create'), documentedStatus: 201 };
    }
    const now = currentTime();
    const criacao = now.toISOString();
    const location = `${locationHost}/cobv/${randomUUID().replace(/-/g, '')}`;
    const charge: Json = {
      calendario: { criacao, dataDeVencimento: body.calendario.dataDeVencimento, validadeAposVencimento: body.calendario.validadeAposVencimento ?? 30 },
      txid,
      revisao: 0,
      loc: { id: nextLocationId++, location, tipoCob: 'cobv', criacao, txid },
      location,
      status: 'ATIVA' satisfies ChargeStatus,
      devedor: body.devedor,
      recebedor: { cnpj: receiverCnpj, nome: merchantName, logradouro: 'Rua do Recebedor, 100', cidade: merchantCity, uf: 'SP', cep: '01001000' },
      valor: body.valor,
      chave: body.chave,
      ...(body.solicitacaoPagador !== undefined ? { solicitacaoPagador: body.solicitacaoPagador } : {}),
      ...(body.infoAdicionais !== undefined ? { infoAdicionais: body.infoAdicionais } : {}),
      [copyPasteField]: brCode(location),
    };
    const semantic = dueChargeProblems(charge, brasiliaDate(now));
    if (semantic) return semantic;
    dueCharges.set(txid, charge);
    return { status: createStatus, body: chargeView(charge, 'create'), documentedStatus: 201 };
  };

  /**
   * What a `CobVRevisada` (or a `PUT` of an ATIVA charge) sets: `calendario` member by member, each
   * member of `valor` given replaced, and one given as null removed (the standard's maintainers in
   * https://github.com/bacen/pix-api/issues/281: a member left out stays as it was).
   */
  const reviseDueWith = (charge: Json, body: Json): Json => {
    if (body.calendario) charge.calendario = { ...charge.calendario, ...body.calendario };
    for (const [key, value] of Object.entries<Json>(body.valor ?? {})) {
      if (value === null) delete charge.valor[key];
      else charge.valor[key] = value;
    }
    for (const key of ['devedor', 'chave', 'solicitacaoPagador', 'infoAdicionais']) {
      if (body[key] === null) delete charge[key];
      else if (body[key] !== undefined) charge[key] = body[key];
    }
    return charge;
  };

  const reviseDueCharge = (txid: string, body: Json): Reply => {
    const charge = dueCharges.get(txid);
    if (!charge) return problem(404, 'CobVNaoEncontrada', 'Cobrança não encontrada.', `Nenhuma cobrança com vencimento com o txid ${txid}.`);
    if (heldByBatch(txid)) {
      return cobvProblem([
        { razao: 'Este txid está associado a um lote e no referido lote, o status desta cobrança está atribuído como EM_PROCESSAMENTO ou NEGADA.', propriedade: 'cobv.txid' },
      ]);
    }
    if (charge.status !== 'ATIVA') return problem(400, 'CobVOperacaoInvalida', 'Operação inválida.', `A cobrança ${txid} não está ATIVA.`);
    if (body.status !== undefined) {
      if (Object.keys(body).some((key) => key !== 'status')) {
        return problem(400, 'CobVOperacaoInvalida', 'Operação inválida.', 'Remover a cobrança junto com outras alterações não faz sentido.');
      }
      charge.status = body.status;
      charge.revisao++;
      return { status: reviseStatus, body: chargeView(charge, 'read'), documentedStatus: 200 };
    }
    const revised = reviseDueWith(structuredClone(charge), body);
    const semantic = dueChargeProblems(revised, charge.calendario.criacao.slice(0, 10));
    if (semantic) return semantic;
    if (JSON.stringify(revised) !== JSON.stringify(charge)) revised.revisao = charge.revisao + 1;
    dueCharges.set(txid, revised);
    return { status: reviseStatus, body: chargeView(revised, 'read'), documentedStatus: 200 };
  };

  const getDueCharge = (txid: string, query: Query): Reply => {
    const charge = dueCharges.get(txid);
    const revisao = firstValue(query.revisao);
    if (!charge || (revisao !== undefined && Number(revisao) > charge.revisao)) {
      return problem(
        404,
        'CobVNaoEncontrada',
        'Cobrança não encontrada.',
        `Nenhuma cobrança com vencimento com o txid ${txid}${revisao !== undefined ? ` na revisão ${revisao}` : ''}.`,
      );
    }
    return { status: 200, body: chargeView(charge, 'read') };
  };

  const loteProblem = (detail: string, propriedade = 'loteCobV.cobsV'): Reply =>
    problem(400, 'LoteCobVOperacaoInvalida', 'Lote inválido.', detail, [{ razao: detail, propriedade }]);

  /** Each charge a batch still processes: CRIADA or NEGADA (with the problem the same `PUT /cobv` would get, or the one the test chose). */
  const processBatch = (lote: Json): void => {
    for (const item of lote.items) {
      if (item.status !== 'EM_PROCESSAMENTO') continue;
      const refusal = batchRefusals.get(item.txid);
      batchRefusals.delete(item.txid);
      const reply = refusal ? undefined : putDueCharge(item.txid, item.request, { viaBatch: true });
      if (refusal || (reply && reply.status >= 400)) {
        item.status = 'NEGADA';
        item.problema = refusal ?? reply!.body;
        delete item.criacao;
      } else {
        item.status = 'CRIADA';
        item.criacao = currentTime().toISOString();
        delete item.problema;
      }
    }
  };

  const putBatch = (id: string, body: Json): Reply => {
    // The document gives a batch's id as an integer (LoteCobVConsultado.id, int64): this PSP takes digits only.
    if (!/^\d{1,15}$/.test(id)) return loteProblem(`O id ${id} não é um número: este PSP identifica lotes por números.`, 'loteCobV.id');
    const txids: string[] = body.cobsv.map((charge: Json) => charge.txid);
    if (new Set(txids).size !== txids.length) return loteProblem('O objeto loteCobV.cobsV referencia o mesmo txid mais de uma vez.');
    const existing = batches.get(id);
    if (existing) {
      const before = existing.items.map((item: Json) => item.txid).sort();
      if (JSON.stringify(before) !== JSON.stringify([...txids].sort())) {
        return loteProblem('A requisição busca alterar um lote já existente com um conjunto de cobranças diferente do que o criou.');
      }
      existing.descricao = body.descricao;
      for (const item of existing.items) {
        item.request = body.cobsv.find((charge: Json) => charge.txid === item.txid);
        item.status = 'EM_PROCESSAMENTO';
      }
      processBatch(existing);
      return { status: 202 };
    }
    if (txids.some((txid) => dueCharges.has(txid) || charges.has(txid)))
      return loteProblem('A requisição tenta criar um conjunto de cobranças dentre as quais pelo menos uma cobrança já encontra-se criada.');
    const lote: Json = {
      id: Number(id),
      descricao: body.descricao,
      criacao: currentTime().toISOString(),
      items: body.cobsv.map((charge: Json) => {
        const { txid, ...request } = charge;
        return { txid, status: 'EM_PROCESSAMENTO', request };
      }),
      heldReads: heldBatchReads,
    };
    heldBatchReads = 0;
    batches.set(id, lote);
    if (lote.heldReads === 0) processBatch(lote);
    return { status: 202 };
  };

  const getBatch = (id: string): Reply => {
    const lote = batches.get(id);
    if (!lote) return problem(404, 'LoteCobVNaoEncontrado', 'Lote não encontrado.', `Nenhum lote com o id ${id}.`);
    if (lote.heldReads > 0) lote.heldReads--;
    else processBatch(lote);
    const cobsv = lote.items.map((item: Json) => ({
      txid: item.txid,
      status: item.status,
      ...(item.criacao ? { criacao: item.criacao } : {}),
      ...(item.problema ? { problema: structuredClone(item.problema) } : {}),
    }));
    return { status: 200, body: { id: lote.id, descricao: lote.descricao, criacao: lote.criacao, cobsv } };
  };

  // ---- Pix and refunds ------------------------------------------------------------------

  const getPix = (e2eid: string): Reply => {
    const pix = pixes.get(e2eid);
    if (!pix) return problem(404, 'PixNaoEncontrado', 'Pix não encontrado.', `Nenhum Pix com o e2eid ${e2eid}.`);
    return { status: 200, body: structuredClone(pix) };
  };

  const listPix = (query: Query): Reply => {
    const txid = firstValue(query.txid);
    const txIdPresente = firstValue(query.txIdPresente);
    const devolucaoPresente = firstValue(query.devolucaoPresente);
    const cpf = firstValue(query.cpf);
    const cnpj = firstValue(query.cnpj);
    const found = [...pixes.values()].filter(
      (pix) =>
        inRange(pix.horario, query) &&
        (txid === undefined || pix.txid === txid) &&
        (txIdPresente === undefined || (pix.txid !== undefined) === (txIdPresente === 'true')) &&
        (devolucaoPresente === undefined || Boolean(pix.devolucoes?.length) === (devolucaoPresente === 'true')) &&
        (cpf === undefined || pix.pagador?.cpf === cpf) &&
        (cnpj === undefined || pix.pagador?.cnpj === cnpj),
    );
    const { items, paginacao } = page(found, query);
    const parametros: Json = { inicio: firstValue(query.inicio), fim: firstValue(query.fim), paginacao };
    return { status: 200, body: { parametros, pix: items.map((pix) => structuredClone(pix)) } };
  };

  const requestRefund = (e2eid: string, id: string, body: Json): Reply => {
    const pix = pixes.get(e2eid);
    if (!pix) return problem(404, 'PixNaoEncontrado', 'Pix não encontrado.', `Nenhum Pix com o e2eid ${e2eid}.`);
    const refunds: Json[] = (pix.devolucoes ??= []);
    if (refunds.some((refund) => refund.id === id)) {
      return problem(400, 'PixDevolucaoInvalida', 'Devolução inválida.', `O id ${id} já foi usado por outra devolução deste Pix.`);
    }
    const alreadyRefunded = refunds.filter((refund) => refund.status !== 'NAO_REALIZADO').reduce((sum, refund) => sum + centavos(refund.valor), 0);
    if (alreadyRefunded + centavos(body.valor) > centavos(pix.valor)) {
      return problem(400, 'PixDevolucaoInvalida', 'Devolução inválida.', 'A devolução, com as anteriores, excederia o valor do Pix.', [
        { razao: 'O valor excede o saldo devolvível do Pix.', propriedade: 'devolucao.valor', valor: body.valor },
      ]);
    }
    const refund: Json = {
      id,
      rtrId: spiId('D', payerIspb, currentTime()),
      valor: body.valor,
      natureza: body.natureza ?? 'ORIGINAL',
      ...(body.descricao !== undefined ? { descricao: body.descricao } : {}),
      horario: { solicitacao: currentTime().toISOString() },
      status: 'EM_PROCESSAMENTO',
    };
    refunds.push(refund);
    return { status: refundStatus, body: structuredClone(refund), documentedStatus: 201 };
  };

  const getRefund = (e2eid: string, id: string): Reply => {
    const refund = (pixes.get(e2eid)?.devolucoes ?? []).find((r: Json) => r.id === id);
    if (!refund) return problem(404, 'PixDevolucaoNaoEncontrada', 'Devolução não encontrada.', `Nenhuma devolução ${id} para o Pix ${e2eid}.`);
    return { status: 200, body: structuredClone(refund) };
  };

  // ---- Webhooks --------------------------------------------------------------------------

  const putWebhook = (chave: string, body: Json): Reply => {
    webhooks.set(chave, { webhookUrl: body.webhookUrl, chave, criacao: webhooks.get(chave)?.criacao ?? currentTime().toISOString() });
    return { status: 200 };
  };

  const getWebhook = (chave: string): Reply => {
    const webhook = webhooks.get(chave);
    if (!webhook) return problem(404, 'WebhookNaoEncontrado', 'Webhook não encontrado.', `Nenhum webhook para a chave ${chave}.`);
    return { status: 200, body: { webhookUrl: webhook.webhookUrl, chave, cnpj: receiverCnpj, criacao: webhook.criacao } };
  };

  const deleteWebhook = (chave: string): Reply => {
    if (!webhooks.delete(chave)) return problem(404, 'WebhookNaoEncontrado', 'Webhook não encontrado.', `Nenhum webhook para a chave ${chave}.`);
    return { status: 204 };
  };

  // ---- Pix Automático: locations, recurrences, authorization requests, recurring charges ----
  //
  // The payer's side (the payer's app and bank) is the test's: the controls below approve,
  // reject, expire or cancel a recurrence as the payer would, and settle or fail a charge's
  // current attempt as the payer's bank would, each then posting the document's callback to the
  // registered `webhookrec` or `webhookcobr` URL. The receiver's own writes are answered, not notified.

  /** An EMV field: its id, its length in two digits, its value. */
  const emv = (id: string, value: string): string => `${id}${String(value.length).padStart(2, '0')}${value}`;
  const withoutCrc = (code: string): string => code.slice(0, -8);
  const withCrc = (text: string): string => `${text}6304${brCodeCrc(`${text}6304`)}`;
  /**
   * A recurrence-only QR before its field 80, as the document's example (recResponse3) is: field 26
   * with the GUI alone (no charge), no amount, the receiver's name and city.
   */
  const recurrenceOnlyHeader = (): string =>
    emv('00', '01') +
    emv('26', emv('00', 'br.gov.bcb.pix')) +
    emv('52', '0000') +
    emv('53', '986') +
    emv('58', 'BR') +
    emv('59', merchantName) +
    emv('60', merchantCity) +
    emv('62', emv('05', '***'));

  const recLocations = new Map<number, Json>();
  const recs = new Map<string, Json>();
  const cobrs = new Map<string, Json>();
  const recurringWebhooks: { rec?: RecurringWebhook; cobr?: RecurringWebhook } = {};
  const ispbOfReceiver = receiverCnpj.slice(0, 8);

  /** `RAxxxxxxxxyyyyMMddkkkkkkkkkkk` (`RecId`): R, R or N by retry policy, the ISPB, the day, 11 alphanumerics. */
  const newIdRec = (politica: string): string => `R${politica === 'PERMITE_3R_7D' ? 'R' : 'N'}${ispbOfReceiver}${brasiliaDate(currentTime()).replace(/-/g, '')}${alphanumeric(11)}`;
  const statusChange = (status: string): Json => ({ status, data: currentTime().toISOString() });
  const recProblem = (detail: string, propriedade?: string): Reply =>
    problem(400, 'RecOperacaoInvalida', 'Operação inválida.', detail, [{ razao: detail, ...(propriedade ? { propriedade } : {}) }]);
  const cobrProblem = (detail: string, propriedade?: string): Reply =>
    problem(400, 'CobROperacaoInvalida', 'Operação inválida.', detail, [{ razao: detail, ...(propriedade ? { propriedade } : {}) }]);

  const createRecLocation = (): Reply => {
    const id = nextLocationId++;
    const location: Json = { id, location: `${locationHost}/rec/${randomUUID().replace(/-/g, '')}`, tipo: 'rec', criacao: currentTime().toISOString() };
    recLocations.set(id, location);
    return { status: 201, body: structuredClone(location) };
  };

  /** A location for `rec.loc`: one that exists and no other recurrence uses (the document's violations of POST and PATCH /rec). */
  const usableLocation = (id: number, idRec?: string): { refused: Reply } | { location: Json } => {
    const location = recLocations.get(id);
    if (!location) return { refused: recProblem('O location referenciado por rec.loc inexiste.', 'rec.loc') };
    if (location.idRec !== undefined && location.idRec !== idRec) {
      return { refused: recProblem('O location referenciado por rec.loc já está sendo utilizado por outra recorrência.', 'rec.loc') };
    }
    return { location };
  };

  const createRec = (body: Json): Reply => {
    const today = brasiliaDate(currentTime());
    if (body.calendario.dataInicial < today) return recProblem('O campo rec.calendario.dataInicial é anterior à data de criação da recorrência.', 'rec.calendario.dataInicial');
    if (body.calendario.dataFinal !== undefined && body.calendario.dataFinal < body.calendario.dataInicial) {
      return recProblem('O campo rec.calendario.dataFinal é anterior ao campo rec.calendario.dataInicial.', 'rec.calendario.dataFinal');
    }
    if (body.valor?.valorRec !== undefined && body.valor?.valorMinimoRecebedor !== undefined) {
      return recProblem('Ambos os campos rec.valor.valorRec e rec.valor.valorMinimoRecebedor estão preenchidos.', 'rec.valor');
    }
    const idRec = newIdRec(body.politicaRetentativa);
    let loc: Json;
    if (body.loc !== undefined) {
      const usable = usableLocation(body.loc);
      if ('refused' in usable) return usable.refused;
      loc = usable.location;
    }
    const rec: Json = {
      idRec,
      vinculo: body.vinculo,
      calendario: body.calendario,
      ...(body.valor ? { valor: body.valor } : {}),
      politicaRetentativa: body.politicaRetentativa,
      recebedor: { cnpj: receiverCnpj, nome: merchantName },
      status: 'CRIADA',
      atualizacao: [statusChange('CRIADA')],
      ativacao: { tipoJornada: 'AGUARDANDO_DEFINICAO', ...(body.ativacao?.dadosJornada ? { dadosJornada: body.ativacao.dadosJornada } : {}) },
    };
    if (loc) {
      loc.idRec = idRec;
      rec.loc = loc;
    }
    recs.set(idRec, rec);
    return { status: 201, body: recView(rec) };
  };

  /**
   * A recurrence as the API shows it; read with `qr`, the `dadosQR` of the document's table under
   * `RecCompleta.dadosQR` (test/fakes/bcb-pix-api-openapi.yaml): without `txid` JORNADA_2's code
   * (the recurrence's location alone), with a cob's txid JORNADA_3's and with a cobv's JORNADA_4's
   * (the charge's code, then field 80 with the recurrence's location), each only while the
   * recurrence awaits the payer and the locations it needs exist.
   */
  const recView = (rec: Json, options: { charge?: Json; qr?: boolean } = {}): Json => {
    const view = structuredClone(rec);
    if (!options.qr || !rec.loc || rec.status !== 'CRIADA') return view;
    const recField = emv('80', emv('00', 'br.gov.bcb.pix') + emv('25', rec.loc.location));
    const { charge } = options;
    if (charge === undefined) {
      view.dadosQR = { jornada: 'JORNADA_2', pixCopiaECola: withCrc(`${recurrenceOnlyHeader()}${recField}`) };
    } else if (charge[copyPasteField]) {
      view.dadosQR = { jornada: charge.loc?.tipoCob === 'cobv' ? 'JORNADA_4' : 'JORNADA_3', pixCopiaECola: withCrc(`${withoutCrc(charge[copyPasteField])}${recField}`) };
    }
    return view;
  };

  /** Due-date charges whose composite QR was read for a recurrence (by idRec): the payer who approves it went through JORNADA_4. */
  const dueQrRead = new Map<string, string>();

  /**
   * `GET /rec/{idRec}`, with `?txid=` for the composite QR. The document's `RecConsultaInvalida`
   * violations of this route: a txid not of a charge the recurrence's `ativacao.tipoJornada` can
   * take (a cobv where it is JORNADA_3, a cob where it is JORNADA_4; here also one of no charge),
   * and a cob other than the one its `ativacao.dadosJornada.txid` names, which a cobv never is.
   */
  const getRec = (idRec: string, query: Query): Reply => {
    const rec = recs.get(idRec);
    if (!rec) return problem(404, 'RecNaoEncontrada', 'Recorrência não encontrada.', `Nenhuma recorrência com o idRec ${idRec}.`);
    const txid = firstValue(query.txid);
    if (txid === undefined) return { status: 200, body: recView(rec, { qr: true }) };
    const refuse = (razao: string): Reply => problem(400, 'RecConsultaInvalida', 'Consulta inválida.', razao, [{ razao, propriedade: 'txid', valor: txid }]);
    const cob = charges.get(txid);
    const cobv = dueCharges.get(txid);
    const journey = rec.ativacao?.tipoJornada;
    if ((!cob && !cobv) || (cobv && journey === 'JORNADA_3') || (cob && journey === 'JORNADA_4')) {
      return refuse('O parâmetro txid não corresponde a uma cobrança compatível com o campo ativacao.tipoJornada.');
    }
    if (cob && rec.ativacao?.dadosJornada?.txid !== txid) {
      return refuse('O parâmetro txid corresponde a uma cobrança imediata diferente da informada no campo ativacao.dadosJornada.txid.');
    }
    const view = recView(rec, { charge: cob ?? cobv, qr: true });
    if (cobv && view.dadosQR) dueQrRead.set(idRec, txid);
    return { status: 200, body: view };
  };

  const listRecs = (query: Query): Reply => {
    const cpf = firstValue(query.cpf);
    const cnpj = firstValue(query.cnpj);
    const status = firstValue(query.status);
    const found = [...recs.values()].filter(
      (rec) =>
        inRange(rec.atualizacao[0].data, query) &&
        (cpf === undefined || rec.vinculo.devedor.cpf === cpf) &&
        (cnpj === undefined || rec.vinculo.devedor.cnpj === cnpj) &&
        (status === undefined || rec.status === status),
    );
    const { items, paginacao } = page(found, query);
    const parametros: Json = { inicio: firstValue(query.inicio), fim: firstValue(query.fim), paginacao };
    for (const key of ['cpf', 'cnpj', 'status'] as const) if (query[key] !== undefined) parametros[key] = firstValue(query[key]);
    return { status: 200, body: { parametros, recs: items.map((rec) => recView(rec)) } };
  };

  const reviseRec = (idRec: string, body: Json): Reply => {
    const rec = recs.get(idRec);
    if (!rec) return problem(404, 'RecNaoEncontrada', 'Recorrência não encontrada.', `Nenhuma recorrência com o idRec ${idRec}.`);
    if (['EXPIRADA', 'CANCELADA', 'REJEITADA'].includes(rec.status)) return recProblem('A recorrência encontra-se expirada, cancelada ou rejeitada.', 'rec.status');
    if (body.loc !== undefined || body.calendario?.dataInicial !== undefined) {
      if (rec.status !== 'CRIADA') return recProblem('O campo rec.loc somente pode ser alterado quando a recorrência apresentar-se com o status CRIADA.', 'rec.loc');
    }
    if (body.loc !== undefined) {
      const usable = usableLocation(body.loc, idRec);
      if ('refused' in usable) return usable.refused;
      const loc = usable.location;
      if (rec.loc && rec.loc.id !== loc.id) delete recLocations.get(rec.loc.id)?.idRec;
      loc.idRec = idRec;
      rec.loc = loc;
    }
    if (body.calendario?.dataInicial !== undefined) rec.calendario.dataInicial = body.calendario.dataInicial;
    if (body.vinculo?.devedor?.nome !== undefined) rec.vinculo.devedor.nome = body.vinculo.devedor.nome;
    if (body.ativacao?.dadosJornada) rec.ativacao.dadosJornada = body.ativacao.dadosJornada;
    if (body.status === 'CANCELADA') {
      endRec(rec, 'CANCELADA', { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'Cancelamento solicitado pelo usuário recebedor' } });
    }
    return { status: 200, body: recView(rec) };
  };

  /** A recurrence ends: its status, why, its open authorization request ends with it. */
  const endRec = (rec: Json, status: 'REJEITADA' | 'EXPIRADA' | 'CANCELADA', encerramento?: Json): void => {
    rec.status = status;
    rec.atualizacao.push(statusChange(status));
    if (encerramento) rec.encerramento = encerramento;
    for (const solicitacao of rec.solicitacao ?? []) {
      if (['CRIADA', 'ENVIADA', 'RECEBIDA'].includes(solicitacao.status)) {
        solicitacao.status = status === 'REJEITADA' ? 'REJEITADA' : status === 'EXPIRADA' ? 'EXPIRADA' : 'CANCELADA';
        solicitacao.atualizacao.push(statusChange(solicitacao.status));
      }
    }
  };

  const createSolicRec = (body: Json): Reply => {
    const rec = recs.get(body.idRec);
    if (!rec) return problem(404, 'RecNaoEncontrada', 'Recorrência não encontrada.', `Nenhuma recorrência com o idRec ${body.idRec}.`);
    const refuse = (detail: string, propriedade: string) => problem(400, 'SolicRecOperacaoInvalida', 'Operação inválida.', detail, [{ razao: detail, propriedade }]);
    if (Date.parse(body.calendario.dataExpiracaoSolicitacao) < currentTime().getTime()) {
      return refuse(
        'O campo solicrec.calendario.dataExpiracaoSolicitacao é anterior à data de criação da solicitação da recorrência.',
        'solicrec.calendario.dataExpiracaoSolicitacao',
      );
    }
    if ((rec.solicitacao ?? []).some((s: Json) => ['CRIADA', 'ENVIADA', 'RECEBIDA'].includes(s.status))) {
      return refuse('Existe uma solicitação ativa referente ao mesmo solicrec.idRec.', 'solicrec.idRec');
    }
    const solicitacao: Json = {
      idSolicRec: `SC${ispbOfReceiver}${brasiliaDate(currentTime()).replace(/-/g, '')}${alphanumeric(11)}`,
      idRec: rec.idRec,
      calendario: body.calendario,
      destinatario: body.destinatario,
      status: 'CRIADA',
      atualizacao: [statusChange('CRIADA')],
    };
    (rec.solicitacao ??= []).push(solicitacao);
    return { status: 201, body: structuredClone(solicitacao) };
  };

  const getSolicRec = (id: string): Reply => {
    const solicitacao = [...recs.values()].flatMap((rec) => rec.solicitacao ?? []).find((s: Json) => s.idSolicRec === id);
    if (!solicitacao) return problem(404, 'SolicRecNaoEncontrada', 'Solicitação de recorrência não encontrada.', `Nenhuma solicitação ${id}.`);
    return { status: 200, body: structuredClone(solicitacao) };
  };

  const FREQUENCY_OF: Record<string, Frequency> = { SEMANAL: 'weekly', MENSAL: 'monthly', TRIMESTRAL: 'quarterly', SEMESTRAL: 'semiannual', ANUAL: 'annual' };

  const createCobR = (txid: string, body: Json): Reply => {
    if (cobrs.has(txid)) return cobrProblem('O campo cobr.txid encontra-se em uso.', 'cobr.txid');
    const rec = recs.get(body.idRec);
    if (!rec) return cobrProblem(`Nenhuma recorrência com o idRec ${body.idRec}.`, 'cobr.idRec');
    if (rec.status !== 'APROVADA') return cobrProblem(`A recorrência ${body.idRec} não está APROVADA.`, 'cobr.idRec');
    const today = brasiliaDate(currentTime());
    const due: string = body.calendario.dataDeVencimento;
    if (due < today) return cobrProblem('O campo cobr.calendario.dataDeVencimento é anterior à data de criação da cobrança.', 'cobr.calendario.dataDeVencimento');
    const frequency = FREQUENCY_OF[rec.calendario.periodicidade]!;
    const cycle = cycleOf(rec.calendario.dataInicial, frequency, due);
    const sameCycle = [...cobrs.values()].some(
      (other) =>
        other.idRec === rec.idRec &&
        !['REJEITADA', 'CANCELADA'].includes(other.status) &&
        cycleOf(rec.calendario.dataInicial, frequency, other.calendario.dataDeVencimento) === cycle,
    );
    if (sameCycle) {
      return cobrProblem(
        'Existe uma CobR com status diferente de REJEITADA e CANCELADA referente ao mesmo cobr.idRec com calendario.dataDeVencimento no mesmo ciclo.',
        'cobr.calendario.dataDeVencimento',
      );
    }
    // Sent to the payer's PSP at once, which schedules the first attempt for the due date.
    const cobr: Json = {
      idRec: rec.idRec,
      txid,
      ...(body.infoAdicional !== undefined ? { infoAdicional: body.infoAdicional } : {}),
      calendario: { criacao: today, dataDeVencimento: due },
      valor: body.valor,
      ajusteDiaUtil: body.ajusteDiaUtil,
      recebedor: { ...body.recebedor, cnpj: receiverCnpj, nome: merchantName },
      status: 'ATIVA',
      politicaRetentativa: rec.politicaRetentativa,
      atualizacao: [statusChange('CRIADA'), statusChange('ATIVA')],
      tentativas: [attempt(due, 'AGND', 'AGENDADA')],
    };
    cobrs.set(txid, cobr);
    return { status: 201, body: structuredClone(cobr) };
  };

  const attempt = (date: string, tipo: 'AGND' | 'NTAG', status: 'SOLICITADA' | 'AGENDADA'): Json => ({
    dataLiquidacao: date,
    tipo,
    endToEndId: spiId('E', payerIspb, currentTime()),
    status,
    atualizacao: status === 'AGENDADA' ? [statusChange('SOLICITADA'), statusChange('AGENDADA')] : [statusChange('SOLICITADA')],
  });

  const getCobR = (txid: string): Reply => {
    const cobr = cobrs.get(txid);
    if (!cobr) return problem(404, 'CobRNaoEncontrado', 'Cobrança não encontrada.', `Nenhuma cobrança recorrente com o txid ${txid}.`);
    return { status: 200, body: structuredClone(cobr) };
  };

  const cancelCobR = (txid: string): Reply => {
    const cobr = cobrs.get(txid);
    if (!cobr) return problem(404, 'CobRNaoEncontrado', 'Cobrança não encontrada.', `Nenhuma cobrança recorrente com o txid ${txid}.`);
    if (!['CRIADA', 'ATIVA'].includes(cobr.status)) return cobrProblem(`A cobrança ${txid} não está CRIADA nor ATIVA.`, 'cobr.status');
    const first = cobr.tentativas[0]?.dataLiquidacao;
    if (first !== undefined && brasiliaDate(currentTime()) >= first) {
      return problem(
        400,
        'CobROperacaoInvalida',
        'Operação inválida.',
        'Não é possível cancelar uma cobrança em uma data igual ou maior que a data prevista da primeira tentativa de liquidação.',
      );
    }
    endCobR(cobr, 'CANCELADA', { cancelamento: { solicitante: 'USUARIO_RECEBEDOR', codigo: 'SLCR', descricao: 'Cancelamento de agendamento solicitado pelo usuário recebedor' } });
    return { status: 200, body: structuredClone(cobr) };
  };

  const endCobR = (cobr: Json, status: 'CONCLUIDA' | 'REJEITADA' | 'CANCELADA' | 'EXPIRADA', encerramento?: Json): void => {
    cobr.status = status;
    cobr.atualizacao.push(statusChange(status));
    if (encerramento) cobr.encerramento = encerramento;
    if (status === 'CANCELADA') {
      for (const tentativa of cobr.tentativas) {
        if (['SOLICITADA', 'AGENDADA'].includes(tentativa.status)) {
          tentativa.status = 'CANCELADA';
          tentativa.atualizacao.push(statusChange('CANCELADA'));
        }
      }
    }
  };

  /** The document's violations of `POST /cobr/{txid}/retentativa/{data}`, and the policy's 3 retries within 7 days of the due date. */
  const retryCobR = (txid: string, date: string): Reply => {
    const cobr = cobrs.get(txid);
    if (!cobr) return problem(404, 'CobRNaoEncontrado', 'Cobrança não encontrada.', `Nenhuma cobrança recorrente com o txid ${txid}.`);
    if (cobr.politicaRetentativa !== 'PERMITE_3R_7D') return cobrProblem('A política configurada na recorrência não permite retentativa de cobrança.');
    if (cobr.status !== 'ATIVA') return cobrProblem(`A cobrança ${txid} não está ATIVA.`, 'cobr.status');
    if (cobr.tentativas.some((t: Json) => ['SOLICITADA', 'AGENDADA'].includes(t.status))) return cobrProblem('Existe uma tentativa com status SOLICITADA ou AGENDADA.');
    if (date <= brasiliaDate(currentTime())) return cobrProblem('O parâmetro data não corresponde a uma data futura.', 'data');
    const retries = cobr.tentativas.length - 1;
    if (retries >= 3 || daysBetween(cobr.calendario.dataDeVencimento, date) > 7) return cobrProblem('A política configurada na recorrência não permite retentativa de cobrança.');
    cobr.tentativas.push(attempt(date, 'NTAG', 'SOLICITADA'));
    return { status: 201, body: structuredClone(cobr) };
  };

  const putRecurringWebhook = (which: 'rec' | 'cobr', body: Json): Reply => {
    recurringWebhooks[which] = { webhookUrl: body.webhookUrl, criacao: recurringWebhooks[which]?.criacao ?? currentTime().toISOString() };
    return { status: 200 };
  };
  const getRecurringWebhook = (which: 'rec' | 'cobr'): Reply => {
    const webhook = recurringWebhooks[which];
    if (!webhook) return problem(404, 'WebhookNaoEncontrado', 'Webhook não encontrado.', `Nenhum webhook de ${which}.`);
    return { status: 200, body: { ...webhook } };
  };
  const deleteRecurringWebhook = (which: 'rec' | 'cobr'): Reply => {
    if (!recurringWebhooks[which]) return problem(404, 'WebhookNaoEncontrado', 'Webhook não encontrado.', `Nenhum webhook de ${which}.`);
    delete recurringWebhooks[which];
    return { status: 204 };
  };

  // ---- Routing ---------------------------------------------------------------------------

  const route = (method: string, template: string, params: Record<string, string>, query: Query, body: Json): Reply => {
    switch (`${method} ${template}`) {
      case 'PUT /cob/{txid}':
        return createCharge(params.txid!, body);
      case 'PATCH /cob/{txid}':
        return reviseCharge(params.txid!, body);
      case 'GET /cob/{txid}':
        return getCharge(params.txid!, query);
      case 'GET /cob':
        return listCharges(query);
      case 'PUT /cobv/{txid}':
        return putDueCharge(params.txid!, body);
      case 'PATCH /cobv/{txid}':
        return reviseDueCharge(params.txid!, body);
      case 'GET /cobv/{txid}':
        return getDueCharge(params.txid!, query);
      case 'PUT /lotecobv/{id}':
        return putBatch(params.id!, body);
      case 'GET /lotecobv/{id}':
        return getBatch(params.id!);
      case 'GET /pix/{e2eid}':
        return getPix(params.e2eid!);
      case 'GET /pix':
        return listPix(query);
      case 'PUT /pix/{e2eid}/devolucao/{id}':
        return requestRefund(params.e2eid!, params.id!, body);
      case 'GET /pix/{e2eid}/devolucao/{id}':
        return getRefund(params.e2eid!, params.id!);
      case 'PUT /webhook/{chave}':
        return putWebhook(params.chave!, body);
      case 'GET /webhook/{chave}':
        return getWebhook(params.chave!);
      case 'DELETE /webhook/{chave}':
        return deleteWebhook(params.chave!);
      case 'POST /locrec':
        return createRecLocation();
      case 'POST /rec':
        return createRec(body);
      case 'GET /rec':
        return listRecs(query);
      case 'GET /rec/{idRec}':
        return getRec(params.idRec!, query);
      case 'PATCH /rec/{idRec}':
        return reviseRec(params.idRec!, body);
      case 'POST /solicrec':
        return createSolicRec(body);
      case 'GET /solicrec/{idSolicRec}':
        return getSolicRec(params.idSolicRec!);
      case 'PUT /cobr/{txid}':
        return createCobR(params.txid!, body);
      case 'GET /cobr/{txid}':
        return getCobR(params.txid!);
      case 'PATCH /cobr/{txid}':
        return cancelCobR(params.txid!);
      case 'POST /cobr/{txid}/retentativa/{data}':
        return retryCobR(params.txid!, params.data!);
      case 'PUT /webhookrec':
        return putRecurringWebhook('rec', body);
      case 'GET /webhookrec':
        return getRecurringWebhook('rec');
      case 'DELETE /webhookrec':
        return deleteRecurringWebhook('rec');
      case 'PUT /webhookcobr':
        return putRecurringWebhook('cobr', body);
      case 'GET /webhookcobr':
        return getRecurringWebhook('cobr');
      case 'DELETE /webhookcobr':
        return deleteRecurringWebhook('cobr');
      default:
        return { ...problem(501, 'about:blank', 'Not Implemented', `The fake PSP does not implement ${method} ${template}.`), unchecked: true };
    }
  };

  /** The problem the document describes for a refusal on this route (failure kind `problem`). */
  const documentedProblem = (method: string, template: string | undefined, status: number): Reply => {
    if (status === 403) return problem(403, 'AcessoNegado', 'Acesso negado.', 'Requisição de participante autenticado que viola alguma regra de autorização.');
    if (status === 503) return problem(503, 'ServicoIndisponivel', 'Serviço indisponível.', 'Serviço não está disponível no momento.');
    if (status === 404) {
      const missing = template?.startsWith('/pix')
        ? 'PixNaoEncontrado'
        : template?.startsWith('/webhook')
          ? 'WebhookNaoEncontrado'
          : template?.startsWith('/lotecobv')
            ? 'LoteCobVNaoEncontrado'
            : template?.startsWith('/cobv')
              ? 'CobVNaoEncontrada'
              : 'CobNaoEncontrado';
      return problem(404, missing, 'Não encontrado.');
    }
    const type =
      template?.startsWith('/pix/') && template.includes('devolucao')
        ? 'PixDevolucaoInvalida'
        : template?.startsWith('/lotecobv')
          ? 'LoteCobVOperacaoInvalida'
          : template?.startsWith('/cobv')
            ? 'CobVOperacaoInvalida'
            : template?.startsWith('/cobr')
              ? 'CobROperacaoInvalida'
              : template?.startsWith('/rec')
                ? 'RecOperacaoInvalida'
                : template?.startsWith('/solicrec')
                  ? 'SolicRecOperacaoInvalida'
                  : template?.startsWith('/webhook')
                    ? 'WebhookOperacaoInvalida'
                    : template?.startsWith('/cob')
                      ? 'CobOperacaoInvalida'
                      : 'RequisicaoInvalida';
    return problem(status, type, 'Operação inválida.', `O PSP recusou ${method} ${template ?? ''}.`, [{ razao: 'Recusa injetada pelo teste.' }]);
  };

  /** A violation's 400: the RFC 7807 problem naming what the document forbids. */
  const violationReply = (found: string[], template: string | undefined): Reply => {
    const type =
      template === undefined
        ? 'RequisicaoInvalida'
        : template.startsWith('/lotecobv')
          ? 'LoteCobVOperacaoInvalida'
          : template.startsWith('/cobv')
            ? 'CobVOperacaoInvalida'
            : template.startsWith('/cobr')
              ? 'CobROperacaoInvalida'
              : template.startsWith('/rec')
                ? 'RecOperacaoInvalida'
                : template.startsWith('/solicrec')
                  ? 'SolicRecOperacaoInvalida'
                  : template.startsWith('/cob')
                    ? 'CobOperacaoInvalida'
                    : template.includes('devolucao')
                      ? 'PixDevolucaoInvalida'
                      : template.startsWith('/webhook')
                        ? 'WebhookOperacaoInvalida'
                        : template.startsWith('/pix')
                          ? 'PixConsultaInvalida'
                          : 'RequisicaoInvalida';
    return {
      ...problem(
        400,
        type,
        'Violação da API Pix.',
        found.join('; '),
        found.map((razao) => ({ razao })),
      ),
      unchecked: true,
    };
  };

  // ---- The HTTP layer -----------------------------------------------------------------------

  const hold = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const entry = { timer: setTimeout(() => (timers.delete(entry), resolve()), ms), resolve };
      timers.add(entry);
    });

  const takeFailure = (path: string, method: string): FailureRule | undefined => {
    const rule = failures.find((f) => f.remaining > 0 && (f.path === undefined || new RegExp(f.path).test(path)) && (f.method === undefined || f.method.toUpperCase() === method));
    if (rule) {
      rule.remaining--;
      failures = failures.filter((f) => f.remaining > 0);
    }
    return rule;
  };

  /**
   * Writes the reply as HTTP does between strict parties: a body of a media type the request's
   * Accept does not admit is 406 instead (RFC 9110 section 12.5.1; the Pix API's errors are
   * `application/problem+json`), recorded as a violation; a body is compressed in
   * `contentEncoding` when the request's Accept-Encoding admits it.
   */
  const send = (req: IncomingMessage, res: ServerResponse, reply: Reply): void => {
    if (res.writableEnded || res.destroyed) return;
    const headers: Record<string, string> = { ...reply.headers };
    let payload: string | Buffer = '';
    if (reply.body !== undefined) {
      payload = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
      headers['content-type'] ??= 'application/json';
      const accept = firstValue(req.headers.accept);
      const type = headers['content-type'].split(';')[0]!.trim().toLowerCase();
      if (!admits(accept, type)) {
        record([`${req.method} ${req.url?.split('?')[0]}: Accept "${accept}" does not admit the answer's ${type}: answered 406`]);
        res.writeHead(406).end();
        return;
      }
      const coding = options.contentEncoding;
      if (coding && admitsCoding(firstValue(req.headers['accept-encoding']), coding)) {
        payload = (coding === 'gzip' ? gzipSync : coding === 'deflate' ? deflateSync : brotliCompressSync)(payload);
        headers['content-encoding'] = coding;
      }
    }
    res.writeHead(reply.status, headers).end(payload);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> => {
    const url = new URL(req.url ?? '/', 'https://127.0.0.1');
    const method = (req.method ?? 'GET').toUpperCase();
    const path = url.pathname;
    const query: Query = {};
    for (const [key, value] of url.searchParams) {
      const prior = query[key];
      query[key] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
    }
    const contentType = req.headers['content-type'] ?? '';
    let body: unknown = raw === '' ? undefined : raw;
    if (raw !== '' && /json/i.test(contentType)) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    } else if (raw !== '' && /x-www-form-urlencoded/i.test(contentType)) {
      body = Object.fromEntries(new URLSearchParams(raw));
    }
    const loggedBody = body && typeof body === 'object' && 'client_secret' in body ? { ...body, client_secret: '<redacted>' } : body;
    requests.push({ method, path, query, headers: redactHeaders(req.headers), body: loggedBody, at: new Date() });

    const failure = takeFailure(path, method);
    if (failure?.kind === 'down') {
      req.socket.destroy();
      return;
    }
    if (failure?.kind === 'slow') {
      await hold(failure.delayMs ?? 2000);
      if (closed) return;
    }
    const injectedStatus = (): Reply => {
      const status = failure?.status ?? 503;
      const answer = problem(
        status,
        status === 503 ? 'ServicoIndisponivel' : status === 504 ? 'IndisponibilidadePorTempoEsgotado' : status >= 500 ? 'ErroInternoDoServidor' : 'about:blank',
        `HTTP ${status}`,
        'Falha injetada pelo teste.',
      );
      return { ...answer, headers: { ...answer.headers, ...failure?.headers } };
    };
    if (failure?.kind === 'status' && !failure.afterHandling) {
      send(req, res, injectedStatus());
      return;
    }
    if (failure?.kind === 'malformed') {
      send(req, res, { status: 200, body: '{"resultado": <html>not the documented JSON', headers: { 'content-type': 'application/json' } });
      return;
    }

    if (path === tokenPath) {
      send(req, res, tokenEndpoint(method, req.headers, raw));
      return;
    }
    if (!(path === basePath || path.startsWith(`${basePath}/`))) {
      const found = [`${method} ${path}: outside the API base path ${basePath || '/'} (and not the token endpoint)`];
      record(found);
      send(req, res, violationReply(found, undefined));
      return;
    }
    const relative = path.slice(basePath.length) || '/';
    const match = requestValidator.findOperation(method, relative);
    if (failure?.kind === 'problem') {
      send(req, res, documentedProblem(method, match?.template, failure.status ?? 400));
      return;
    }

    const requestViolations = requestValidator.validateRequest(method, relative, query, req.headers, body);
    if (requestViolations.length || !match) {
      record(requestViolations);
      send(req, res, violationReply(requestViolations, match?.template));
      return;
    }

    // The profile's own requirements (application keys and the like) come before the token.
    const missingQuery = Object.entries(options.requiredQuery ?? {}).filter(([key, value]) => firstValue(query[key]) !== value);
    const missingHeaders = requiredHeaders.filter(([name, value]) => firstValue(req.headers[name]) !== value);
    let reply: Reply;
    if (missingQuery.length || missingHeaders.length) {
      const what = [...missingQuery.map(([key]) => `query parameter ${key}`), ...missingHeaders.map(([name]) => `header ${name}`)];
      reply = problem(403, 'AcessoNegado', 'Acesso negado.', `Missing or wrong ${what.join(', ')}.`);
    } else {
      const grant = authenticate(req.headers);
      if (!('generation' in grant)) reply = grant;
      else if (match.scopes.length && !match.scopes.some((scope) => grant.scopes.includes(scope))) {
        reply = problem(403, 'AcessoNegado', 'Acesso negado.', `The token lacks the scope ${match.scopes.join(' or ')}.`);
      } else {
        reply = route(method, match.template, match.pathParams, query, body);
      }
    }
    if (failure?.kind === 'status' && failure.afterHandling) {
      send(req, res, injectedStatus());
      return;
    }

    if (!reply.unchecked) {
      const sent = reply.body === undefined ? undefined : JSON.parse(JSON.stringify(reply.body));
      const responseViolations = validator.validateResponse(
        method,
        relative,
        reply.documentedStatus ?? reply.status,
        sent,
        reply.headers?.['content-type'] ?? (sent === undefined ? undefined : 'application/json'),
      );
      if (responseViolations.length) {
        const found = responseViolations.map((v) => `the fake's answer: ${v}`);
        record(found);
        reply = violationReply(found, match.template);
      }
    }
    send(req, res, reply);
  };

  const server: Server = createServer(
    {
      key: pki.server.key,
      cert: pki.server.cert,
      ca: [pki.ca.cert],
      requestCert: true,
      rejectUnauthorized: true,
    },
    (req, res) => {
      openRequests++;
      peakOpenRequests = Math.max(peakOpenRequests, openRequests);
      res.once('close', () => openRequests--);
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY) req.destroy();
        else chunks.push(chunk);
      });
      req.on('end', () => {
        handle(req, res, Buffer.concat(chunks).toString('utf8')).catch((error: Error) => {
          violations.push(`the fake PSP failed on ${req.method} ${req.url}: ${error.stack ?? error.message}`);
          send(req, res, { ...problem(500, 'ErroInternoDoServidor', 'Erro interno.', error.message), unchecked: true });
        });
      });
    },
  );
  server.on('tlsClientError', () => {
    tlsRefusals++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // ---- Callbacks ---------------------------------------------------------------------------

  const postCallback = (target: string, body: unknown, init: CallbackInit = {}): Promise<CallbackResult> => {
    const payload = typeof body === 'string' ? body : JSON.stringify(body);
    let parsed: unknown = body;
    if (typeof body === 'string') {
      try {
        parsed = JSON.parse(body);
      } catch {
        parsed = body;
      }
    }
    const result: CallbackResult = { url: target, body: payload, violations: validator.validateCallback(parsed, init.callback) };
    callbacks.push(result);
    return new Promise((resolve) => {
      const url = new URL(target);
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const headers = { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)), ...init.headers };
      const request = send(
        url,
        { method: init.method ?? 'POST', headers, ...(url.protocol === 'https:' ? { ca: init.tls?.ca ?? pki.ca.cert, cert: init.tls?.cert, key: init.tls?.key } : {}) },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            result.status = response.statusCode;
            result.responseBody = Buffer.concat(chunks).toString('utf8');
            resolve(result);
          });
          response.on('error', (error) => {
            result.error = error.message;
            resolve(result);
          });
        },
      );
      request.setTimeout(15_000, () => request.destroy(new Error('callback timed out after 15 s')));
      request.on('error', (error) => {
        result.error = error.message;
        resolve(result);
      });
      request.end(payload);
    });
  };

  /** The fake's own notification for a Pix: checked against the document's callback schema. */
  const notify = async (pix: Json): Promise<CallbackResult | undefined> => {
    if (!pix.txid) return undefined; // the document notifies only Pix with a txid
    const webhook = webhooks.get(pix.chave);
    if (!webhook) return undefined;
    const body = { pix: [structuredClone(pix)] };
    const result = await postCallback(`${webhook.webhookUrl}${callbackPathSuffix}`, body);
    record(result.violations.map((v) => `the fake's callback: ${v}`));
    return result;
  };

  /** `{"recs":[…]}` at `<webhookrec>/rec`: the document's `RecNotification` of the recurrence. */
  const notifyRec = async (rec: Json): Promise<CallbackResult | undefined> => {
    const webhook = recurringWebhooks.rec;
    if (!webhook) return undefined;
    const entry: Json = { idRec: rec.idRec, status: rec.status, atualizacao: structuredClone(rec.atualizacao) };
    if (rec.encerramento) entry.encerramento = structuredClone(rec.encerramento);
    if (rec.ativacao) entry.ativacao = structuredClone(rec.ativacao);
    const result = await postCallback(`${webhook.webhookUrl.replace(/\/+$/, '')}/rec`, { recs: [entry] }, { callback: 'rec' });
    record(result.violations.map((v) => `the fake's callback: ${v}`));
    return result;
  };

  /** `{"cobsr":[…]}` at `<webhookcobr>/cobr`: the document's `CobRNotification` of each charge. */
  const notifyCobR = async (list: Json[]): Promise<CallbackResult | undefined> => {
    const webhook = recurringWebhooks.cobr;
    if (!webhook) return undefined;
    const cobsr = list.map((cobr) => {
      const entry: Json = { idRec: cobr.idRec, txid: cobr.txid, status: cobr.status, atualizacao: structuredClone(cobr.atualizacao), tentativas: structuredClone(cobr.tentativas) };
      if (cobr.encerramento) entry.encerramento = structuredClone(cobr.encerramento);
      return entry;
    });
    const result = await postCallback(`${webhook.webhookUrl.replace(/\/+$/, '')}/cobr`, { cobsr }, { callback: 'cobr' });
    record(result.violations.map((v) => `the fake's callback: ${v}`));
    return result;
  };

  const recInStatus = (idRec: string, statuses: string[]): Json => {
    const rec = recs.get(idRec);
    if (!rec) throw new Error(`fake PSP: no recurrence ${idRec}`);
    if (!statuses.includes(rec.status)) throw new Error(`fake PSP: recurrence ${idRec} is ${rec.status}, not ${statuses.join(' or ')}`);
    return rec;
  };

  /** A charge's attempt under way: the first, or the retry last asked for. */
  const currentAttempt = (txid: string): { cobr: Json; current: Json } => {
    const cobr = cobrs.get(txid);
    if (!cobr) throw new Error(`fake PSP: no recurring charge ${txid}`);
    const current = cobr.tentativas.at(-1);
    if (cobr.status !== 'ATIVA' || !current || !['SOLICITADA', 'AGENDADA'].includes(current.status)) {
      throw new Error(`fake PSP: recurring charge ${txid} (${cobr.status}) has no attempt under way`);
    }
    return { cobr, current };
  };

  // ---- The test's handle ---------------------------------------------------------------------

  const psp: PixApiPsp = {
    url: `${origin}${basePath}`,
    origin,
    tokenUrl: `${origin}${tokenPath}`,
    caPem: pki.ca.cert,
    clientId,
    clientSecret,
    charges,
    dueCharges,
    batches,
    refuseBatchItem(txid, problema) {
      batchRefusals.set(
        txid,
        problema ?? {
          type: `${ERROR_TYPE}CobVOperacaoInvalida`,
          title: 'Cobrança inválida.',
          status: 400,
          detail: 'A requisição que busca alterar ou criar uma cobrança com vencimento não respeita o _schema_ ou está semanticamente errada.',
          violacoes: [{ razao: 'O objeto cobv.devedor não respeita o _schema_.', propriedade: 'cobv.devedor' }],
        },
      );
    },
    holdBatches(reads) {
      heldBatchReads = reads;
    },
    pixes,
    webhooks,
    requests,
    callbacks,
    violations,
    get tokenRequests() {
      return tokenRequests;
    },
    get tlsRefusals() {
      return tlsRefusals;
    },
    get openRequests() {
      return openRequests;
    },
    get peakOpenRequests() {
      return peakOpenRequests;
    },
    expireTokens() {
      tokenGeneration++;
    },
    async pay(txid, payOptions = {}) {
      const charge = charges.get(txid) ?? dueCharges.get(txid);
      if (!charge) throw new Error(`fake PSP: no charge ${txid} to pay`);
      if (charge.status !== 'ATIVA') throw new Error(`fake PSP: charge ${txid} is ${charge.status}, not ATIVA`);
      const valor = payOptions.amountCents !== undefined ? money(payOptions.amountCents) : (charge.valor.original as string);
      const now = currentTime();
      const payer = payOptions.payer;
      const pix: Json = {
        endToEndId: spiId('E', payerIspb, now),
        txid,
        valor,
        componentesValor: dueCharges.has(txid) ? dueComponents(charge.valor.original, valor) : { original: { valor } },
        chave: charge.chave,
        horario: now.toISOString(),
        ...(payOptions.info !== undefined ? { infoPagador: payOptions.info } : {}),
        // Not in the document's Pix schema (which allows more properties): many PSPs add who paid.
        ...(payer ? { pagador: { nome: payer.name, ...(payer.cpf ? { cpf: payer.cpf } : {}), ...(payer.cnpj ? { cnpj: payer.cnpj } : {}) } } : {}),
      };
      charge.status = 'CONCLUIDA' satisfies ChargeStatus;
      charge.pix = [...(charge.pix ?? []), pix];
      // The charge's `pix` list and `pixes` hold the same object, so refunds show in both.
      pixes.set(pix.endToEndId, pix);
      const callback = payOptions.postCallback === false ? undefined : await notify(pix);
      return { pix: structuredClone(pix), callback };
    },
    postCallback,
    async refundSettles(e2eid, id, status, settleOptions = {}) {
      const pix = pixes.get(e2eid);
      const refund = (pix?.devolucoes ?? []).find((r: Json) => r.id === id);
      if (!pix || !refund) throw new Error(`fake PSP: no refund ${id} of Pix ${e2eid}`);
      refund.status = status;
      if (status === 'DEVOLVIDO') refund.horario.liquidacao = currentTime().toISOString();
      if (settleOptions.motivo !== undefined) refund.motivo = settleOptions.motivo;
      else if (status === 'NAO_REALIZADO') refund.motivo = 'Devolução não realizada pelo PSP do pagador.';
      const callback = settleOptions.postCallback === false ? undefined : await notify(pix);
      return { refund: structuredClone(refund), callback };
    },
    async refundOutside(e2eid, amountCents, natureza, outsideOptions = {}) {
      const pix = pixes.get(e2eid);
      if (!pix) throw new Error(`fake PSP: no Pix ${e2eid} to return`);
      const refunds: Json[] = (pix.devolucoes ??= []);
      const returned = refunds.filter((r) => r.status !== 'NAO_REALIZADO').reduce((sum, r) => sum + centavos(r.valor), 0);
      if (returned + amountCents > centavos(pix.valor)) throw new Error(`fake PSP: returning ${amountCents} more would exceed Pix ${e2eid}`);
      const now = currentTime().toISOString();
      const refund: Json = {
        // The PSP's own id (the standard's 1 to 35 letters and digits), unlike any the gateway derives.
        id: `${natureza.startsWith('MED') ? 'MED' : 'PORTAL'}${alphanumeric(24)}`,
        rtrId: spiId('D', payerIspb, currentTime()),
        valor: money(amountCents),
        natureza,
        horario: { solicitacao: now, liquidacao: now },
        status: 'DEVOLVIDO',
      };
      refunds.push(refund);
      const callback = outsideOptions.postCallback === false ? undefined : await notify(pix);
      return { refund: structuredClone(refund), callback };
    },
    recurrences: recs,
    recurringCharges: cobrs,
    recurringWebhooks,
    async approveRecurrence(idRec) {
      const rec = recInStatus(idRec, ['CRIADA']);
      const journey = rec.solicitacao?.length ? 'JORNADA_1' : rec.ativacao?.dadosJornada?.txid ? 'JORNADA_3' : dueQrRead.has(idRec) ? 'JORNADA_4' : 'JORNADA_2';
      // "Este campo deve ser removido pelo PSP Recebedor quando a ativação for realizada pelas jornadas 1, 2 ou 4."
      rec.ativacao = journey === 'JORNADA_3' ? { tipoJornada: journey, dadosJornada: rec.ativacao.dadosJornada } : { tipoJornada: journey };
      const devedor = rec.vinculo.devedor;
      rec.pagador = { ispbParticipante: payerIspb, ...(devedor.cpf ? { cpf: devedor.cpf } : { cnpj: devedor.cnpj }) };
      rec.status = 'APROVADA';
      rec.atualizacao.push(statusChange('APROVADA'));
      for (const solicitacao of rec.solicitacao ?? []) {
        if (['CRIADA', 'ENVIADA', 'RECEBIDA'].includes(solicitacao.status)) {
          solicitacao.status = 'ACEITA';
          solicitacao.atualizacao.push(statusChange('ACEITA'));
        }
      }
      return notifyRec(rec);
    },
    async rejectRecurrence(idRec) {
      const rec = recInStatus(idRec, ['CRIADA']);
      endRec(rec, 'REJEITADA', { rejeicao: { codigo: 'AP13', descricao: 'Recorrência rejeitada pelo usuário pagador.' } });
      return notifyRec(rec);
    },
    async expireRecurrence(idRec) {
      const rec = recInStatus(idRec, ['CRIADA']);
      endRec(rec, 'EXPIRADA');
      return notifyRec(rec);
    },
    async payerCancelsRecurrence(idRec) {
      const rec = recInStatus(idRec, ['CRIADA', 'APROVADA']);
      endRec(rec, 'CANCELADA', { cancelamento: { solicitante: 'USUARIO_PAGADOR', codigo: 'SLDB', descricao: 'Cancelamento solicitado pelo usuário pagador' } });
      const result = await notifyRec(rec);
      const open = [...cobrs.values()].filter((cobr) => cobr.idRec === idRec && ['CRIADA', 'ATIVA'].includes(cobr.status));
      for (const cobr of open)
        endCobR(cobr, 'CANCELADA', { cancelamento: { solicitante: 'USUARIO_PAGADOR', codigo: 'SLBD', descricao: 'Recorrência cancelada pelo usuário pagador' } });
      if (open.length) await notifyCobR(open);
      return result;
    },
    async settleRecurringCharge(txid) {
      const { cobr, current } = currentAttempt(txid);
      current.status = 'PAGA';
      current.atualizacao.push(statusChange('PAGA'));
      endCobR(cobr, 'CONCLUIDA');
      return notifyCobR([cobr]);
    },
    async failRecurringCharge(txid, rejection = {}) {
      const { cobr, current } = currentAttempt(txid);
      const codigo = rejection.codigo ?? 'AM02';
      current.status = 'REJEITADA';
      current.rejeicao = { codigo, descricao: rejection.descricao ?? 'Pagamento recusado pelo PSP pagador.' };
      current.atualizacao.push(statusChange('REJEITADA'));
      const retriesSpent = cobr.tentativas.length - 1 >= 3;
      if (cobr.politicaRetentativa !== 'PERMITE_3R_7D' || retriesSpent || CHARGE_REJECTING_CODES.includes(codigo)) {
        endCobR(cobr, 'REJEITADA', { rejeicao: { ...current.rejeicao } });
      }
      return notifyCobR([cobr]);
    },
    fail(spec) {
      failures.push({ ...spec, remaining: spec.times ?? 1 });
    },
    reset() {
      failures = [];
      batchRefusals.clear();
      heldBatchReads = 0;
      peakOpenRequests = openRequests;
    },
    takeViolations() {
      return violations.splice(0, violations.length);
    },
    assertNoViolations() {
      const found = violations.splice(0, violations.length);
      if (found.length) throw new Error(`The Pix API document was violated ${found.length} time(s):\n- ${found.join('\n- ')}`);
    },
    async close() {
      closed = true;
      for (const entry of timers) {
        clearTimeout(entry.timer);
        entry.resolve();
      }
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return psp;
}
