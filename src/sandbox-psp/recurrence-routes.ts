import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { centsToReais } from '../domain/money';
import { isCalendarDate } from '../domain/recurrence';
import { type SandboxEventBody, wireAmountToCents } from '../common/sandbox-wire/sandbox-api';
import type {
  SandboxCreateRecurrenceBody,
  SandboxCreateRecurringChargeBody,
  SandboxRecurrenceCallbackBody,
  SandboxRecurrenceSimulateBody,
  SandboxRecurrenceWire,
  SandboxRecurringChargeCallbackBody,
  SandboxRecurringChargeSimulateBody,
  SandboxRecurringChargeWire,
  SandboxRecurringSimulateAnswer,
} from '../common/sandbox-wire/sandbox-recurring-api';
import { sandboxRecurrenceBrCode } from './br-code';
import type { ChargeStore, StoredCharge } from './charge-store';
import type { Deliver, Delivery } from './notifier';
import { recordPayment, sandboxEndToEndId } from './pix-payment';
import {
  brasiliaToday,
  cancelCharge,
  chargeRefusal,
  closeCharge,
  currentAttempt,
  DEFAULT_FAILURE_REASON,
  failAttempt,
  firstPaymentKindRefusal,
  notYetAttempted,
  type RecurrenceStore,
  recurrenceToWire,
  recurringChargeToWire,
  retryRefusal,
  settleAttempt,
  type StoredRecurrence,
  type StoredRecurringCharge,
} from './recurrence-rules';
import { invalid, SandboxHttpError } from './sandbox-errors';
import {
  CREATE_RECURRENCE_SCHEMA,
  CREATE_RECURRING_CHARGE_SCHEMA,
  ID_PARAMS_SCHEMA,
  RECURRENCE_SIMULATE_SCHEMA,
  RECURRING_CHARGE_SIMULATE_SCHEMA,
  RETRY_PARAMS_SCHEMA,
  TXID_PARAMS_SCHEMA,
} from './schemas';

export interface RecurrenceRoutesContext {
  /** The immediate charges, for the first payment a composite QR also pays. */
  charges: ChargeStore;
  recurrences: RecurrenceStore;
  clock: () => number;
  deliver: Deliver;
  /** The sandbox's own signing secret, for recurrences without one of their own. */
  webhookSecret?: string;
  /** Refuses (400) a notification URL the sandbox may not post to. */
  checkNotificationUrl(url: string): Promise<void>;
}

const recurrenceNotFound = (id: string) => new SandboxHttpError(404, 'RECURRENCE_NOT_FOUND', `No recurrence with id "${id}".`);
const chargeNotFound = (txid: string) => new SandboxHttpError(404, 'RECURRING_CHARGE_NOT_FOUND', `No recurring charge with txid "${txid}".`);
const stateConflict = (code: string, message: string) => new SandboxHttpError(409, code, message);

interface WithId {
  Params: { id: string };
}
interface WithTxid {
  Params: { txid: string };
}

/**
 * Pix Automático at the sandbox (docs/sandbox.md, Recurrences): recurrences created waiting for the
 * payer, their charges per cycle with attempts and retries, cancels, and the simulate routes that
 * act as the payer or the payer's bank and post signed callbacks to `<notificationUrl>/rec` and
 * `<notificationUrl>/cobr`, which carry ids to be read back rather than reports to be believed.
 */
