import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { brasiliaDate } from '../domain/recurrence';
import { type SandboxFailureMode, wireAmountToCents } from '../common/sandbox-wire/sandbox-api';
import { dueTermsFromWire, type SandboxBatchBody, type SandboxChangeChargeBody } from '../common/sandbox-wire/sandbox-due-api';
import { batchChargeRefusal, type BatchHooks, batchToWire, type BatchStore, isSameBatch, newBatch, settlesOnThisRead, type StoredBatch } from './batches';
import { type ChargeStore, toWire } from './charge-store';
import { dueExpiry, dueTermsProblem, refreshDueCharge } from './due-charges';
import type { FailureQueue } from './failure-queue';
import { newCharge } from './new-charge';
import { invalid, notFound, SandboxHttpError } from './sandbox-errors';
import { BATCH_BODY_SCHEMA, BATCH_PARAMS_SCHEMA, BATCH_SCHEMA, CHANGE_BODY_SCHEMA, CHARGE_SCHEMA, ID_PARAMS_SCHEMA } from './schemas';

export interface DueRoutesContext {
  store: ChargeStore;
  batches: BatchStore;
  /** A test's say over its batches (SandboxServerOptions.batchHooks); absent, the documented behaviour. */
  batchHooks?: BatchHooks;
  clock: () => number;
  failures: FailureQueue;
  /** Refuses (400) a notification URL outside the sandbox's policy. */
  checkNotificationUrl(url: string): Promise<void>;
  /** Injected failures that refuse before acting; true when the reply was sent. */
  refuse(reply: FastifyReply, mode: SandboxFailureMode): boolean;
  /** Injected failures that lose or garble the answer to a call carried out. */
  failAfterActing(request: FastifyRequest, reply: FastifyReply, failure: { mode: SandboxFailureMode; index: number }, status: number, payload: unknown): FastifyReply;
}

/**
 * A batch of 1,000 charges is about 600 KiB of JSON, over the 64 KiB a sandbox body is otherwise
 * allowed (the gateway's own limit, app.ts, and standalone.ts's).
 */
const BATCH_BODY_LIMIT_BYTES = 2 * 1024 * 1024;

const batchNotFound = (id: string) => new SandboxHttpError(404, 'BATCH_NOT_FOUND', `No batch with id "${id}".`);

/**
 * Changing a due-date charge, and batches of them (docs/sandbox.md, Due-date charges and Batches).
 * Creating, reading, cancelling and simulating a due-date charge are the charge routes'
 * (sandbox-server.ts): the same routes serve both kinds.
 */
export function dueRoutes(app: FastifyInstance, context: DueRoutesContext): void {
  app.patch<{ Params: { id: string }; Body: SandboxChangeChargeBody }>(
    '/charges/:id',
    { schema: { params: ID_PARAMS_SCHEMA, body: CHANGE_BODY_SCHEMA, response: { 200: CHARGE_SCHEMA } } },
    async (request, reply) => changeCharge(context, request, reply),
  );
  app.put<{ Params: { id: string }; Body: SandboxBatchBody }>(
    '/batches/:id',
    { bodyLimit: BATCH_BODY_LIMIT_BYTES, schema: { params: BATCH_PARAMS_SCHEMA, body: BATCH_BODY_SCHEMA, response: { 202: BATCH_SCHEMA } } },
    async (request, reply) => askForBatch(context, request, reply),
  );
  app.get<{ Params: { id: string } }>('/batches/:id', { schema: { params: BATCH_PARAMS_SCHEMA, response: { 200: BATCH_SCHEMA } } }, async (request, reply) =>
    readBatch(context, request, reply),
  );
}

/**
 * `PATCH /charges/:id`: an open due-date charge's amount and terms become the body's; its BR Code
 * stays; a closed one is answered unchanged. Nothing is posted: the caller knows. Under the failures
 * queued for updates.
 */
async function changeCharge(
  context: DueRoutesContext,
  request: FastifyRequest<{ Params: { id: string }; Body: SandboxChangeChargeBody }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const amountCents = wireAmountToCents(request.body.amount)!;
  if (amountCents === 0) throw invalid('amount must be greater than 0.00', 'amount');
  const failure = context.failures.take('update');
  if (failure && context.refuse(reply, failure.mode)) return reply;
  const { status, payload } = change(context, request.params.id, amountCents, request.body);
  if (failure) return context.failAfterActing(request, reply, failure, status, payload);
  return reply.code(status).send(payload);
}

function change(context: DueRoutesContext, ref: string, amountCents: number, body: SandboxChangeChargeBody): { status: number; payload: unknown } {
  const now = context.clock();
  const charge = context.store.find(ref, now);
  if (!charge) return { status: 404, payload: notFound(ref).toBody() };
  if (!charge.due) return refused(new SandboxHttpError(409, 'NOT_A_DUE_CHARGE', `Charge ${charge.id} has no due date: only a due-date charge changes.`));
  // A charge no longer open (paid meanwhile) is answered as it stands, unchanged, as a cancel of one is: the caller sees why.
  if (charge.status !== 'ATIVA') return { status: 200, payload: toWire(charge) };
  const terms = dueTermsFromWire(body.due);
  const problem = dueTermsProblem(terms, amountCents, brasiliaDate(charge.createdAt), 'change');
  if (problem) return refused(problem);
  charge.amountCents = amountCents;
  charge.due = terms;
  charge.expiresAt = dueExpiry(terms);
  refreshDueCharge(charge, now);
  return { status: 200, payload: toWire(charge) };
}

