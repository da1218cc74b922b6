import { addDays } from '../../src/domain/recurrence';
import { WebhookDeliveryAttemptRepository } from '../../src/deliveries/webhook-delivery-attempt.repository';
import { WebhookDeliveryRepository } from '../../src/deliveries/webhook-delivery.repository';
import { IdempotencyRecordRepository } from '../../src/idempotency/idempotency-record.repository';
import { IdempotencyService } from '../../src/idempotency/idempotency.service';
import { GatewayMetrics } from '../../src/metrics/gateway-metrics';
import { PaymentRepository } from '../../src/payments/payment.repository';
import { AccountResolver } from '../../src/providers/provider-accounts/account-resolver';
import { MerchantProviderAccountRepository, ProviderAccountRepository } from '../../src/providers/provider-accounts/provider-account.repository';
import { ProvidersModule } from '../../src/providers/providers.module';
import { AccountBreakers } from '../../src/providers/routing/account-breakers';
import { AdminRecurrencesService } from '../../src/recurrences/admin-recurrences.service';
import { RecurrenceEvent } from '../../src/recurrences/recurrence-event.entity';
import { RecurrenceEventRepository } from '../../src/recurrences/recurrence-event.repository';
import { RecurrenceEventsService } from '../../src/recurrences/recurrence-events.service';
import { Recurrence } from '../../src/recurrences/recurrence.entity';
import { RecurrenceRepository } from '../../src/recurrences/recurrence.repository';
import { RecurrencesService } from '../../src/recurrences/recurrences.service';
import { RecurringAccounts } from '../../src/recurrences/recurring-accounts';
import { RecurringChargeRepository } from '../../src/recurrences/recurring-charge.repository';
import { MediumContext, newMediumContext } from '../helpers/medium';
import { testDatabase } from '../helpers/test-env';
import { adminRecurrenceFixtures } from '../helpers/admin-recurrence-fixtures';

/**
 * The operator's reads of Pix Automático (AdminRecurrencesService, what `GET /admin/api/recurrences`
 * and `GET /admin/api/recurrences/:id` answer): every merchant's recurrences page by page, one with
 * its charges, history and deliveries, and its authorization QR while it waits. The routes over HTTP
 * (filters refused, 404s, cancel, simulations, the admin token) are test/e2e/admin-recurrences.e2e-spec.ts.
 */