export function recurrenceRoutes(app: FastifyInstance, context: RecurrenceRoutesContext): void {
  app.post<{ Body: SandboxCreateRecurrenceBody }>('/recurrences', { schema: { body: CREATE_RECURRENCE_SCHEMA } }, async (request, reply) =>
    createRecurrence(context, request, reply),
  );
  app.get<WithId>('/recurrences/:id', { schema: { params: ID_PARAMS_SCHEMA } }, async (request) => readRecurrence(context, request));
  app.post<WithId>('/recurrences/:id/cancel', { schema: { params: ID_PARAMS_SCHEMA } }, async (request) => receiverCancel(context, request));
  app.put<WithTxid & { Body: SandboxCreateRecurringChargeBody }>(
    '/recurring-charges/:txid',
    { schema: { params: TXID_PARAMS_SCHEMA, body: CREATE_RECURRING_CHARGE_SCHEMA } },
    async (request, reply) => putRecurringCharge(context, request, reply),
  );
  app.get<WithTxid>('/recurring-charges/:txid', { schema: { params: TXID_PARAMS_SCHEMA } }, async (request) => readRecurringCharge(context, request));
  app.post<WithTxid>('/recurring-charges/:txid/cancel', { schema: { params: TXID_PARAMS_SCHEMA } }, async (request) => cancelRecurringCharge(context, request));
  app.post<{ Params: { txid: string; date: string } }>('/recurring-charges/:txid/retries/:date', { schema: { params: RETRY_PARAMS_SCHEMA } }, async (request, reply) =>
    scheduleRetry(context, request, reply),
  );
  app.post<WithId & { Body: SandboxRecurrenceSimulateBody }>(
    '/recurrences/:id/simulate',
    { schema: { params: ID_PARAMS_SCHEMA, body: RECURRENCE_SIMULATE_SCHEMA } },
    async (request, reply) => simulateRecurrence(context, request, reply),
  );
  app.post<WithTxid & { Body: SandboxRecurringChargeSimulateBody }>(
    '/recurring-charges/:txid/simulate',
    { schema: { params: TXID_PARAMS_SCHEMA, body: RECURRING_CHARGE_SIMULATE_SCHEMA } },
    async (request, reply) => simulateRecurringCharge(context, request, reply),
  );
}

/** `POST /recurrences`: created waiting for the payer (201), the same one again (200), or a conflict (409). */
async function createRecurrence(context: RecurrenceRoutesContext, request: FastifyRequest<{ Body: SandboxCreateRecurrenceBody }>, reply: FastifyReply): Promise<FastifyReply> {
  const { recurrences, clock } = context;
  const body = request.body;
  if (request.headers['idempotency-key'] !== body.recurrenceId) throw invalid('The Idempotency-Key header must equal the recurrenceId.', 'Idempotency-Key');
  const now = clock();
  const amounts = recurrenceAmounts(body);
  // A replay (the answer lost) finds the recurrence it made, even a day later when its start date is past.
  const existing = recurrences.find(body.recurrenceId, now);
  if (existing) {
    if (sameRecurrence(existing, body, amounts)) return reply.code(200).send(recurrenceToWire(existing));
    throw stateConflict('RECURRENCE_ID_CONFLICT', `recurrenceId ${body.recurrenceId} already names another recurrence.`);
  }
  checkDates(body, brasiliaToday(now));
  const firstPayment = checkJourney(context, body, now);
  await context.checkNotificationUrl(body.notificationUrl);
  const recurrence = newRecurrence(body, amounts, firstPayment, now);
  recurrences.add(recurrence);
  return reply.code(201).send(recurrenceToWire(recurrence));
}

function newRecurrence(
  body: SandboxCreateRecurrenceBody,
  amounts: { amountCents: number | null; minimumAmountCents: number | null },
  firstPayment: StoredCharge | null,
  now: number,
): StoredRecurrence {
  const id = `sbxrec_${randomUUID().replaceAll('-', '')}`;
  return {
    id,
    recurrenceId: body.recurrenceId,
    status: 'CRIADA',
    contract: { id: body.contract.id, description: body.contract.description ?? null },
    debtor: { document: body.debtor.document, name: body.debtor.name },
    frequency: body.frequency,
    ...amounts,
    startDate: body.startDate,
    endDate: body.endDate ?? null,
    retryPolicy: body.retryPolicy,
    journey: body.journey,
    firstPaymentTxid: body.firstPaymentTxid ?? null,
    payerAccount: body.payerAccount ?? null,
    // The request journey asks the payer's bank directly: there is nothing to scan.
    pixCopiaECola: body.journey === 'request' ? null : sandboxRecurrenceBrCode(id, firstPayment?.txid ?? null, firstPayment?.due ? 'cobv' : 'cob'),
    notificationUrl: body.notificationUrl,
    webhookSecret: body.webhookSecret,
    createdAt: new Date(now),
    expiresAt: new Date(now + body.expiresIn * 1000),
    updatedAt: new Date(now),
    cancelledBy: null,
  };
}

