import { randomUUID } from 'node:crypto';
import { brasiliaDate } from '../domain/recurrence';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { centsToDecimalString, centsToReais } from '../domain/money';
import { checkWebhookUrl, WebhookUrlRejectedError } from '../common/net/webhook-url-policy';
import {
  type SandboxChargeWire,
  type SandboxCreateChargeBody,
  type SandboxErrorBody,
  type SandboxEventBody,
  type SandboxEventType,
  type SandboxFailureMode,
  type SandboxFailureOperation,
  statusAfterEvent,
  wireAmountToCents,
} from '../common/sandbox-wire/sandbox-api';
import { dueTermsFromWire } from '../common/sandbox-wire/sandbox-due-api';
import { DEFAULT_SANDBOX_REFUND_DELAY_MS } from '../common/sandbox-wire/refund-delay';
import { type BatchHooks, BatchStore } from './batches';
import { ChargeStore, toWire } from './charge-store';
import { dueTermsProblem } from './due-charges';
import { dueRoutes } from './due-routes';
import { FailureQueue } from './failure-queue';
import { type Deliver, notifier } from './notifier';
import { newCharge } from './new-charge';
import { recordPayment } from './pix-payment';
import { recurrenceRoutes } from './recurrence-routes';
import { RecurrenceStore } from './recurrence-rules';
import { refundRoutes, refundWhole } from './refund-routes';
import { CHARGE_SCHEMA, CREATE_BODY_SCHEMA, FAILURES_BODY_SCHEMA, ID_PARAMS_SCHEMA, SIMULATE_BODY_SCHEMA } from './schemas';
import { injected, invalid, notFound, SANDBOX_CODE_BY_STATUS, SandboxHttpError, unauthorized } from './sandbox-errors';

export interface SandboxServerOptions {
  /**
   * Whether this request may use the sandbox: every route but `/health` asks. The charges carry payer
   * data and notification URLs, and the control routes move payments, so nobody without credentials
   * may reach them. False answers 401; an error thrown with a status (403, 429) is answered with it.
   */
  authorize: (request: FastifyRequest) => boolean | Promise<boolean>;
  /**
   * The merchant-webhook URL policy for notification URLs: false (production) allows only https URLs
   * whose host resolves to public addresses, checked when a charge is created and again, pinned, at
   * each delivery, so the sandbox cannot be made to post into the network it runs in.
   */
  allowPrivateNotificationUrls: boolean;
  /**
   * When set, simulated events carry `X-Sandbox-Signature` (docs/api.md, The sandbox signature scheme);
   * a charge created with its own `webhookSecret` (a stored sandbox account's) is signed with that instead.
   */
  webhookSecret?: string;
  /** Charges kept in memory; the oldest are forgotten beyond this. */
  maxCharges?: number;
  /** How long a simulated event's POST to the notification URL may take. */
  webhookTimeoutMs?: number;
  /** The sandbox's clock in epoch milliseconds (charge times and expiry); tests move it forward. */
  now?: () => number;
  /**
   * When set, charges may only name notification URLs starting with it, so a sandbox exposed by a
   * production gateway cannot be used to make the gateway post to arbitrary (internal) addresses.
   */
  notificationUrlPrefix?: string;
  /**
   * How long a refund stays in process before it settles by itself and its callback is posted
   * (DEFAULT_SANDBOX_REFUND_DELAY_MS); null: only when told (`POST /_control/refunds/:id/settle`), as tests drive it.
   */
  refundSettleDelayMs?: number | null;
  /** Tests running the sandbox in process: how long each batch is held, and which of its charges are refused (docs/sandbox.md, Batches). */
  batchHooks?: BatchHooks;
}

export const DEFAULT_MAX_CHARGES = 50_000;
const DEFAULT_WEBHOOK_TIMEOUT_MS = 5_000;
/** A "timeout" failure holds the request until the client gives up, but never longer than this. */
const HOLD_LIMIT_MS = 120_000;

