import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { RefundReconciliation } from '../../src/payments/refunds/refund-reconciliation';
import { type PixApiPsp, startPixApiPsp } from '../fakes/pix-api-psp';
import { pixApiAccountBody } from '../helpers/factories';
import { startTestApp, TestApp } from '../helpers/test-app';

/**
 * Money adds up whatever happens in whatever order (docs/api.md, Refunds and cancellation): fast-check drives random sequences
 * of paying, refunding (some answers lost), retrying with the same key, two refunds at once, MED
 * returns, the PSP settling or refusing a devolução, cancelling and reconciliation against the fake
 * Pix API PSP, and after each step checks the invariant: what the PSP says was received and
 * returned is what the gateway recorded, the refunded amount is the sum of the succeeded refunds,
 * and nothing is returned beyond what was paid. A failing sequence is shrunk to a short one.
 */
type Step =
  | { kind: 'pay' }
  | { kind: 'refund'; cents: number; lose: boolean }
  | { kind: 'retry'; pick: number }
  | { kind: 'twoAtOnce'; cents: number }
  | { kind: 'med'; cents: number }
  | { kind: 'settle'; pick: number; ok: boolean }
  | { kind: 'cancel' }
  | { kind: 'reconcile' };

const AMOUNT_CENTS = 1000;
// Amounts from a few round values, so that refunds of the same amount (what a matcher by amount
// confuses) and refunds of exactly what is left come up often.
const amount = fc.constantFrom(100, 250, 300, 500, 1000);
// Weighted toward what moves money: most runs pay early and then refund, lose answers and retry.
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constant<Step>({ kind: 'pay' }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('refund' as const), cents: amount, lose: fc.boolean() }), weight: 4 },
  { arbitrary: fc.record({ kind: fc.constant('retry' as const), pick: fc.nat() }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('twoAtOnce' as const), cents: amount }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('med' as const), cents: amount }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('settle' as const), pick: fc.nat(), ok: fc.boolean() }), weight: 3 },
  { arbitrary: fc.constant<Step>({ kind: 'cancel' }), weight: 1 },
  { arbitrary: fc.constant<Step>({ kind: 'reconcile' }), weight: 1 },
);

/** Sequences the gateway once got wrong: a lost refund settled then retried (counted twice), and a MED return beside a lost refund of its amount. */
const ONCE_WRONG: [Step[]][] = [
  [
    [
      { kind: 'refund', cents: 300, lose: true },
      { kind: 'settle', pick: 0, ok: true },
      { kind: 'retry', pick: 0 },
      { kind: 'refund', cents: 700, lose: false },
      { kind: 'settle', pick: 0, ok: true },
    ],
  ],
  [
    [
      { kind: 'refund', cents: 500, lose: true },
      { kind: 'med', cents: 500 },
      { kind: 'settle', pick: 0, ok: false },
      { kind: 'retry', pick: 0 },
    ],
  ],
  [
    [
      { kind: 'refund', cents: 1000, lose: false },
      { kind: 'retry', pick: 0 },
      { kind: 'settle', pick: 0, ok: true },
      { kind: 'retry', pick: 0 },
    ],
  ],
];