/** `GET /recurrences/:id`, by the sandbox's id or the client's. */
async function readRecurrence({ recurrences, clock }: RecurrenceRoutesContext, request: FastifyRequest<WithId>): Promise<SandboxRecurrenceWire> {
  const recurrence = recurrences.find(request.params.id, clock());
  if (!recurrence) throw recurrenceNotFound(request.params.id);
  return recurrenceToWire(recurrence);
}

/** `POST /recurrences/:id/cancel`, the receiver's cancel: answered with the recurrence as it now stands; one already ended is left as it is. Nothing is posted. */
async function receiverCancel(context: RecurrenceRoutesContext, request: FastifyRequest<WithId>): Promise<SandboxRecurrenceWire> {
  const now = context.clock();
  const recurrence = context.recurrences.find(request.params.id, now);
  if (!recurrence) throw recurrenceNotFound(request.params.id);
  if (recurrence.status === 'CRIADA' || recurrence.status === 'APROVADA') cancelRecurrence(context, recurrence, 'USUARIO_RECEBEDOR', now);
  return recurrenceToWire(recurrence);
}

/** `PUT /recurring-charges/:txid`: a charge of the cycle, its first attempt on the due date (201), the same again (200), or a refusal. */
async function putRecurringCharge(
  context: RecurrenceRoutesContext,
  request: FastifyRequest<WithTxid & { Body: SandboxCreateRecurringChargeBody }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { recurrences, clock } = context;
  const { txid } = request.params;
  const body = request.body;
  const now = clock();
  if (!isCalendarDate(body.dueDate)) throw invalid('dueDate must be a calendar date (YYYY-MM-DD).', 'dueDate');
  const amountCents = wireAmountToCents(body.amount)!;
  if (amountCents === 0) throw invalid('amount must be greater than 0.00', 'amount');
  const recurrence = recurrences.find(body.recurrenceId, now);
  if (!recurrence) throw recurrenceNotFound(body.recurrenceId);
  const existing = recurrences.findCharge(txid, now);
  if (existing) {
    if (existing.recurrence === recurrence && existing.dueDate === body.dueDate && existing.amountCents === amountCents) {
      return reply.code(200).send(recurringChargeToWire(existing));
    }
    throw stateConflict('TXID_CONFLICT', `txid ${txid} already names another recurring charge.`);
  }
  const refusal = chargeRefusal(recurrence, recurrences.chargesFor(recurrence, now), { dueDate: body.dueDate, amountCents }, brasiliaToday(now));
  if (refusal) throw refusal;
  await context.checkNotificationUrl(body.notificationUrl);
  const at = new Date(now);
  const charge: StoredRecurringCharge = {
    txid,
    recurrence,
    status: 'ATIVA',
    amountCents,
    dueDate: body.dueDate,
    description: body.description ?? null,
    receiverAccount: body.receiverAccount,
    attempts: [{ date: body.dueDate, status: 'AGENDADA', endToEndId: null, failureReason: null, updatedAt: at }],
    endToEndId: null,
    paidAt: null,
    failureReason: null,
    notificationUrl: body.notificationUrl,
    webhookSecret: body.webhookSecret,
    createdAt: at,
    updatedAt: at,
  };
  recurrences.addCharge(charge);
  return reply.code(201).send(recurringChargeToWire(charge));
}

/** `GET /recurring-charges/:txid`. */
async function readRecurringCharge({ recurrences, clock }: RecurrenceRoutesContext, request: FastifyRequest<WithTxid>): Promise<SandboxRecurringChargeWire> {
  const charge = recurrences.findCharge(request.params.txid, clock());
  if (!charge) throw chargeNotFound(request.params.txid);
  return recurringChargeToWire(charge);
}

/** `POST /recurring-charges/:txid/cancel`: an open charge before its due date; a closed one is answered as it stands. */
async function cancelRecurringCharge({ recurrences, clock }: RecurrenceRoutesContext, request: FastifyRequest<WithTxid>): Promise<SandboxRecurringChargeWire> {
  const now = clock();
  const charge = recurrences.findCharge(request.params.txid, now);
  if (!charge) throw chargeNotFound(request.params.txid);
  const refusal = cancelCharge(charge, now);
  if (refusal) throw refusal;
  return recurringChargeToWire(charge);
}