const refused = (error: SandboxHttpError) => ({ status: error.statusCode, payload: error.toBody() });

/**
 * `PUT /batches/:id`: the batch of due-date charges under the client's id, answered (202) before its
 * charges are made; the same id again with the same charges answers that batch, with others 409
 * `BATCH_ID_CONFLICT`. A charge that cannot be taken at all (its shape, a due date past, a txid twice)
 * refuses the whole batch, naming it by index. Under the failures queued for batches.
 */
async function askForBatch(context: DueRoutesContext, request: FastifyRequest<{ Params: { id: string }; Body: SandboxBatchBody }>, reply: FastifyReply): Promise<FastifyReply> {
  const body = request.body;
  const existing = context.batches.get(request.params.id);
  if (!existing) await checkBatch(context, body);
  const failure = context.failures.take('batch');
  if (failure && context.refuse(reply, failure.mode)) return reply;
  const { status, payload } = batchOrReplay(context, request.params.id, body, existing);
  if (failure) return context.failAfterActing(request, reply, failure, status, payload);
  return reply.code(status).send(payload);
}

/** The batch this id names (202, asked for again alike), a new one (202), or a conflict (409). */
function batchOrReplay(context: DueRoutesContext, id: string, body: SandboxBatchBody, existing: StoredBatch | undefined): { status: number; payload: unknown } {
  if (existing) {
    if (isSameBatch(existing, body)) return { status: 202, payload: batchToWire(existing) };
    return refused(new SandboxHttpError(409, 'BATCH_ID_CONFLICT', `Batch ${existing.id} was asked for with other charges.`));
  }
  const batch = newBatch(id, body, context.clock(), context.batchHooks?.heldReads());
  context.batches.add(batch);
  return { status: 202, payload: batchToWire(batch) };
}

/** Refuses (400, naming `charges.<index>.<field>`) a batch one of whose charges cannot be taken. */
async function checkBatch(context: DueRoutesContext, body: SandboxBatchBody): Promise<void> {
  const today = brasiliaDate(new Date(context.clock()));
  const seen = new Set<string>();
  const urls = new Set<string>();
  for (const [index, charge] of body.charges.entries()) {
    const at = (field: string | undefined) => `charges.${index}${field ? `.${field}` : ''}`;
    if (seen.has(charge.txid)) throw invalid(`txid ${charge.txid} appears twice in the batch.`, at('txid'));
    seen.add(charge.txid);
    if (wireAmountToCents(charge.amount) === 0) throw invalid('amount must be greater than 0.00', at('amount'));
    const problem = dueTermsProblem(dueTermsFromWire(charge.due), wireAmountToCents(charge.amount)!, today, 'create');
    if (problem) throw invalid(problem.message, at(problem.field));
    urls.add(charge.notificationUrl);
  }
  // Each URL once: a month's charges usually share one.
  for (const url of urls) {
    try {
      await context.checkNotificationUrl(url);
    } catch (error) {
      const index = body.charges.findIndex((charge) => charge.notificationUrl === url);
      if (error instanceof SandboxHttpError) throw invalid(error.message, `charges.${index}.notificationUrl`);
      throw error;
    }
  }
}

/**
 * `GET /batches/:id`: each charge's outcome. Charges are made on the second read after the batch was
 * asked for (the first finds them all `EM_PROCESSAMENTO`), so a client's polling is exercised: made
 * (`CRIADA`, then readable at `GET /charges/:txid`), or refused (`NEGADA`, with its problem, and never a
 * charge). Under the failures queued for batches.
 */
async function readBatch(context: DueRoutesContext, request: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply): Promise<FastifyReply> {
  const failure = context.failures.take('batch');
  if (failure && context.refuse(reply, failure.mode)) return reply;
  const batch = context.batches.get(request.params.id);
  if (batch && settlesOnThisRead(batch)) settle(context, batch);
  const status = batch ? 200 : 404;
  const payload = batch ? batchToWire(batch) : batchNotFound(request.params.id).toBody();
  if (failure) return context.failAfterActing(request, reply, failure, status, payload);
  return reply.code(status).send(payload);
}

/** Makes or refuses each charge of the batch still being made. */
function settle(context: DueRoutesContext, batch: StoredBatch): void {
  const now = context.clock();
  for (const item of batch.items) {
    if (item.status !== 'EM_PROCESSAMENTO' || item.body === null) continue;
    const problem = batchChargeRefusal(item.body, context.store.findByTxid(item.txid, now) !== undefined, context.batchHooks?.refuses(item.txid));
    if (problem) {
      item.status = 'NEGADA';
      item.problem = problem;
    } else {
      context.store.add(newCharge(item.body, item.amountCents, now, batch.id));
      item.status = 'CRIADA';
    }
    item.body = null;
  }
}