/**
 * The sandbox PSP: a simulated Pix provider speaking the fixed HTTP API of docs/sandbox.md. A plain,
 * encapsulated Fastify plugin, so it runs alone (standalone.ts) or inside the gateway under
 * `/sandbox`, answering with its own bodies, parser, 404 and error handler in both cases.
 *
 * Injected failures that model a lost or garbled answer (timeout, reset, http_500, malformed) happen
 * after the call was carried out, as with a real PSP that acted before failing: a create has made its
 * charge, and a retry with the same txid gets that charge back. Refusals (http_400, http_422,
 * http_503) happen before anything is done. Calls take the failures queued for
 * their operation: create, get (charge and refund reads), refund, cancel, update (a due-date charge's
 * change), batch (a batch asked for or read).
 */
export const sandboxServer: FastifyPluginAsync<SandboxServerOptions> = async (app, options) => {
  const urlPolicy = { allowPrivate: options.allowPrivateNotificationUrls };
  const psp: Psp = {
    options,
    clock: options.now ?? Date.now,
    store: new ChargeStore(options.maxCharges ?? DEFAULT_MAX_CHARGES),
    failures: new FailureQueue(),
    held: new Set<Socket>(),
    urlPolicy,
    deliver: notifier(urlPolicy, options.webhookTimeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS),
  };
  answerInOwnShape(app, options.authorize);
  app.addHook('preClose', (done) => {
    for (const socket of psp.held) socket.destroy();
    done();
  });

  app.post<{ Body: SandboxCreateChargeBody }>('/charges', { schema: { body: CREATE_BODY_SCHEMA, response: { 200: CHARGE_SCHEMA, 201: CHARGE_SCHEMA } } }, async (request, reply) =>
    createCharge(psp, request, reply),
  );
  app.get<WithId>('/charges/:id', { schema: { params: ID_PARAMS_SCHEMA, response: { 200: CHARGE_SCHEMA } } }, async (request, reply) => readCharge(psp, request, reply));
  app.post<WithId>('/charges/:id/cancel', { schema: { params: ID_PARAMS_SCHEMA, response: { 200: CHARGE_SCHEMA } } }, async (request, reply) =>
    cancelOpenCharge(psp, request, reply),
  );
  app.post<WithId & { Body: SimulateBody }>('/charges/:id/simulate', { schema: { params: ID_PARAMS_SCHEMA, body: SIMULATE_BODY_SCHEMA } }, async (request, reply) =>
    simulateEvent(psp, request, reply),
  );
  controlRoutes(app, psp);
  app.get('/health', { config: { public: true } }, async () => ({ status: 'ok' }));

  refundRoutes(app, {
    store: psp.store,
    clock: psp.clock,
    failures: psp.failures,
    deliver: psp.deliver,
    webhookSecret: options.webhookSecret,
    settleDelayMs: options.refundSettleDelayMs === undefined ? DEFAULT_SANDBOX_REFUND_DELAY_MS : options.refundSettleDelayMs,
    refuse,
    failAfterActing: (request, reply, failure, status, payload) => failAfterActing(psp, request, reply, failure, status, payload),
  });

  dueRoutes(app, {
    store: psp.store,
    batches: new BatchStore(options.maxCharges ?? DEFAULT_MAX_CHARGES),
    batchHooks: options.batchHooks,
    clock: psp.clock,
    failures: psp.failures,
    checkNotificationUrl: (url) => checkNotificationUrl(psp, url),
    refuse,
    failAfterActing: (request, reply, failure, status, payload) => failAfterActing(psp, request, reply, failure, status, payload),
  });

  recurrenceRoutes(app, {
    charges: psp.store,
    recurrences: new RecurrenceStore(options.maxCharges ?? DEFAULT_MAX_CHARGES),
    clock: psp.clock,
    deliver: psp.deliver,
    webhookSecret: options.webhookSecret,
    checkNotificationUrl: (url) => checkNotificationUrl(psp, url),
  });
};

/** What the charge handlers share: the options, the clock, the charges, the failures queued, the connections held. */
interface Psp {
  options: SandboxServerOptions;
  clock: () => number;
  store: ChargeStore;
  failures: FailureQueue;
  /** Connections a `timeout` failure holds unanswered, cut when the server closes. */
  held: Set<Socket>;
  urlPolicy: { allowPrivate: boolean };
  deliver: Deliver;
}

