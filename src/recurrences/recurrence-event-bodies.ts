import { EventBody, type EventDoc } from '../deliveries/event-body';
import type { RecurrenceEventType, RecurringChargeEventType } from '../domain/recurrence';
import { ACTIVE_RECURRENCE_EXAMPLE, PAID_CHARGE_EXAMPLE, SCHEDULED_CHARGE_EXAMPLE } from './recurrence-examples';
import { RecurrenceView, RecurringChargeView } from './recurrence.view';

/*
 * A recurrence event's `data` is the recurrence and a charge event's the charge, exactly as the
 * merchant API answers them (RecurrenceEventsService.record: toRecurrenceView, toRecurringChargeView).
 */
const RECURRENCE = 'The recurrence as the event left it, as `GET /v1/recurrences/{id}` answers it.';
const CHARGE = 'The recurring charge as the event left it, as `GET /v1/recurring-charges/{id}` answers it.';

export class RecurrenceAuthorizedEvent extends EventBody('recurrence.authorized', RecurrenceView, RECURRENCE) {}
export class RecurrenceRejectedEvent extends EventBody('recurrence.rejected', RecurrenceView, RECURRENCE) {}
export class RecurrenceExpiredEvent extends EventBody('recurrence.expired', RecurrenceView, RECURRENCE) {}
export class RecurrenceCancelledEvent extends EventBody('recurrence.cancelled', RecurrenceView, RECURRENCE) {}

export class RecurringChargePaidEvent extends EventBody('recurring_charge.paid', RecurringChargeView, CHARGE) {}
export class RecurringChargeRetryingEvent extends EventBody('recurring_charge.retrying', RecurringChargeView, CHARGE) {}
export class RecurringChargeFailedEvent extends EventBody('recurring_charge.failed', RecurringChargeView, CHARGE) {}
export class RecurringChargeCancelledEvent extends EventBody('recurring_charge.cancelled', RecurringChargeView, CHARGE) {}
export class RecurringChargeExpiredEvent extends EventBody('recurring_charge.expired', RecurringChargeView, CHARGE) {}

/** The recurrence of recurrence-examples.ts once the payer answered (its QR is gone), and its December charge. */
const CLOSED_RECURRENCE = { ...ACTIVE_RECURRENCE_EXAMPLE, authorization: null };
const FAILED_ATTEMPT = { date: '2026-12-05', status: 'failed', reason: 'AM04: insufficient funds' };

export const RECURRENCE_EVENT_DOCS: Record<RecurrenceEventType, EventDoc> = {
  'recurrence.authorized': {
    schema: RecurrenceAuthorizedEvent,
    summary: 'A recurrence was authorized',
    description: 'The payer authorized the recurrence at their bank: it can now be charged each cycle. `data.status` is `active`.',
    example: { event: 'recurrence.authorized', id: 'evt_5Jd8Qm2Lx9Tz4Rb7Vn1Kc3Wf', created_at: '2026-11-26T12:03:00.123Z', data: ACTIVE_RECURRENCE_EXAMPLE },
  },
  'recurrence.rejected': {
    schema: RecurrenceRejectedEvent,
    summary: 'A recurrence was refused',
    description: 'The payer refused the authorization. `data.status` is `rejected`; nothing can be charged.',
    example: {
      event: 'recurrence.rejected',
      id: 'evt_6Ke9Rn3My0Ua5Sc8Wo2Ld4Xg',
      created_at: '2026-11-26T12:04:00.310Z',
      data: { ...CLOSED_RECURRENCE, status: 'rejected', updatedAt: '2026-11-26T12:04:00.000Z' },
    },
  },
  'recurrence.expired': {
    schema: RecurrenceExpiredEvent,
    summary: 'A recurrence expired unanswered',
    description: 'The payer did not answer before the authorization expired. `data.status` is `expired`.',
    example: {
      event: 'recurrence.expired',
      id: 'evt_7Lf0So4Nz1Vb6Td9Xp3Me5Yh',
      created_at: '2026-11-27T12:00:01.005Z',
      data: { ...CLOSED_RECURRENCE, status: 'expired', updatedAt: '2026-11-27T12:00:01.000Z' },
    },
  },
  'recurrence.cancelled': {
    schema: RecurrenceCancelledEvent,
    summary: 'A recurrence was cancelled',
    description:
      'The merchant (`POST /v1/recurrences/{id}/cancel`), the payer at their bank, or a PSP cancelled the recurrence; `data.cancelledBy` says who. ' +
      '`data.status` is `cancelled`; its charges not yet attempted are cancelled with it (each a `recurring_charge.cancelled`).',
    example: {
      event: 'recurrence.cancelled',
      id: 'evt_8Mg1Tp5Oa2Wc7Ue0Yq4Nf6Zi',
      created_at: '2027-02-10T09:30:00.742Z',
      data: { ...CLOSED_RECURRENCE, status: 'cancelled', cancelledBy: 'payer', updatedAt: '2027-02-10T09:30:00.700Z' },
    },
  },
};