/** `POST /recurring-charges/:txid/retries/:date`: a new attempt on `date` (201), the same retry again (200), or a refusal. */
async function scheduleRetry(
  { recurrences, clock }: RecurrenceRoutesContext,
  request: FastifyRequest<{ Params: { txid: string; date: string } }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { txid, date } = request.params;
  if (!isCalendarDate(date)) throw invalid('date must be a calendar date (YYYY-MM-DD).', 'date');
  const now = clock();
  const charge = recurrences.findCharge(txid, now);
  if (!charge) throw chargeNotFound(txid);
  const last = currentAttempt(charge);
  // The same retry asked for again (its answer lost): the attempt it made, not a second one.
  if (charge.attempts.length > 1 && last.status === 'AGENDADA' && last.date === date) return reply.code(200).send(recurringChargeToWire(charge));
  const refusal = retryRefusal(charge, date, brasiliaToday(now));
  if (refusal) throw refusal;
  const at = new Date(now);
  charge.attempts.push({ date, status: 'AGENDADA', endToEndId: null, failureReason: null, updatedAt: at });
  charge.updatedAt = at;
  return reply.code(201).send(recurringChargeToWire(charge));
}

/** `POST /recurrences/:id/simulate`: the payer authorizes, rejects, lets expire or cancels; the callbacks are posted before the answer. */
async function simulateRecurrence(
  context: RecurrenceRoutesContext,
  request: FastifyRequest<WithId & { Body: SandboxRecurrenceSimulateBody }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const now = context.clock();
  const recurrence = context.recurrences.find(request.params.id, now);
  if (!recurrence) throw recurrenceNotFound(request.params.id);
  const { action } = request.body;
  const from = recurrence.status;
  const needs = action === 'payer_cancel' ? 'APROVADA' : 'CRIADA';
  if (from !== needs) throw stateConflict('RECURRENCE_STATE_CONFLICT', `The recurrence is ${from}: ${action} needs it ${needs}.`);
  let cancelled: StoredRecurringCharge[] = [];
  switch (action) {
    case 'authorize':
      move(recurrence, 'APROVADA', now);
      break;
    case 'reject':
      move(recurrence, 'REJEITADA', now);
      break;
    case 'expire':
      move(recurrence, 'EXPIRADA', now);
      break;
    case 'payer_cancel':
      cancelled = cancelRecurrence(context, recurrence, 'USUARIO_PAGADOR', now);
      break;
  }
  const { eventId, delivery } = await postRecurrence(context, recurrence, now, request.log);
  // The charges the payer's cancel ended, then the first payment the composite QR paid: each its own callback.
  if (cancelled.length > 0) await postCharges(context, cancelled, now, request.log);
  if (action === 'authorize' && recurrence.firstPaymentTxid !== null) await payFirstPayment(context, recurrence.firstPaymentTxid, now, request.log);
  const answer: SandboxRecurringSimulateAnswer = { eventId, delivered: delivery.delivered, status: delivery.status, recurrence: recurrenceToWire(recurrence) };
  return reply.code(202).send(answer);
}

/** `POST /recurring-charges/:txid/simulate`: the payer's bank settles or fails the attempt scheduled; the callback is posted before the answer. */
async function simulateRecurringCharge(
  context: RecurrenceRoutesContext,
  request: FastifyRequest<WithTxid & { Body: SandboxRecurringChargeSimulateBody }>,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const now = context.clock();
  const charge = context.recurrences.findCharge(request.params.txid, now);
  if (!charge) throw chargeNotFound(request.params.txid);
  const attempt = currentAttempt(charge);
  if (charge.status !== 'ATIVA' || attempt.status !== 'AGENDADA') {
    throw stateConflict('NO_ATTEMPT_SCHEDULED', `The charge is ${charge.status} and its last attempt ${attempt.status}: nothing is scheduled to ${request.body.action}.`);
  }
  const action = request.body.action;
  switch (action) {
    case 'settle':
      settleAttempt(charge, sandboxEndToEndId(new Date(now)), now);
      break;
    case 'fail':
      failAttempt(charge, request.body.reason ?? DEFAULT_FAILURE_REASON, now);
      break;
  }
  const { eventId, delivery } = await postCharges(context, [charge], now, request.log);
  const answer: SandboxRecurringSimulateAnswer = { eventId, delivered: delivery.delivered, status: delivery.status, recurringCharge: recurringChargeToWire(charge) };
  return reply.code(202).send(answer);
}

