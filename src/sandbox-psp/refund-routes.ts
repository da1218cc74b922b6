import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  SANDBOX_REFUND_STATUSES,
  type SandboxFailureMode,
  type SandboxOutsideRefundBody,
  type SandboxRefundBody,
  type SandboxRefundEventBody,
  type SandboxSettleBody,
  wireAmountToCents,
} from '../common/sandbox-wire/sandbox-api';
import { type ChargeStore, type StoredCharge, toWire } from './charge-store';
import type { FailureQueue } from './failure-queue';
import type { Deliver, Delivery } from './notifier';
import { existingRefund, newRefund, outcomeOf, refundableCents, refundCourse, refundEvent, refundToWire, refusal, settle, type StoredRefund } from './refund-rules';
import { invalid, notFound, SandboxHttpError } from './sandbox-errors';
import { ID_PARAMS_SCHEMA } from './schemas';

export interface RefundRoutesContext {
  store: ChargeStore;
  clock: () => number;
  failures: FailureQueue;
  deliver: Deliver;
  /** The sandbox's own signing secret, for charges without one of their own. */
  webhookSecret?: string;
  /** How long a refund stays in process before it settles by itself; null: only when told (`/_control/refunds/:id/settle`). */
  settleDelayMs: number | null;
  /** Injected failures that refuse before acting; true when the reply was sent. */
  refuse(reply: FastifyReply, mode: SandboxFailureMode): boolean;
  /** Injected failures that lose or garble the answer to a call carried out. */
  failAfterActing(request: FastifyRequest, reply: FastifyReply, failure: { mode: SandboxFailureMode; index: number }, status: number, payload: unknown): FastifyReply;
}

const AMOUNT = { type: 'string', pattern: '^\\d{1,10}\\.\\d{2}$' } as const;
/** A client's refund id: what the gateway derives from its own (`ref_…`). */
const REFUND_PARAMS_SCHEMA = {
  type: 'object',
  properties: { id: { type: 'string', minLength: 1, maxLength: 64 }, refundId: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,64}$' } },
} as const;
/** The sandbox's own refund ids; a client's may not look like one, since reads find a refund by either. */
const SANDBOX_REFUND_PREFIX = 'sbxr_';
const REFUND_BODY_SCHEMA = {
  type: 'object',
  required: ['amount'],
  properties: { amount: AMOUNT, reason: { type: ['string', 'null'], maxLength: 140 } },
} as const;
const SETTLE_BODY_SCHEMA = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: SANDBOX_REFUND_STATUSES.filter((status) => status !== 'EM_PROCESSAMENTO') },
    failureReason: { type: 'string', minLength: 1, maxLength: 140 },
  },
} as const;
const OUTSIDE_BODY_SCHEMA = {
  type: 'object',
  required: ['origin'],
  properties: { origin: { type: 'string', enum: ['portal', 'med'] }, amount: AMOUNT },
} as const;

const refundNotFound = (id: string) => new SandboxHttpError(404, 'REFUND_NOT_FOUND', `No refund with id "${id}".`);

/** What the refund handlers share: the routes' context, the timers of refunds settling by themselves, and the log those write to. */
interface RefundDesk extends RefundRoutesContext {
  timers: Set<NodeJS.Timeout>;
  log: FastifyBaseLogger;
}

/**
 * Refunds at the sandbox (docs/sandbox.md, Refunds): asked for by the client's refund id (the same id
 * again is the same refund), in process until they settle by themselves after `settleDelayMs` or
 * when told, and then posted to the charge's notification URL; read by either id; and the control
 * routes that settle one or make money go back without the API (the PSP's portal, a MED return).
 */