interface WithId {
  Params: { id: string };
}
interface SimulateBody {
  event: SandboxEventType;
  amount?: string;
}

/**
 * The sandbox's own parser, access check, 404 and error answers, so it behaves the same inside the
 * gateway and alone, and answers in its own shape whatever went wrong.
 */
function answerInOwnShape(app: FastifyInstance, authorize: SandboxServerOptions['authorize']): void {
  // Our own JSON parser, so the sandbox behaves the same inside the gateway (whose parser keeps raw
  // bodies) and alone, and an empty body with a JSON content type is no body rather than a 400.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '') return done(null, undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(invalid('The body is not valid JSON.'), undefined);
    }
  });

  // Before the body is read, and for unknown sandbox routes too (they reveal nothing to a stranger).
  app.addHook('onRequest', async (request) => {
    if ((request.routeOptions.config as { public?: boolean } | undefined)?.public) return;
    if (!(await authorize(request))) throw unauthorized();
  });

  app.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(new SandboxHttpError(404, 'NOT_FOUND', `No sandbox route ${request.method} ${request.url}.`).toBody());
  });

  app.setErrorHandler((error: FastifyError | SandboxHttpError, request, reply) => {
    if (error instanceof SandboxHttpError) return reply.code(error.statusCode).send(error.toBody());
    if ('validation' in error && error.validation) {
      const issue = error.validation[0];
      const path = issue?.instancePath.slice(1).replaceAll('/', '.') ?? '';
      const missing = (issue?.params as { missingProperty?: string } | undefined)?.missingProperty;
      const field = [path, missing].filter(Boolean).join('.') || undefined;
      const message = missing ? `${field} is required.` : `${field ?? 'body'} ${issue?.message ?? 'is invalid'}.`;
      return reply.code(400).send(invalid(message, field).toBody());
    }
    // Fastify's own errors carry statusCode; errors thrown by a host's hooks (the gateway's 415
    // rule) carry status. Either way the sandbox answers in its own shape.
    const status = (error as { statusCode?: number }).statusCode ?? (error as { status?: number }).status ?? 500;
    if (status >= 500) request.log.error({ err: error }, 'sandbox fault');
    const code = SANDBOX_CODE_BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_REQUEST');
    // A host's authorize() may refuse with its own headers (Retry-After on a 429).
    const headers = (error as { headers?: unknown }).headers;
    if (status < 500 && headers && typeof headers === 'object') void reply.headers(headers);
    return reply.code(status >= 400 && status < 600 ? status : 500).send({ error: { code, message: status >= 500 ? 'Sandbox fault.' : error.message } });
  });
}

/** `POST /charges`: the charge for this txid, under the failures queued for creates. */
async function createCharge(psp: Psp, request: FastifyRequest<{ Body: SandboxCreateChargeBody }>, reply: FastifyReply): Promise<FastifyReply> {
  const body = request.body;
  if (request.headers['idempotency-key'] !== body.txid) throw invalid('The Idempotency-Key header must equal the txid.', 'Idempotency-Key');
  const amountCents = wireAmountToCents(body.amount)!;
  if (amountCents === 0) throw invalid('amount must be greater than 0.00', 'amount');
  checkKind(body, amountCents, psp.clock());
  await checkNotificationUrl(psp, body.notificationUrl);

  const failure = psp.failures.take('create');
  if (failure && refuse(reply, failure.mode)) return reply;
  const { status, payload } = createOrReplay(psp.store, body, amountCents, psp.clock());
  if (failure) return failAfterActing(psp, request, reply, failure, status, payload);
  return reply.code(status).send(payload);
}

/**
 * An immediate charge needs `expiresIn`; a due-date charge's terms must hold (the gateway's rules:
 * a due date today or later, discount dates in order by the due date, percents and amounts in
 * range), and only it carries an address.
 */
