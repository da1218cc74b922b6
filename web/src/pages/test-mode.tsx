import { useState } from 'react';
import { api } from '../api';
import { formatMoney, parseReais, toCents } from '../format';
import { navigate } from '../router';
import type { AccountEnvironment, Merchant, PaymentDetail, PaymentStatus, PaymentView, ProviderAccount } from '../types';
import { Button, Card, Field, FormModal, messageOf, onSubmit, useSubmit } from '../ui';
import { checkDue, dueApiErrors, dueBody, DueErrors, DueFields, DueValues, emptyDue } from './test-payment-due';

/**
 * Test mode on the dashboard (docs/dashboard.md, Test mode): which payments moved no real money, a
 * test PSP's "make this happen" buttons, and a test payment made from the dashboard.
 */

/**
 * "test" beside a payment charged through a test PSP: the built-in simulated one or a PSP's
 * homologation host (`environment: sandbox`). Live payments carry nothing, so the badge stands out.
 */
export function TestBadge({ environment }: { environment: AccountEnvironment }) {
  if (environment !== 'sandbox') return null;
  // The space before it is its own: beside a status badge, a live payment's cell ends with the status.
  return (
    <>
      {' '}
      <span className="badge badge-test" title="Charged through a test PSP (the sandbox or a PSP's homologation host): no real money moved">
        test
      </span>
    </>
  );
}

type SimulatedEvent = 'payment.confirmed' | 'payment.expired' | 'payment.failed' | 'payment.cancelled' | 'payment.refunded';

/** What a test PSP can make happen to a payment in each status: a pending one is paid, expires, fails or is cancelled; money received can go back. */
const SIMULATIONS: { event: SimulatedEvent; label: string; when: readonly PaymentStatus[]; primary?: boolean }[] = [
  { event: 'payment.confirmed', label: 'Simulate payment', when: ['pending'], primary: true },
  { event: 'payment.expired', label: 'Simulate expiry', when: ['pending'] },
  { event: 'payment.failed', label: 'Simulate failure', when: ['pending'] },
  { event: 'payment.cancelled', label: 'Simulate cancel', when: ['pending'] },
  { event: 'payment.refunded', label: 'Simulate refund at the PSP', when: ['paid', 'partially_refunded'] },
];

export interface SimulationOutcome {
  ok: boolean;
  text: string;
}

/**
 * The payment page's simulation panel, for payments whose provider can simulate (`can_simulate`):
 * the test PSP moves the charge and posts a real, signed event, so the gateway's whole intake path
 * runs; the page shows the payment as the gateway then holds it.
 */