describe(`admin: recurrences (${testDatabase()} database)`, () => {
  let ctx: MediumContext;
  let admin: AdminRecurrencesService;
  beforeAll(async () => {
    ctx = await newMediumContext();
    admin = await ctx.get(
      AdminRecurrencesService,
      [
        RecurrenceRepository,
        RecurringChargeRepository,
        RecurrenceEventRepository,
        WebhookDeliveryRepository,
        WebhookDeliveryAttemptRepository,
        AccountResolver,
        AccountBreakers,
        ProviderAccountRepository,
        MerchantProviderAccountRepository,
        RecurrencesService,
        RecurrenceEventsService,
        RecurringAccounts,
        PaymentRepository,
        IdempotencyService,
        IdempotencyRecordRepository,
        GatewayMetrics,
      ],
      [ProvidersModule],
    );
  });
  afterAll(() => ctx?.close());

  let fixtures: ReturnType<typeof adminRecurrenceFixtures>;
  beforeAll(() => {
    fixtures = adminRecurrenceFixtures(ctx);
  });
  const newRecurrence: typeof fixtures.newRecurrence = (...args) => fixtures.newRecurrence(...args);
  const newCharge: typeof fixtures.newCharge = (...args) => fixtures.newCharge(...args);

  const newEvent = (recurrence: Recurrence, overrides: Partial<RecurrenceEvent> = {}) => ctx.newRecurrenceEvent(recurrence, overrides);

  it("lists every merchant's recurrences newest first, a page at a time, each with its merchant", async () => {
    const ana = await ctx.newMerchant();
    const bia = await ctx.newMerchant();
    const made = [await newRecurrence(ana.merchant.id), await newRecurrence(bia.merchant.id), await newRecurrence(ana.merchant.id)];

    const first = await admin.list({ limit: 2 });
    const seen = [...first.items];
    expect(seen).toHaveLength(2);
    let cursor = first.next_cursor;
    while (cursor) {
      const next = await admin.list({ limit: 2, cursor });
      seen.push(...next.items);
      cursor = next.next_cursor;
    }
    const ours = seen.filter((r) => made.some((m) => m.id === r.id));
    expect(ours.map((r) => [r.id, r.merchant_id])).toEqual([...made].reverse().map((r) => [r.id, r.merchantId]));
    expect(ours[0]).toMatchObject({ status: 'active', amount: 89.9, frequency: 'monthly', provider: 'sandbox', payer: { name: 'Ana Souza' } });
  });

  it('shows the recurrence with its merchant, its charges and their attempts, its history and its deliveries with their attempts', async () => {
    const { merchant } = await ctx.newMerchant();
    const recurrence = await newRecurrence(merchant.id);
    const failedOnce = await newCharge(recurrence, {
      status: 'retrying',
      attempts: [
        { date: recurrence.startDate, status: 'failed', endToEndId: null, reason: 'AM04: insufficient funds' },
        { date: addDays(recurrence.startDate, 1), status: 'scheduled', endToEndId: null, reason: null },
      ],
      retries: 1,
    });
    const authorized = await newEvent(recurrence, { createdAt: new Date(Date.now() - 2000) });
    const retrying = await newEvent(recurrence, {
      type: 'recurring_charge.retrying',
      recurringChargeId: failedOnce.id,
      fromStatus: 'scheduled',
      toStatus: 'retrying',
      providerEventId: `${failedOnce.txid}:retry:1`,
      createdAt: new Date(Date.now() - 1000),
    });
    const delivery = await ctx.newDeliveredRecurrenceEvent(authorized, { url: 'https://shop.example/webhooks/pix', latencyMs: 42, responseExcerpt: '{"ok":true}' });

    const res = await admin.detail(recurrence.id);
    expect(res).toMatchObject({
      id: recurrence.id,
      merchant_id: merchant.id,
      status: 'active',
      externalId: recurrence.externalId,
      authorization: null,
      charges: [
        {
          id: failedOnce.id,
          status: 'retrying',
          amount: 89.9,
          attempts: [
            { date: recurrence.startDate, status: 'failed', reason: 'AM04: insufficient funds' },
            { date: addDays(recurrence.startDate, 1), status: 'scheduled', reason: null },
          ],
        },
      ],
      events: [
        { id: authorized.id, type: 'recurrence.authorized', from_status: 'pending_authorization', to_status: 'active', forward: 'queued', recurring_charge_id: null },
        { id: retrying.id, type: 'recurring_charge.retrying', recurring_charge_id: failedOnce.id, to_status: 'retrying' },
      ],
      deliveries: [
        {
          id: delivery.id,
          event_type: 'recurrence.authorized',
          status: 'delivered',
          attempt_count: 1,
          attempts: [{ attempt: 1, status_code: 200, latency_ms: 42, response_excerpt: '{"ok":true}' }],
        },
      ],
    });
    // The sandbox offers Pix Automático and simulates the payer's side.
    expect(res).toMatchObject({ can_simulate: true, can_cancel: true });
  });

  it('shows the authorization QR while the payer has not answered, and none after', async () => {
    const { merchant } = await ctx.newMerchant();
    const copyPaste = '00020126580014br.gov.bcb.pix2536pix.example.com/qr/v2/rec/abc6304ABCD';
    const pending = await newRecurrence(merchant.id, {
      status: 'pending_authorization',
      authorizationCopyPaste: copyPaste,
      authorizationExpiresAt: new Date(Date.now() + 3600_000),
    });
    const rejected = await newRecurrence(merchant.id, { status: 'rejected', authorizationCopyPaste: copyPaste });

    const shown = await admin.detail(pending.id);
    expect(shown.authorization).toMatchObject({ copyPaste, qrCodePng: expect.stringMatching(/^data:image\/png;base64,iVBOR/) });
    const gone = await admin.detail(rejected.id);
    expect(gone).toMatchObject({ authorization: null, can_cancel: false, charges: [], events: [], deliveries: [] });
  });
});