function checkKind(body: SandboxCreateChargeBody, amountCents: number, now: number): void {
  if (!body.due) {
    if (body.expiresIn === undefined) throw invalid('expiresIn is required.', 'expiresIn');
    if (body.recipientAddress) throw invalid('recipientAddress is only for a due-date charge.', 'recipientAddress');
    return;
  }
  const problem = dueTermsProblem(dueTermsFromWire(body.due), amountCents, brasiliaDate(new Date(now)), 'create');
  if (problem) throw problem;
}

/** `GET /charges/:id`, by the sandbox's id or the txid, under the failures queued for reads. */
async function readCharge(psp: Psp, request: FastifyRequest<WithId>, reply: FastifyReply): Promise<FastifyReply> {
  const failure = psp.failures.take('get');
  if (failure && refuse(reply, failure.mode)) return reply;
  const charge = psp.store.find(request.params.id, psp.clock());
  const status = charge ? 200 : 404;
  const payload = charge ? toWire(charge) : notFound(request.params.id).toBody();
  if (failure) return failAfterActing(psp, request, reply, failure, status, payload);
  return reply.code(status).send(payload);
}

/** `POST /charges/:id/cancel`: cancels an open charge; any other answers as it is (a charge paid meanwhile: paid), and nothing is posted. */
async function cancelOpenCharge(psp: Psp, request: FastifyRequest<WithId>, reply: FastifyReply): Promise<FastifyReply> {
  const failure = psp.failures.take('cancel');
  if (failure && refuse(reply, failure.mode)) return reply;
  const charge = psp.store.find(request.params.id, psp.clock());
  if (charge?.status === 'ATIVA') charge.status = 'CANCELADA';
  const status = charge ? 200 : 404;
  const payload = charge ? toWire(charge) : notFound(request.params.id).toBody();
  if (failure) return failAfterActing(psp, request, reply, failure, status, payload);
  return reply.code(status).send(payload);
}

/** `POST /charges/:id/simulate`: moves the charge as the event says and posts the event, answering after that post. */
async function simulateEvent(psp: Psp, request: FastifyRequest<WithId & { Body: SimulateBody }>, reply: FastifyReply): Promise<FastifyReply> {
  const now = psp.clock();
  const charge = psp.store.find(request.params.id, now);
  if (!charge) throw notFound(request.params.id);
  const { event: type, amount } = request.body;
  // The whole charge refunded at the PSP: reads of the charge list the refunds that amounts to.
  if (type === 'payment.refunded') refundWhole(psp.store, charge, now);
  // The simulator moves the charge whatever its status: deciding which transitions count is the gateway's job, and tests need to send it the odd ones.
  charge.status = statusAfterEvent(type);
  // A due-date charge is paid with what is owed today (refreshed by find), unless told another amount (paying late with the wrong sum).
  const reported = amount !== undefined ? wireAmountToCents(amount)! : (charge.amountDueCents ?? charge.amountCents);
  // The Pix that paid, as a PSP reports it: once per charge (a second confirmation is the same Pix).
  if (type === 'payment.confirmed') recordPayment(charge, now, reported);
  const event: SandboxEventBody = {
    event: type,
    id: `evt_sbx_${randomUUID().replaceAll('-', '')}`,
    created_at: new Date(now).toISOString(),
    data: {
      id: charge.id,
      txid: charge.txid,
      amount: centsToReais(reported),
      status: charge.status,
      ...(type === 'payment.confirmed' && charge.pix ? { pix: charge.pix } : {}),
    },
  };
  const delivery = await psp.deliver(charge.notificationUrl, charge.webhookSecret ?? psp.options.webhookSecret, event, request.log);
  return reply.code(202).send({ eventId: event.id, delivered: delivery.delivered, status: delivery.status, charge: toWire(charge) });
}