export function SimulatePanel({
  payment,
  onSimulated,
}: {
  payment: PaymentDetail;
  /** The payment read again after the PSP's event, and what to tell the operator. */
  onSimulated: (payment: PaymentDetail | undefined, outcome: SimulationOutcome) => void;
}) {
  const [busy, setBusy] = useState<string>();
  const dueCharge = !!payment.due && payment.status === 'pending';
  const offered = dueCharge ? [] : SIMULATIONS.filter((s) => s.when.includes(payment.status));

  const simulate = async (event: SimulatedEvent, label: string, amount?: number) => {
    setBusy(label);
    try {
      const result = await api<{ payment: PaymentDetail; simulation: { delivered: boolean; status: number | null } }>(
        'POST',
        `/payments/${encodeURIComponent(payment.id)}/simulate`,
        amount === undefined ? { event } : { event, amount },
      );
      const paid = amount === undefined ? '' : ` of ${formatMoney(amount)}`;
      onSimulated(
        result.payment,
        result.simulation.delivered
          ? { ok: true, text: `${label}: the test PSP sent ${event}${paid} to the gateway; the payment is now ${result.payment.status.replace(/_/g, ' ')}.` }
          : { ok: false, text: `${label}: the test PSP sent ${event}${paid}, but the gateway answered ${result.simulation.status ?? 'nothing'}.` },
      );
    } catch (error) {
      onSimulated(undefined, { ok: false, text: messageOf(error) });
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <Card title="Test PSP" className="card-sandbox">
      {dueCharge ? (
        <DueSimulations payment={payment} busy={busy} simulate={simulate} />
      ) : offered.length > 0 ? (
        <>
          <p className="muted small">Make the test PSP ({payment.provider}) send a real, signed event for this payment, as a bank would. No real money moves.</p>
          <div className="button-row">
            {offered.map((s) => (
              <Button key={s.event} kind={s.primary ? 'primary' : 'secondary'} busy={busy === s.label} disabled={!!busy} onClick={() => void simulate(s.event, s.label)}>
                {s.label}
              </Button>
            ))}
          </div>
        </>
      ) : (
        <p className="muted small">
          This payment is {payment.status.replace(/_/g, ' ')}: nothing is left to simulate (a pending payment can be paid, expire, fail or be cancelled; a paid one refunded).
        </p>
      )}
    </Card>
  );
}

/**
 * A pending due-date charge's simulations (docs/sandbox.md, Due-date charges): paid with what is due
 * today, paid with an amount the operator chooses (a late payer's fine and interest, or a mistake:
 * any difference from what is due is recorded as an amount mismatch), or expired as if its last
 * payable day had passed.
 */
function DueSimulations({
  payment,
  busy,
  simulate,
}: {
  payment: PaymentDetail;
  busy?: string;
  simulate: (event: SimulatedEvent, label: string, amount?: number) => Promise<void>;
}) {
  const [late, setLate] = useState(false);
  const [amountText, setAmountText] = useState('');
  const [amountError, setAmountError] = useState<string>();
  const due = payment.amountDue ?? payment.amount;
  const overdue = !!payment.due_dates && payment.due_dates.amount_due_on > payment.due_dates.effective_due_date;
  const onTime = overdue ? 'Pay what is due today' : 'Pay on time';

  const payLate = () => {
    const reais = parseReais(amountText);
    const problem = reais === undefined ? 'Enter an amount in reais, such as 10,50, with at most two decimals.' : reais <= 0 ? 'Enter an amount greater than zero.' : undefined;
    setAmountError(problem);
    if (problem) return;
    void simulate('payment.confirmed', 'Pay late', toCents(reais!) / 100);
  };

  return (
    <>
      <p className="muted small">
        Make the test PSP ({payment.provider}) send a real, signed event for this due-date charge, as a bank would. No real money moves. {formatMoney(due)} is due today; a payment
        of another amount is recorded as paid, with the difference on the page.
      </p>
      <div className="button-row">
        <Button kind="primary" busy={busy === onTime} disabled={!!busy} onClick={() => void simulate('payment.confirmed', onTime, due)}>
          {onTime}
        </Button>
        <Button
          aria-expanded={late}
          aria-controls="late-pay"
          disabled={!!busy}
          onClick={() => {
            setLate(!late);
            setAmountText((text) => text || due.toFixed(2).replace('.', ','));
          }}
        >
          Pay late…
        </Button>
        <Button busy={busy === 'Expire'} disabled={!!busy} onClick={() => void simulate('payment.expired', 'Expire')}>
          Expire
        </Button>
      </div>
      {late && (
        <form id="late-pay" className="late-pay" onSubmit={onSubmit(payLate)} noValidate aria-label="Pay late">
          <Field label="Amount paid (R$)" htmlFor="late-amount" error={amountError}>
            <input
              id="late-amount"
              inputMode="decimal"
              autoComplete="off"
              value={amountText}
              onChange={(e) => setAmountText(e.target.value)}
              aria-invalid={!!amountError}
              aria-describedby={amountError ? 'late-amount-error' : undefined}
            />
          </Field>
          <Button kind="primary" type="submit" busy={busy === 'Pay late'} disabled={!!busy && busy !== 'Pay late'}>
            {parseReais(amountText) ? `Pay ${formatMoney(parseReais(amountText)!)}` : 'Pay'}
          </Button>
        </form>
      )}
    </>
  );
}

interface TestPaymentValues {
  merchantId: string;
  amount: string;
  description: string;
}

type TestPaymentErrors = Partial<Record<keyof TestPaymentValues, string>> & DueErrors;

/**
 * A small form that creates a test payment for a merchant (`POST /admin/api/test-payments`), with one
 * Idempotency-Key per dialog: a double click or a retry after a lost answer makes one payment. The
 * gateway refuses it in production and for a merchant whose route holds a live account; the refusal
 * is shown in the form, in the gateway's words.
 */
export function TestPaymentDialog({ merchants, onClose }: { merchants: Merchant[]; onClose: () => void }) {
  const [key] = useState(() => `dashboard-test-payment-${crypto.randomUUID()}`);
  const [values, setValues] = useState<TestPaymentValues>({ merchantId: merchants.find((m) => m.active)?.id ?? '', amount: '', description: '' });
  const [due, setDue] = useState<DueValues>(() => emptyDue());
  const form = useSubmit<TestPaymentErrors>({
    check: () => {
      const reais = parseReais(values.amount);
      return {
        merchantId: values.merchantId ? undefined : 'Choose the merchant the payment is for.',
        amount: reais === undefined ? 'Enter an amount in reais, such as 10,50, with at most two decimals.' : reais <= 0 ? 'Enter an amount greater than zero.' : undefined,
        description: values.description.trim().length > 140 ? 'At most 140 characters.' : undefined,
        ...checkDue(due, reais !== undefined && reais > 0 ? reais : undefined),
      };
    },
    fieldErrors: dueApiErrors,
    send: async () => {
      const dueTerms = dueBody(due);
      const body = {
        merchantId: values.merchantId,
        amount: toCents(parseReais(values.amount)!) / 100,
        ...(values.description.trim() ? { description: values.description.trim() } : {}),
        ...(dueTerms ? { due: dueTerms } : {}),
      };
      const created = await api<PaymentView>('POST', '/test-payments', body, { 'Idempotency-Key': key });
      onClose();
      navigate(`/admin/payments/${created.id}`);
    },
  });
  const set = (name: keyof TestPaymentValues) => (event: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setValues({ ...values, [name]: event.target.value });
  const reais = parseReais(values.amount);

  return (
    <FormModal
      id="test-payment-form"
      title="New test payment"
      submitLabel={reais && reais > 0 ? `Create test payment of ${formatMoney(reais)}` : 'Create test payment'}
      form={form}
      onClose={onClose}
    >
      <p className="muted small">
        A payment made for the merchant as its API would make it, through its test PSP, to a test payer. It reaches the merchant&apos;s webhook like any other. Only merchants whose
        accounts are all test ones can have one.
      </p>
      <Field label="Merchant" htmlFor="tp-merchant" error={form.errors.merchantId}>
        <select id="tp-merchant" value={values.merchantId} onChange={set('merchantId')} aria-invalid={!!form.errors.merchantId}>
          <option value="">Choose a merchant</option>
          {merchants.map((m) => (
            <option key={m.id} value={m.id}>
              {m.name}
              {m.active ? '' : ' (inactive)'}
            </option>
          ))}
        </select>
      </Field>
      <Field label="Amount (R$)" htmlFor="tp-amount" error={form.errors.amount}>
        <input id="tp-amount" inputMode="decimal" placeholder="10,50" value={values.amount} onChange={set('amount')} aria-invalid={!!form.errors.amount} />
      </Field>
      <Field label="Description" htmlFor="tp-description" error={form.errors.description} hint="Optional; the payer would see it.">
        <input id="tp-description" maxLength={140} placeholder="Test order" value={values.description} onChange={set('description')} aria-invalid={!!form.errors.description} />
      </Field>
      <DueFields values={due} errors={form.errors} onChange={setDue} />
    </FormModal>
  );
}

/**
 * Whether every account a merchant's payments can be charged through is a test one, as the gateway
 * routes them (docs/providers.md, Routing): its active listed accounts, or, with none, its
 * provider's built-in account, which only the simulated PSP has. Undefined until the accounts load.
 */
export function merchantInTestMode(merchant: Pick<Merchant, 'provider_accounts'>, accounts: ProviderAccount[] | undefined): boolean | undefined {
  if (!accounts) return undefined;
  const routed = merchant.provider_accounts.map((id) => accounts.find((a) => a.id === id)).filter((a): a is ProviderAccount => a?.active === true);
  return routed.every((a) => a.environment === 'sandbox');
}

/**
 * The merchant page's word on test mode: keys look the same in test and live (the contract fixes
 * `mk_live_`), so the page says which one this merchant's keys charge in.
 */
export function MerchantTestModeNotice({ merchant, accounts }: { merchant: Pick<Merchant, 'provider_accounts'>; accounts: ProviderAccount[] | undefined }) {
  if (!merchantInTestMode(merchant, accounts)) return null;
  return (
    // A standing fact about the merchant, not news: no live region (a Notice is one).
    <div className="notice notice-info">
      <div className="notice-body">
        <strong>Test mode.</strong> Every account this merchant is charged through is a test PSP (the sandbox or a PSP&apos;s homologation host): its payments move no real money
        and are marked <TestBadge environment="sandbox" />. Its API keys are ordinary <code>mk_live_</code> keys: they charge real money as soon as a production account is added to
        its route.
      </div>
    </div>
  );
}