function move(recurrence: StoredRecurrence, status: StoredRecurrence['status'], now: number): void {
  recurrence.status = status;
  recurrence.updatedAt = new Date(now);
}

/** Cancels the recurrence and, with it, its charges not yet attempted; answers those charges. */
function cancelRecurrence(context: RecurrenceRoutesContext, recurrence: StoredRecurrence, by: 'USUARIO_RECEBEDOR' | 'USUARIO_PAGADOR', now: number): StoredRecurringCharge[] {
  move(recurrence, 'CANCELADA', now);
  recurrence.cancelledBy = by;
  const cancelled = context.recurrences.chargesFor(recurrence, now).filter(notYetAttempted);
  for (const charge of cancelled) closeCharge(charge, 'CANCELADA', now);
  return cancelled;
}

async function postRecurrence(
  context: RecurrenceRoutesContext,
  recurrence: StoredRecurrence,
  now: number,
  log: FastifyBaseLogger,
): Promise<{ eventId: string; delivery: Delivery }> {
  const body: SandboxRecurrenceCallbackBody = {
    id: eventId('rec', now),
    recurrences: [{ id: recurrence.id, status: recurrence.status, updatedAt: recurrence.updatedAt.toISOString() }],
  };
  const delivery = await context.deliver(callbackUrl(recurrence.notificationUrl, 'rec'), recurrence.webhookSecret ?? context.webhookSecret, body, log);
  return { eventId: body.id, delivery };
}

/** One callback for charges of one recurrence (they share its notification URL and secret). */
async function postCharges(
  context: RecurrenceRoutesContext,
  charges: StoredRecurringCharge[],
  now: number,
  log: FastifyBaseLogger,
): Promise<{ eventId: string; delivery: Delivery }> {
  const first = charges[0]!;
  const body: SandboxRecurringChargeCallbackBody = {
    id: eventId('cobr', now),
    recurringCharges: charges.map((charge) => ({ txid: charge.txid, recurrenceId: charge.recurrence.id, status: charge.status, updatedAt: charge.updatedAt.toISOString() })),
  };
  const secret = first.webhookSecret ?? first.recurrence.webhookSecret ?? context.webhookSecret;
  const delivery = await context.deliver(callbackUrl(first.notificationUrl, 'cobr'), secret, body, log);
  return { eventId: body.id, delivery };
}

/**
 * The composite QR's payment: its charge paid and confirmed as `payment.confirmed` would (docs/sandbox.md,
 * Events it sends): an immediate charge for its amount, a due-date charge for what is owed today
 * (worked out by the read), as a payer's bank pays the amount the code's payload states.
 */
async function payFirstPayment(context: RecurrenceRoutesContext, txid: string, now: number, log: FastifyBaseLogger): Promise<void> {
  const charge = context.charges.findByTxid(txid, now);
  if (charge?.status !== 'ATIVA') return;
  const paidCents = charge.amountDueCents ?? charge.amountCents;
  recordPayment(charge, now, paidCents);
  const event: SandboxEventBody = {
    event: 'payment.confirmed',
    id: `evt_sbx_${randomUUID().replaceAll('-', '')}`,
    created_at: new Date(now).toISOString(),
    data: { id: charge.id, txid: charge.txid, amount: centsToReais(paidCents), status: charge.status, ...(charge.pix ? { pix: charge.pix } : {}) },
  };
  await context.deliver(charge.notificationUrl, charge.webhookSecret ?? context.webhookSecret, event, log);
}

