import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/load-config';
import { TEST_EVENT_TYPE } from '../../src/deliveries/test-event-body';
import { MERCHANT_EVENT_TYPES } from '../../src/domain/provider-event';
import {
  chargeEventFor,
  RECURRENCE_EVENT_TYPES,
  RECURRENCE_STATUSES,
  recurrenceEventFor,
  RECURRING_CHARGE_EVENT_TYPES,
  RECURRING_CHARGE_STATUSES,
} from '../../src/domain/recurrence';
import { REFUND_ORIGINS } from '../../src/domain/refund';
import { PAYMENT_BATCH_COMPLETED } from '../../src/payment-batches/payment-batch-event-bodies';
import type { PaymentBatch } from '../../src/payment-batches/payment-batch.entity';
import { toSummaryView } from '../../src/payment-batches/payment-batch.view';
import { type DeliveredPayment, deliveryBody, refundDeliveryBody } from '../../src/payments/lifecycle/delivery-body';
import type { ForwardedPaymentEventType } from '../../src/payments/lifecycle/payment-event-bodies';
import type { Recurrence } from '../../src/recurrences/recurrence.entity';
import { toRecurrenceView, toRecurringChargeView } from '../../src/recurrences/recurrence.view';
import type { RecurringCharge } from '../../src/recurrences/recurring-charge.entity';
import { EventSchemas, type EventsDocument } from '../helpers/event-schemas';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { apiDocument } = require('../../scripts/api-types.js') as {
  apiDocument: (create: typeof createApp, load: typeof loadConfig) => Promise<OpenApi>;
};

interface Schema {
  $ref?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
}
interface Webhook {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters: { name: string; in: string; required: boolean; description: string; example: unknown; schema: Schema }[];
  requestBody: { required: boolean; content: Record<string, { schema: Schema; example: { event: string; data: object } }> };
  responses: Record<string, { description: string }>;
}
interface OpenApi extends EventsDocument {
  openapi: string;
  tags: { name: string; description?: string }[];
  webhooks: Record<string, { post: Webhook }>;
  components: { schemas: Record<string, Schema> };
}

/** Every event type the code can send a merchant: the domain's lists and the test event. */
const SENT = [...MERCHANT_EVENT_TYPES, ...RECURRENCE_EVENT_TYPES, ...RECURRING_CHARGE_EVENT_TYPES, PAYMENT_BATCH_COMPLETED, TEST_EVENT_TYPE];

const CREATED_AT = '2026-11-26T12:01:00.123Z';
const at = (iso: string) => new Date(iso);