export function refundRoutes(app: FastifyInstance, context: RefundRoutesContext): void {
  const desk: RefundDesk = { ...context, timers: new Set(), log: app.log };
  app.addHook('onClose', (_instance, done) => {
    for (const timer of desk.timers) clearTimeout(timer);
    desk.timers.clear();
    done();
  });

  app.put<{ Params: { id: string; refundId: string }; Body: SandboxRefundBody }>(
    '/charges/:id/refunds/:refundId',
    { schema: { params: REFUND_PARAMS_SCHEMA, body: REFUND_BODY_SCHEMA } },
    async (request, reply) => askForRefund(desk, request, reply),
  );
  app.get<{ Params: { id: string } }>('/refunds/:id', { schema: { params: ID_PARAMS_SCHEMA } }, async (request, reply) => readRefund(desk, request, reply));
  app.post<{ Params: { id: string }; Body: SandboxSettleBody }>(
    '/_control/refunds/:id/settle',
    {
      schema: { params: ID_PARAMS_SCHEMA, body: SETTLE_BODY_SCHEMA },
      // No body at all (a bare `curl -X POST`) settles as the refund's marker says.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => settleWhenTold(desk, request, reply),
  );
  app.post<{ Params: { id: string }; Body: SandboxOutsideRefundBody }>(
    '/_control/charges/:id/refunds',
    { schema: { params: ID_PARAMS_SCHEMA, body: OUTSIDE_BODY_SCHEMA } },
    async (request, reply) => refundOutsideTheApi(desk, request, reply),
  );
}

/** `PUT /charges/:id/refunds/:refundId`: the refund the client's id names, or a new one, under the failures queued for refunds. */
async function askForRefund(
  desk: RefundDesk,
  request: FastifyRequest<{ Params: { id: string; refundId: string }; Body: SandboxRefundBody }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  if (request.params.refundId.startsWith(SANDBOX_REFUND_PREFIX))
    throw invalid(`refundId must not start with ${SANDBOX_REFUND_PREFIX}, the prefix of the sandbox's own refund ids.`, 'refundId');
  const failure = desk.failures.take('refund');
  if (failure && desk.refuse(reply, failure.mode)) return reply;
  const { status, payload } = refundOrReplay(desk, request.params.id, request.params.refundId, request.body);
  if (failure) return desk.failAfterActing(request, reply, failure, status, payload);
  return reply.code(status).send(payload);
}

/** `GET /refunds/:id`, by the sandbox's id or the client's, under the failures queued for reads. */
async function readRefund(desk: RefundDesk, request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply): Promise<FastifyReply> {
  const failure = desk.failures.take('get');
  if (failure && desk.refuse(reply, failure.mode)) return reply;
  const found = desk.store.findRefund(request.params.id, desk.clock());
  const status = found ? 200 : 404;
  const payload = found ? refundToWire(found.refund) : refundNotFound(request.params.id).toBody();
  if (failure) return desk.failAfterActing(request, reply, failure, status, payload);
  return reply.code(status).send(payload);
}

/** `POST /_control/refunds/:id/settle`: a refund in process ends as told (or as its reason's marker says), and its callback is posted. */
async function settleWhenTold(desk: RefundDesk, request: FastifyRequest<{ Params: { id: string }; Body: SandboxSettleBody }>, reply: FastifyReply): Promise<FastifyReply> {
  const found = desk.store.findRefund(request.params.id, desk.clock());
  if (!found) throw refundNotFound(request.params.id);
  const { refund, charge } = found;
  const wanted = request.body.status;
  // Settling again with the same outcome posts the same report again, as a PSP retrying its callback does.
  if (refund.status !== 'EM_PROCESSAMENTO' && wanted !== undefined && wanted !== refund.status) {
    throw new SandboxHttpError(409, 'REFUND_SETTLED', `Refund ${refund.id} is already ${refund.status}.`);
  }
  const status = wanted ?? outcomeOf(refundCourse(refund.reason));
  const { event, delivery } = await settleAndPost(desk, charge, refund, status, request.body.failureReason ?? null, request.log);
  return reply.code(200).send(controlAnswer(event, delivery, charge, refund));
}

/** `POST /_control/charges/:id/refunds`: money going back without the API asking, recorded settled and posted. */
async function refundOutsideTheApi(
  desk: RefundDesk,
  request: FastifyRequest<{ Params: { id: string }; Body: SandboxOutsideRefundBody }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const charge = desk.store.find(request.params.id, desk.clock());
  if (!charge) throw notFound(request.params.id);
  const amountCents = request.body.amount === undefined ? refundableCents(charge) : wireAmountToCents(request.body.amount)!;
  const refused = refusal(charge, amountCents);
  if (refused) throw refused;
  const refund = recordOutsideRefund(desk.store, charge, amountCents, request.body.origin, desk.clock());
  const { event, delivery } = await post(desk, charge, refund, request.log);
  return reply.code(201).send(controlAnswer(event, delivery, charge, refund));
}

/** The refund the client's id names (200), a new one (201), or why not. */
function refundOrReplay(desk: RefundDesk, chargeRef: string, refundId: string, body: SandboxRefundBody): { status: number; payload: unknown } {
  const { store } = desk;
  const now = desk.clock();
  const charge = store.find(chargeRef, now);
  if (!charge) return { status: 404, payload: notFound(chargeRef).toBody() };
  const amountCents = wireAmountToCents(body.amount)!;
  const existing = existingRefund(charge, store.findRefund(refundId, now)?.refund, amountCents);
  if (existing instanceof SandboxHttpError) return { status: existing.statusCode, payload: existing.toBody() };
  if (existing) return { status: 200, payload: refundToWire(existing) };
  const refused = refusal(charge, amountCents);
  if (refused) return { status: refused.statusCode, payload: refused.toBody() };
  const reason = body.reason ?? null;
  const refund = newRefund(charge, { refundId, amountCents, origin: 'api', reason }, now);
  store.addRefund(charge, refund);
  schedule(desk, charge, refund);
  return { status: 201, payload: refundToWire(refund) };
}

/** Settles the refund by itself after the delay, unless it is held or the sandbox only settles when told. */
function schedule(desk: RefundDesk, charge: StoredCharge, refund: StoredRefund): void {
  const course = refundCourse(refund.reason);
  if (desk.settleDelayMs === null || course === 'hold') return;
  const timer = setTimeout(() => {
    desk.timers.delete(timer);
    // Told to settle meanwhile: nothing more to say.
    if (refund.status !== 'EM_PROCESSAMENTO') return;
    void settleAndPost(desk, charge, refund, outcomeOf(course), null, desk.log);
  }, desk.settleDelayMs);
  timer.unref();
  desk.timers.add(timer);
}

async function settleAndPost(
  desk: RefundDesk,
  charge: StoredCharge,
  refund: StoredRefund,
  status: NonNullable<SandboxSettleBody['status']>,
  failureReason: string | null,
  log: FastifyBaseLogger,
) {
  settle(charge, refund, status, failureReason, desk.clock());
  return post(desk, charge, refund, log);
}

async function post(desk: RefundDesk, charge: StoredCharge, refund: StoredRefund, log: FastifyBaseLogger): Promise<{ event: SandboxRefundEventBody; delivery: Delivery }> {
  const event = refundEvent(charge, refund, desk.clock());
  const delivery = await desk.deliver(charge.notificationUrl, charge.webhookSecret ?? desk.webhookSecret, event, log);
  return { event, delivery };
}

/**
 * The whole charge gone back at the PSP (a simulated `payment.refunded`): its refunds in process
 * succeed, and what is still left becomes a refund of its portal. The event is the report: no refund
 * callbacks are posted, as the gateway reads a `payment.refunded` the same way.
 */
export function refundWhole(store: ChargeStore, charge: StoredCharge, now: number): void {
  for (const refund of charge.refunds) settle(charge, refund, 'DEVOLVIDO', null, now);
  const left = refundableCents(charge);
  if (left > 0) recordOutsideRefund(store, charge, left, 'portal', now);
}

/** Money gone back without the API asking (the PSP's portal, a MED return): recorded settled. */
export function recordOutsideRefund(store: ChargeStore, charge: StoredCharge, amountCents: number, origin: 'portal' | 'med', now: number): StoredRefund {
  const refund = newRefund(charge, { refundId: null, amountCents, origin, reason: null }, now);
  store.addRefund(charge, refund);
  settle(charge, refund, 'DEVOLVIDO', null, now);
  return refund;
}

function controlAnswer(event: SandboxRefundEventBody, delivery: Delivery, charge: StoredCharge, refund: StoredRefund) {
  return { eventId: event.id, delivered: delivery.delivered, status: delivery.status, refund: refundToWire(refund), charge: toWire(charge) };
}