export const RECURRING_CHARGE_EVENT_DOCS: Record<RecurringChargeEventType, EventDoc> = {
  'recurring_charge.paid': {
    schema: RecurringChargePaidEvent,
    summary: 'A recurring charge was paid',
    description: "One of the charge's attempts settled: the payer was debited. `data.status` is `paid`, with `endToEndId` and `paidAt`.",
    example: { event: 'recurring_charge.paid', id: 'evt_9Nh2Uq6Pb3Xd8Vf1Zr5Og7Aj', created_at: '2026-12-05T12:00:00.318Z', data: PAID_CHARGE_EXAMPLE },
  },
  'recurring_charge.retrying': {
    schema: RecurringChargeRetryingEvent,
    summary: 'A recurring charge will be retried',
    description:
      'An attempt failed and the gateway asked the PSP for another (`retryPolicy: three_in_seven_days`; sent once per retry). ' +
      "`data.status` is `retrying`, `data.failureReason` the failed attempt's reason; the new attempt appears in `attempts` once the PSP accepts it.",
    example: {
      event: 'recurring_charge.retrying',
      id: 'evt_9Pq4Zt7Lm2Xc8Vb3Nk5Rd1Hs',
      created_at: '2026-12-05T11:00:00.456Z',
      data: { ...SCHEDULED_CHARGE_EXAMPLE, status: 'retrying', attempts: [FAILED_ATTEMPT], failureReason: FAILED_ATTEMPT.reason, updatedAt: '2026-12-05T11:00:00.000Z' },
    },
  },
  'recurring_charge.failed': {
    schema: RecurringChargeFailedEvent,
    summary: 'A recurring charge failed',
    description: 'No attempt settled and none is left. `data.status` is `failed`, `data.failureReason` why.',
    example: {
      event: 'recurring_charge.failed',
      id: 'evt_0Or3Vr7Qc4Ye9Wg2As6Ph8Bk',
      created_at: '2026-12-05T11:00:00.902Z',
      data: { ...SCHEDULED_CHARGE_EXAMPLE, status: 'failed', attempts: [FAILED_ATTEMPT], failureReason: FAILED_ATTEMPT.reason, updatedAt: '2026-12-05T11:00:00.900Z' },
    },
  },
  'recurring_charge.cancelled': {
    schema: RecurringChargeCancelledEvent,
    summary: 'A recurring charge was cancelled',
    description:
      'The merchant cancelled the charge (`POST /v1/recurring-charges/{id}/cancel`), it was cancelled with its recurrence, or the PSP reports it cancelled. `data.status` is `cancelled`.',
    example: {
      event: 'recurring_charge.cancelled',
      id: 'evt_1Ps4Ws8Rd5Zf0Xh3Bt7Qi9Cl',
      created_at: '2026-12-01T10:00:00.221Z',
      data: { ...SCHEDULED_CHARGE_EXAMPLE, status: 'cancelled', attempts: [{ date: '2026-12-05', status: 'cancelled', reason: null }], updatedAt: '2026-12-01T10:00:00.200Z' },
    },
  },
  'recurring_charge.expired': {
    schema: RecurringChargeExpiredEvent,
    summary: 'A recurring charge expired',
    description: 'The PSP expired the charge unpaid. `data.status` is `expired`.',
    example: {
      event: 'recurring_charge.expired',
      id: 'evt_2Qt5Xt9Se6Ag1Yi4Cu8Rj0Dm',
      created_at: '2026-12-13T03:00:00.615Z',
      data: { ...SCHEDULED_CHARGE_EXAMPLE, status: 'expired', attempts: [{ date: '2026-12-05', status: 'expired', reason: null }], updatedAt: '2026-12-13T03:00:00.600Z' },
    },
  },
};