/** The document's `webhooks` (src/api-webhooks.ts), read as GET /docs/json serves them. */
describe('The OpenAPI document: the events sent to merchants (webhooks)', () => {
  let document: OpenApi;
  /** Every field named: the check the e2e tier makes of each body a merchant receives. */
  let exact: EventSchemas;
  /** The document as served, for merchants' validators. */
  let served: EventSchemas;
  beforeAll(async () => {
    document = await apiDocument(createApp, loadConfig);
    exact = new EventSchemas(document, { exact: true });
    served = new EventSchemas(document, { exact: false });
  });

  it('has one webhook per event type the gateway sends, and no other', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.webhooks).sort()).toEqual([...SENT].sort());
  });

  it('gives each webhook its body schema, the Standard Webhooks headers, and what the answer means', () => {
    const operationIds = new Set<string>();
    for (const type of SENT) {
      const { post } = document.webhooks[type]!;
      operationIds.add(post.operationId);
      expect({ type, operationId: post.operationId }).toEqual({ type, operationId: expect.stringMatching(/^on[A-Z][A-Za-z]+$/) });
      expect(post).toMatchObject({ summary: expect.any(String), description: expect.any(String), tags: ['webhooks'] });
      const media = post.requestBody.content['application/json']!;
      expect(post.requestBody.required).toBe(true);
      const name = media.schema.$ref?.replace('#/components/schemas/', '') ?? '';
      const schema = document.components.schemas[name];
      expect({ type, schema: name, required: schema?.required }).toEqual({ type, schema: name, required: ['event', 'id', 'created_at', 'data'] });
      expect({ type, event: schema?.properties?.event?.enum }).toEqual({ type, event: [type] });
      const headers = Object.fromEntries(post.parameters.filter((p) => p.in === 'header').map((p) => [p.name, p]));
      for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
        // Sent whenever the merchant has a signing secret (DeliverySender.headers), and only then.
        expect(headers[name]).toMatchObject({ required: false, description: expect.stringContaining('Standard Webhooks'), example: expect.any(String) });
      }
      expect(headers['X-Webhook-Event']).toMatchObject({ required: true, example: type });
      const answer = { description: expect.any(String) };
      expect(post.responses).toEqual({ '2XX': answer, '410': answer, default: answer });
    }
    expect(operationIds.size).toBe(SENT.length);
    expect(document.tags).toContainEqual({ name: 'webhooks', description: expect.any(String) });
  });

  it('gives each webhook an example body that its schema describes, every field named', () => {
    for (const type of SENT) {
      const example = document.webhooks[type]!.post.requestBody.content['application/json']!.example;
      expect({ type, event: example.event }).toEqual({ type, event: type });
      expect({ type, served: served.problem(example), exact: exact.problem(example) }).toEqual({ type, served: null, exact: null });
    }
  });

  it('states nullable fields the OpenAPI 3.1 way in everything the webhooks name', () => {
    const reached = new Set<string>();
    const nullable: string[] = [];
    const walk = (node: unknown, where: string): void => {
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        // OpenAPI 3.0's keyword, which JSON Schema 2020-12 (3.1's) ignores: such a field would refuse null.
        if (key === 'nullable') nullable.push(where);
        if (key === 'example' || key === 'examples') continue;
        if (key === '$ref' && typeof value === 'string') {
          const name = value.replace('#/components/schemas/', '');
          if (reached.has(name)) continue;
          reached.add(name);
          walk(document.components.schemas[name], name);
        } else walk(value, `${where}/${key}`);
      }
    };
    walk(document.webhooks, 'webhooks');
    expect(nullable).toEqual([]);
    expect([...reached]).toEqual(expect.arrayContaining(['PaymentEventData', 'RefundEventData', 'RecurrenceView', 'RecurringChargeView', 'TestPingData']));
    expect(document.components.schemas.PaymentEventData?.properties?.paidAt).toMatchObject({ type: ['string', 'null'] });
    expect(document.components.schemas.RecurrenceView?.properties?.authorization).toMatchObject({ anyOf: [{ $ref: '#/components/schemas/AuthorizationView' }, { type: 'null' }] });
  });

  describe('describes every body the code builds', () => {
    const payment: DeliveredPayment = {
      id: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A',
      amountCents: 1050,
      refundedAmountCents: 0,
      status: 'pending',
      externalId: 'order-1234',
      provider: 'sandbox',
      paidAt: null,
    };
    const paid = { ...payment, status: 'paid' as const, paidAt: at('2026-11-26T12:00:00.000Z') };
    const check = (body: object) => exact.problem({ ...body, created_at: CREATED_AT });

    it('the payment events (delivery-body.ts deliveryBody)', () => {
      const cases: [ForwardedPaymentEventType, DeliveredPayment][] = [
        ['payment.confirmed', paid],
        ['payment.confirmed', { ...paid, paidAfterClose: true }],
        ['payment.expired', { ...payment, status: 'expired' }],
        ['payment.cancelled', { ...payment, status: 'cancelled' }],
        ['payment.failed', { ...payment, status: 'failed' }],
        ['payment.partially_refunded', { ...paid, status: 'partially_refunded', refundedAmountCents: 350 }],
        ['payment.refunded', { ...paid, status: 'refunded', refundedAmountCents: 1050, paidAfterClose: false }],
      ];
      for (const [type, state] of cases) expect({ type, problem: check(deliveryBody('evt_1', type, state)) }).toEqual({ type, problem: null });
    });

    it('the refund events (delivery-body.ts refundDeliveryBody)', () => {
      for (const origin of REFUND_ORIGINS) {
        for (const [type, status, failureReason, reason] of [
          ['refund.succeeded', 'succeeded', null, 'Item returned'],
          ['refund.failed', 'failed', 'account closed', null],
        ] as const) {
          const refund = {
            id: 'ref_9xQ2mN4pL7sT1vB8cD3fG6hJ',
            paymentId: payment.id,
            amountCents: 350,
            status,
            origin,
            reason,
            failureReason,
            createdAt: at('2026-11-26T14:00:00.000Z'),
            updatedAt: at('2026-11-26T14:00:01.000Z'),
          };
          const body = refundDeliveryBody('evt_2', type, refund, { ...paid, status: 'partially_refunded', refundedAmountCents: 350 });
          expect({ type, origin, problem: check(body) }).toEqual({ type, origin, problem: null });
        }
      }
    });

    // What RecurrenceEventsService.record sends: `{event, id, data: toRecurrenceView | toRecurringChargeView}`.
    const recurrence = {
      id: 'rec_3kTMd9Q2xLr8VbN1cZp4Wf7A',
      merchantId: 'mer_1',
      provider: 'efi',
      providerAccountId: 'pa_1',
      environment: 'production',
      providerRecurrenceId: 'RR1',
      externalId: 'subscription-881',
      status: 'pending_authorization',
      payerDocument: '12345678909',
      payerName: 'Ana Souza',
      contractId: 'plan-gold-4471',
      contractDescription: null,
      frequency: 'monthly',
      amountCents: null,
      minimumAmountCents: 5000,
      startDate: '2026-12-05',
      endDate: '2027-12-05',
      retryPolicy: 'three_in_seven_days',
      journey: 'qr_with_first_payment',
      firstPaymentId: 'pay_1',
      authorizationCopyPaste: '00020126180014br.gov.bcb.pix6304ABCD',
      authorizationExpiresAt: null,
      cancelledBy: null,
      nextReconcileAt: null,
      createdAt: at('2026-11-26T12:00:00.000Z'),
      updatedAt: at('2026-11-26T12:03:00.000Z'),
    } as Recurrence;

    it('the recurrence events (recurrence.view.ts toRecurrenceView)', () => {
      let sent = 0;
      for (const status of RECURRENCE_STATUSES) {
        const type = recurrenceEventFor(status);
        if (!type) continue;
        for (const moved of [
          { ...recurrence, status },
          { ...recurrence, status, amountCents: 8990, minimumAmountCents: null, contractDescription: 'Gym', endDate: null, firstPaymentId: null, cancelledBy: 'payer' as const },
        ]) {
          expect({ type, problem: check({ event: type, id: 'evt_3', data: toRecurrenceView(moved, 'https://pix.example.com') }) }).toEqual({ type, problem: null });
          sent++;
        }
      }
      expect(sent).toBe(RECURRENCE_EVENT_TYPES.length * 2);
    });

    it('the recurring charge events (recurrence.view.ts toRecurringChargeView)', () => {
      const charge = {
        id: 'rch_8fLq2Wm5Tz9Xc3Vb7Nk1Rd4H',
        recurrenceId: recurrence.id,
        merchantId: 'mer_1',
        txid: 'k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2E',
        cycle: 1,
        amountCents: 8990,
        dueDate: '2026-12-05',
        description: null,
        status: 'scheduled',
        attempts: [
          { date: '2026-12-05', status: 'failed', endToEndId: null, reason: 'AM04: insufficient funds' },
          { date: '2026-12-06', status: 'paid', endToEndId: 'E99999999202612061200abcdefghijk', reason: null },
        ],
        retries: 1,
        endToEndId: null,
        paidAt: null,
        failureReason: null,
        nextReconcileAt: null,
        createdAt: at('2026-11-28T12:00:00.000Z'),
        updatedAt: at('2026-12-06T12:00:00.000Z'),
      } as RecurringCharge;
      let sent = 0;
      for (const status of RECURRING_CHARGE_STATUSES) {
        const type = chargeEventFor(status);
        if (!type) continue;
        const moved = { ...charge, status, description: 'December', paidAt: status === 'paid' ? at('2026-12-06T12:00:00.000Z') : null, failureReason: 'AM04' };
        expect({ type, problem: check({ event: type, id: 'evt_4', data: toRecurringChargeView(moved) }) }).toEqual({ type, problem: null });
        sent++;
      }
      expect(sent).toBe(RECURRING_CHARGE_EVENT_TYPES.length);
    });

    it('the batch event (payment-batch.view.ts toSummaryView, as PaymentBatchProcessor.completeIfSettled sends it)', () => {
      const batch = {
        id: 'bat_3kTMd9Q2xLr8VbN1cZp4Wf7A',
        description: 'Mensalidades',
        status: 'completed',
        createdAt: at(CREATED_AT),
        completedAt: at(CREATED_AT),
      } as PaymentBatch;
      const data = toSummaryView(batch, { created: 999, failed: 1, pending: 0 });
      expect(check({ event: PAYMENT_BATCH_COMPLETED, id: 'evt_5', data })).toBeNull();
    });
  });

  it('refuses a body its event type does not describe', () => {
    const example = document.webhooks['payment.confirmed']!.post.requestBody.content['application/json']!.example;
    expect(exact.problem({ ...example, event: 'payment.unknown' })).toMatch(/no webhook/);
    expect(exact.problem({ ...example, data: { ...example.data, status: 'settled' } })).toMatch(/\/data\/status/);
    expect(exact.problem({ ...example, data: { ...example.data, secret: 1 } })).toMatch(/additional properties/);
    expect(served.problem({ ...example, data: { ...example.data, secret: 1 } })).toBeNull();
  });
});