describe('money invariant under random interleavings of pay, refund, retry, MED, cancel and callbacks', () => {
  let t: TestApp;
  let psp: PixApiPsp;
  let merchantKey: string;
  beforeAll(async () => {
    [t, psp] = await Promise.all([startTestApp(), startPixApiPsp()]);
    const account = (await t.admin.POST('/admin/api/provider-accounts', { body: pixApiAccountBody(psp) })).data!;
    expect((await t.admin.POST('/admin/api/provider-accounts/{id}/webhook', { params: { path: { id: account.id } } })).status).toBe(200);
    merchantKey = (await t.admin.newMerchant({ name: 'Loja Aleatória', provider_accounts: [account.id] })).apiKey;
  });
  afterAll(async () => {
    await Promise.all([t.close(), psp.close()]);
  });

  const api = () => t.merchant(merchantKey);
  const cents = (valor: string) => Math.round(Number(valor) * 100);

  /** One payment's life: the steps in order, the invariant checked after each. */
  async function run(steps: Step[]): Promise<void> {
    const key = randomBytes(8).toString('hex');
    const created = (
      await api().POST('/v1/payments/create', {
        body: { amount: AMOUNT_CENTS / 100, currency: 'BRL', recipientDocument: '12345678909', recipientName: 'Ana', externalId: `prop-${key}` },
        params: { header: { 'Idempotency-Key': key } },
      })
    ).data!;
    const txid = created.pix.txid;
    let endToEndId: string | null = null;
    const keys: { key: string; amount: number }[] = [];
    const refund = (amount: number, refundKey = randomBytes(8).toString('hex')) => {
      keys.push({ key: refundKey, amount });
      return api().POST('/v1/payments/{id}/refunds', { params: { path: { id: created.id }, header: { 'Idempotency-Key': refundKey } }, body: { amount } });
    };
    const devolucoes = () => (endToEndId ? ((psp.pixes.get(endToEndId)!.devolucoes ?? []) as { id: string; valor: string; status: string }[]) : []);

    for (const [index, s] of steps.entries()) {
      switch (s.kind) {
        case 'pay':
          if (psp.charges.get(txid)?.status === 'ATIVA') endToEndId = (await psp.pay(txid)).pix.endToEndId as string;
          break;
        case 'refund':
          if (s.lose) psp.fail({ kind: 'status', status: 503, path: '/devolucao/', method: 'PUT', afterHandling: true });
          await refund(s.cents / 100);
          psp.reset();
          break;
        case 'retry': {
          // Any earlier request again, with its key and body: a client retrying what it never heard back about.
          const earlier = keys[s.pick % Math.max(1, keys.length)];
          if (earlier) await refund(earlier.amount, earlier.key);
          break;
        }
        case 'twoAtOnce':
          await Promise.all([refund(s.cents / 100), refund(s.cents / 100)]);
          break;
        case 'med': {
          const returned = devolucoes()
            .filter((d) => d.status !== 'NAO_REALIZADO')
            .reduce((sum, d) => sum + cents(d.valor), 0);
          if (endToEndId && returned + s.cents <= AMOUNT_CENTS) await psp.refundOutside(endToEndId, s.cents, 'MED_OPERACIONAL');
          break;
        }
        case 'settle': {
          const open = devolucoes().filter((d) => d.status === 'EM_PROCESSAMENTO');
          const chosen = open[s.pick % Math.max(1, open.length)];
          if (endToEndId && chosen) await psp.refundSettles(endToEndId, chosen.id, s.ok ? 'DEVOLVIDO' : 'NAO_REALIZADO');
          break;
        }
        case 'cancel':
          await api().POST('/v1/payments/{id}/cancel', { params: { path: { id: created.id } } });
          break;
        case 'reconcile':
          await t.dataSource.query(`UPDATE refunds SET next_check_at = now() - interval '1 second' WHERE payment_id = $1 AND status = 'pending'`, [created.id]);
          await t.app.get(RefundReconciliation).runOnce();
          break;
      }
      await checkInvariant(created.id, devolucoes(), endToEndId !== null, `after step ${index} (${JSON.stringify(s)}) of ${JSON.stringify(steps)}`);
    }
  }

  async function checkInvariant(paymentId: string, atPsp: { status: string; valor: string }[], paidAtPsp: boolean, where: string): Promise<void> {
    const payment = (await api().GET('/v1/payments/{id}', { params: { path: { id: paymentId } } })).data!;
    const refunds = (await api().GET('/v1/payments/{id}/refunds', { params: { path: { id: paymentId } } })).data!;
    const succeeded = refunds.filter((r) => r.status === 'succeeded').reduce((sum, r) => sum + Math.round(r.amount * 100), 0);
    const returnedAtPsp = atPsp.filter((d) => d.status === 'DEVOLVIDO').reduce((sum, d) => sum + cents(d.valor), 0);
    const paidStatuses = ['paid', 'partially_refunded', 'refunded'];
    expect({ where, received: paidStatuses.includes(payment.status), returned: Math.round(payment.refundedAmount * 100), succeeded }).toEqual({
      where,
      received: paidAtPsp,
      returned: returnedAtPsp,
      succeeded: returnedAtPsp,
    });
    expect({ where, within: succeeded <= AMOUNT_CENTS }).toEqual({ where, within: true });
    const expectedStatus = !paidAtPsp ? payment.status : succeeded === 0 ? 'paid' : succeeded === AMOUNT_CENTS ? 'refunded' : 'partially_refunded';
    expect({ where, status: payment.status }).toEqual({ where, status: expectedStatus });
  }

  it('holds after every step of random sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 4, maxLength: 12, size: 'max' }), (steps) => run([{ kind: 'pay' }, ...steps])),
      // Each run is one payment through the whole app: a few dozen runs keep the spec near ten seconds.
      // The sequences once got wrong run every time, before the random ones.
      { numRuns: 50, examples: ONCE_WRONG },
    );
  });
});