/** The routes tests drive the sandbox with: queue and clear injected failures, list the charges. */
function controlRoutes(app: FastifyInstance, psp: Psp): void {
  app.post<{ Body: { mode: SandboxFailureMode; count: number; operation: SandboxFailureOperation } }>(
    '/_control/failures',
    { schema: { body: FAILURES_BODY_SCHEMA } },
    async (request, reply) => {
      psp.failures.push(request.body.mode, request.body.count, request.body.operation);
      return reply.code(204).send();
    },
  );

  app.delete('/_control/failures', async (_request, reply) => {
    psp.failures.clear();
    return reply.code(204).send();
  });

  app.get('/_control/charges', { schema: { response: { 200: { type: 'array', items: CHARGE_SCHEMA } } } }, async () => psp.store.list(psp.clock()).map(toWire));
}

/** Refuses (400) a notification URL outside the prefix or the merchant-webhook URL policy. */
async function checkNotificationUrl({ options, urlPolicy }: Psp, url: string): Promise<void> {
  if (options.notificationUrlPrefix !== undefined && !url.startsWith(options.notificationUrlPrefix)) {
    throw invalid(`notificationUrl must start with ${options.notificationUrlPrefix}`, 'notificationUrl');
  }
  try {
    await checkWebhookUrl(url, urlPolicy);
  } catch (error) {
    if (error instanceof WebhookUrlRejectedError) throw invalid(`notificationUrl ${error.message}.`, 'notificationUrl');
    throw error;
  }
}

/** The charge for this txid: created (201), the one it already names (200: the same amount, and a due-date charge again for one), or a conflict (409). */
function createOrReplay(store: ChargeStore, body: SandboxCreateChargeBody, amountCents: number, now: number): { status: number; payload: SandboxChargeWire | SandboxErrorBody } {
  const existing = store.findByTxid(body.txid, now);
  if (existing) {
    if (existing.amountCents === amountCents && Boolean(existing.due) === Boolean(body.due)) return { status: 200, payload: toWire(existing) };
    const kind = existing.due ? 'due-date charge' : 'charge';
    return {
      status: 409,
      payload: new SandboxHttpError(409, 'TXID_CONFLICT', `txid ${body.txid} already names a ${kind} of ${centsToDecimalString(existing.amountCents)} BRL.`).toBody(),
    };
  }
  const charge = newCharge(body, amountCents, now);
  store.add(charge);
  return { status: 201, payload: toWire(charge) };
}

/** Injected failures that refuse before acting. True when the reply was sent. */
function refuse(reply: FastifyReply, mode: SandboxFailureMode): boolean {
  switch (mode) {
    case 'http_400':
      void reply.code(400).send(injected('INVALID_REQUEST', mode));
      return true;
    case 'http_422':
      void reply.code(422).send(injected('UNPROCESSABLE', mode));
      return true;
    case 'http_503':
      void reply.code(503).header('retry-after', '1').send(injected('UNAVAILABLE', mode));
      return true;
    case 'timeout':
    case 'reset':
    case 'http_500':
    case 'malformed':
      return false;
  }
}

/** Injected failures that lose or garble the answer to a call that was carried out (whatever its outcome). */
function failAfterActing(
  { held }: Psp,
  request: FastifyRequest,
  reply: FastifyReply,
  failure: { mode: SandboxFailureMode; index: number },
  status: number,
  payload: unknown,
): FastifyReply {
  switch (failure.mode) {
    case 'timeout': {
      reply.hijack();
      const socket = request.raw.socket;
      held.add(socket);
      const limit = setTimeout(() => socket.destroy(), HOLD_LIMIT_MS).unref();
      socket.once('close', () => {
        clearTimeout(limit);
        held.delete(socket);
      });
      return reply;
    }
    case 'reset':
      reply.hijack();
      request.raw.socket.destroy();
      return reply;
    case 'http_500':
      return reply.code(500).send(injected('INTERNAL', failure.mode));
    case 'malformed':
      // Alternates within one queued entry: first a body that is not JSON at all, then JSON of the wrong shape.
      return failure.index % 2 === 0
        ? reply.code(status).type('text/html').send('<html><body>Bad gateway</body></html>')
        : reply
            .code(status)
            .type('application/json')
            .send(JSON.stringify({ data: payload }));
    default:
      throw new Error(`failure mode ${failure.mode} refuses before acting`);
  }
}