/** Exactly one of `amount` and `minimumAmount`, each above zero. */
function recurrenceAmounts(body: SandboxCreateRecurrenceBody): { amountCents: number | null; minimumAmountCents: number | null } {
  const amount = body.amount ?? null;
  const minimum = body.minimumAmount ?? null;
  if ((amount === null) === (minimum === null))
    throw invalid('Exactly one of amount (fixed) and minimumAmount (variable) is required.', amount === null ? 'amount' : 'minimumAmount');
  const cents = wireAmountToCents((amount ?? minimum)!)!;
  if (cents === 0) throw invalid('The amount must be greater than 0.00', amount === null ? 'minimumAmount' : 'amount');
  return amount === null ? { amountCents: null, minimumAmountCents: cents } : { amountCents: cents, minimumAmountCents: null };
}

function checkDates(body: SandboxCreateRecurrenceBody, today: string): void {
  if (!isCalendarDate(body.startDate)) throw invalid('startDate must be a calendar date (YYYY-MM-DD).', 'startDate');
  if (body.startDate < today) throw invalid(`startDate must be today (${today}) or later.`, 'startDate');
  if (body.endDate !== null && body.endDate !== undefined) {
    if (!isCalendarDate(body.endDate)) throw invalid('endDate must be a calendar date (YYYY-MM-DD).', 'endDate');
    if (body.endDate <= body.startDate) throw invalid('endDate must be after startDate.', 'endDate');
  }
}

/**
 * The first payment for a composite QR, an open sandbox charge of the journey's kind: immediate for
 * `qr_with_first_payment` (JORNADA_3), with a due date for `qr_with_due_payment` (JORNADA_4), as the
 * Pix API refuses a composite QR asked for with a charge of the other kind (`RecConsultaInvalida`,
 * https://github.com/bacen/pix-api/blob/1f1b568f6adf5b55a6268efbaf62802a14b01941/openapi.yaml);
 * the payer's account for a request; neither otherwise. Answers the first payment's charge, if any.
 */
function checkJourney(context: RecurrenceRoutesContext, body: SandboxCreateRecurrenceBody, now: number): StoredCharge | null {
  const txid = body.firstPaymentTxid ?? null;
  if (body.journey === 'request' && !body.payerAccount) throw invalid('payerAccount is required for the request journey.', 'payerAccount');
  if (body.journey !== 'qr_with_first_payment' && body.journey !== 'qr_with_due_payment') {
    if (txid !== null) throw invalid('firstPaymentTxid is only for the qr_with_first_payment and qr_with_due_payment journeys.', 'firstPaymentTxid');
    return null;
  }
  if (txid === null) throw invalid(`firstPaymentTxid is required for the ${body.journey} journey.`, 'firstPaymentTxid');
  const charge = context.charges.findByTxid(txid, now);
  if (!charge) throw invalid(`firstPaymentTxid ${txid} names no sandbox charge (POST /charges first).`, 'firstPaymentTxid');
  const refusal = firstPaymentKindRefusal(body.journey, charge);
  if (refusal) throw invalid(refusal, 'firstPaymentTxid');
  if (charge.status !== 'ATIVA') throw invalid(`The first payment's charge is ${charge.status}: it must be open (ATIVA).`, 'firstPaymentTxid');
  return charge;
}

function sameRecurrence(existing: StoredRecurrence, body: SandboxCreateRecurrenceBody, amounts: { amountCents: number | null; minimumAmountCents: number | null }): boolean {
  return (
    existing.contract.id === body.contract.id &&
    existing.debtor.document === body.debtor.document &&
    existing.frequency === body.frequency &&
    existing.amountCents === amounts.amountCents &&
    existing.minimumAmountCents === amounts.minimumAmountCents &&
    existing.startDate === body.startDate &&
    existing.journey === body.journey
  );
}

const eventId = (kind: 'rec' | 'cobr', now: number) => `evt_sbx${kind}_${now.toString(36)}${randomUUID().replaceAll('-', '').slice(0, 16)}`;

/** Where a callback goes: `<notificationUrl>/rec` or `/cobr`, as a PSP posts to `<webhook url>/rec` (docs/sandbox.md, Recurrences). */
function callbackUrl(notificationUrl: string, kind: 'rec' | 'cobr'): string {
  return `${notificationUrl.replace(/\/+$/, '')}/${kind}`;
}
