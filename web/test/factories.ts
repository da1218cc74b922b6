/**
 * The admin API's objects for component tests, shaped by the generated OpenAPI types
 * (web/src/api-types.ts): plausible defaults, and each test overrides only what it is about.
 */
import type { components } from '../src/api-types';
import type { AccountHealth, PaymentAttempt, PaymentDetail, ProviderAccount, Refund } from '../src/types';

type Schemas = components['schemas'];

const CREATED = '2024-05-02T13:45:10.000Z';
let sequence = 0;
const next = (prefix: string) => `${prefix}_${String(++sequence).padStart(24, '0')}`;

export function merchant(overrides: Partial<Schemas['MerchantWithSecretView']> = {}): Schemas['MerchantWithSecretView'] {
  return {
    id: next('mer'),
    name: 'Loja da Ana',
    display_name: null,
    brand_color: null,
    active: true,
    webhook_url: 'https://shop.example.com/webhooks/pix',
    has_webhook_signing_secret: false,
    provider: null,
    refund_after_close: false,
    provider_accounts: [],
    created_at: CREATED,
    updated_at: CREATED,
    ...overrides,
  };
}

export function page<T>(items: T[], next_cursor: string | null = null): { items: T[]; next_cursor: string | null } {
  return { items, next_cursor };
}

export function payment(overrides: Partial<Schemas['AdminPaymentItemView']> = {}): Schemas['AdminPaymentItemView'] {
  return {
    id: next('pay'),
    status: 'pending',
    amount: 10.5,
    currency: 'BRL',
    description: 'Order 1234',
    externalId: 'order-1234',
    environment: 'sandbox',
    recipient: { document: '12345678909', name: 'Ana Souza' },
    pix: {
      txid: 'k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2E',
      copyPaste: '00020126580014br.gov.bcb.pix6304ABCD',
      qrCodePng: 'data:image/png;base64,iVBORw0KGgo=',
      expiresAt: '2024-05-02T14:45:10.000Z',
    },
    provider: 'sandbox',
    providerPaymentId: 'sbx_8f2k',
    createdAt: CREATED,
    updatedAt: CREATED,
    paidAt: null,
    paidAfterClose: false,
    refundedAmount: 0,
    checkoutUrl: 'http://localhost:3000/pay/Xq3LmT8vR2kZpW9nB4cY7hJd',
    merchantId: 'mer_000000000000000000000001',
    ...overrides,
  };
}

export function paymentDetail(overrides: Partial<PaymentDetail> = {}): PaymentDetail {
  return { ...payment(), can_simulate: false, events: [], deliveries: [], attempts: [], refunds: [], can_refund: false, can_cancel: false, ...overrides };
}

/** A paid payment of R$ 10,50 whose provider refunds, nothing refunded yet. */
export function refundablePayment(overrides: Partial<PaymentDetail> = {}): PaymentDetail {
  return paymentDetail({ status: 'paid', paidAt: CREATED, paidAmount: 10.5, can_refund: true, ...overrides });
}

/**
 * A pending due-date charge of R$ 150,00 (a month's tuition): due 2024-05-10, payable 30 days after,
 * 2% fine, 1% a month interest in calendar days, R$ 10,00 off paid by 2024-05-05 and R$ 5,00 by the
 * due date, asked on 2024-05-02 (R$ 140,00 due), with the payer's address.
 */
export function dueCharge(overrides: Partial<PaymentDetail> = {}): PaymentDetail {
  return paymentDetail({
    amount: 150,
    externalId: 'tuition-2024-05',
    description: 'Tuition, May',
    can_simulate: true,
    recipient: { document: '12345678909', name: 'Ana Souza', address: { street: 'Rua das Flores, 80, Boa Vista', city: 'Recife', state: 'PE', zip: '50050000' } },
    due: {
      date: '2024-05-10',
      daysAfterDue: 30,
      fine: { type: 'percent', value: 2 },
      interest: { type: 'percent_per_month', days: 'calendar', value: 1 },
      discount: {
        type: 'fixed_until',
        until: [
          { date: '2024-05-05', value: 10 },
          { date: '2024-05-10', value: 5 },
        ],
      },
      abatement: null,
    },
    amountDue: 140,
    due_dates: { effective_due_date: '2024-05-10', last_payable_date: '2024-06-10', amount_due_on: '2024-05-02' },
    ...overrides,
  });
}

/** The entry a due-date charge's history gets when it was paid with another amount than was due: paid all the same. */
export function paidMismatchEvent(paid: number, due: number, overrides: Partial<Schemas['PaymentEventView']> = {}): Schemas['PaymentEventView'] {
  return paymentEvent({
    outcome: 'amount_mismatch',
    from_status: 'paid',
    to_status: 'paid',
    amount: paid,
    amount_due: due,
    forward: 'none',
    provider_event_id: 'evt_sbx_9f2c:amount_mismatch',
    note: `Paid ${paid.toFixed(2)} on 2024-05-15, when ${due.toFixed(2)} was due; recorded as paid (the money has moved).`,
    ...overrides,
  });
}

/** A refund the merchant asked for, still pending at the PSP. */
export function refund(overrides: Partial<Refund> = {}): Refund {
  return {
    id: next('ref'),
    paymentId: 'pay_000000000000000000000001',
    amount: 3.5,
    status: 'pending',
    origin: 'merchant',
    reason: null,
    failureReason: null,
    createdAt: CREATED,
    updatedAt: CREATED,
    provider: 'sandbox',
    providerAccountId: null,
    providerRefundId: null,
    txid: 'k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2E',
    attemptId: null,
    settledAt: null,
    ...overrides,
  };
}

export function paymentEvent(overrides: Partial<Schemas['PaymentEventView']> = {}): Schemas['PaymentEventView'] {
  return {
    id: next('evt'),
    type: 'payment.confirmed',
    source: 'webhook',
    outcome: 'applied',
    from_status: 'pending',
    to_status: 'paid',
    amount: 10.5,
    forward: 'queued',
    note: null,
    provider_event_id: 'evt_sbx_9f2c',
    request_id: '9b2f6c1e-3c4d-4f7a-9a51-2a8f0d3e4b11',
    created_at: CREATED,
    ...overrides,
  };
}

export function attempt(overrides: Partial<Schemas['DeliveryAttemptView']> = {}): Schemas['DeliveryAttemptView'] {
  return { attempt: 1, attempted_at: CREATED, url: 'https://shop.example.com/webhooks/pix', status_code: 200, latency_ms: 84, error: null, ...overrides };
}

/** A delivery as a payment's detail shows it, with its attempts. */
export function paymentDelivery(overrides: Partial<Schemas['PaymentDeliveryView']> = {}): Schemas['PaymentDeliveryView'] {
  return {
    id: next('dlv'),
    event_id: 'evt_000000000000000000000001',
    event_type: 'payment.confirmed',
    status: 'delivered',
    attempt_count: 1,
    next_attempt_at: CREATED,
    last_status_code: 200,
    last_error: null,
    delivered_at: CREATED,
    request_id: '9b2f6c1e-3c4d-4f7a-9a51-2a8f0d3e4b11',
    created_at: CREATED,
    updated_at: CREATED,
    attempts: [attempt()],
    ...overrides,
  };
}

/** A delivery as the deliveries list shows it: `attempts` is a count there. */
export function listedDelivery(overrides: Partial<Schemas['DeliveryView']> = {}): Schemas['DeliveryView'] {
  return {
    id: next('dlv'),
    status: 'failed',
    event_type: 'payment.confirmed',
    event_id: 'evt_000000000000000000000001',
    payment_id: 'pay_000000000000000000000001',
    recurrence_id: null,
    batch_id: null,
    merchant_id: 'mer_000000000000000000000001',
    merchant_name: 'Loja da Ana',
    webhook_url: 'https://shop.example.com/webhooks/pix',
    attempts: 8,
    next_attempt_at: CREATED,
    last_status_code: 503,
    last_error: null,
    delivered_at: null,
    request_id: '9b2f6c1e-3c4d-4f7a-9a51-2a8f0d3e4b11',
    created_at: CREATED,
    updated_at: CREATED,
    ...overrides,
  };
}

export function session(overrides: Partial<Schemas['SessionView']> = {}): Schemas['SessionView'] {
  return {
    email: 'admin@example.com',
    csrf_token: 'Jc1yq3WkTqv0gYF7m2ZpS8bXr4NoA6Ud',
    created_at: CREATED,
    idle_expires_at: '2024-05-02T14:15:10.000Z',
    expires_at: '2024-05-02T21:45:10.000Z',
    ...overrides,
  };
}

/** A provider account: a Pix API account in homologation with a certificate good for a year, unless overridden. */
export function providerAccount(overrides: Partial<ProviderAccount> = {}): ProviderAccount {
  const id = overrides.id ?? next('pa');
  const provider = overrides.provider ?? 'pix-api';
  return {
    id,
    name: 'Banco Teste',
    provider,
    environment: 'sandbox',
    base_url: 'https://pix.psp.example/v2',
    token_url: 'https://pix.psp.example/oauth/token',
    pix_key: 'recebedor@example.com',
    active: true,
    webhook_url: `https://gateway.example.com/webhooks/${provider}/${id}`,
    receiver_account: null,
    credentials_summary: { client_id: 'Client_Id_4f1c', certificate_subject: 'CN=loja-da-ana, O=Loja da Ana', certificate_expires_at: daysFromNow(365) },
    health: { circuit: 'closed', consecutive_failures: 0, recent_failures: 0, last_failure_at: null, last_error: null },
    created_at: CREATED,
    updated_at: CREATED,
    ...overrides,
  };
}

/** An account as a gateway from before routing sent it: no `health`. */
export function withoutHealth(account: ProviderAccount): ProviderAccount {
  const { health: _, ...rest } = account;
  return rest as ProviderAccount;
}

/** A healthy account's health: circuit closed, no failure in the last hour. */
export function accountHealth(overrides: Partial<AccountHealth> = {}): AccountHealth {
  return { circuit: 'closed', consecutive_failures: 0, recent_failures: 0, last_failure_at: null, last_error: null, ...overrides };
}

/** One account tried for a payment: by default the first, which charged it. */
export function paymentAttempt(overrides: Partial<PaymentAttempt> = {}): PaymentAttempt {
  return {
    id: next('att'),
    attempt: 1,
    account_id: 'pa_000000000000000000000001',
    provider: 'pix-api',
    environment: 'sandbox',
    txid: 'k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2E',
    provider_payment_id: null,
    outcome: 'charged',
    upstream_status: 201,
    error: null,
    duration_ms: 412,
    created_at: CREATED,
    orphan: null,
    ...overrides,
  };
}

export function accountCheck(overrides: Partial<Schemas['ProviderAccountCheckView']> = {}): Schemas['ProviderAccountCheckView'] {
  return { ok: true, latency_ms: 84, detail: null, ...overrides };
}

/** Days from now, as an ISO instant (certificate expiry is judged against now). */
export function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString();
}

/** Minutes from now, as an ISO instant (delivery retry times are shown relative to now). */
export function minutesFromNow(minutes: number): string {
  return new Date(Date.now() + minutes * 60_000).toISOString();
}

type Descriptor = Schemas['ProviderDescriptorView'];
type CredentialField = Schemas['CredentialFieldView'];

const field = (name: string, label: string, kind: CredentialField['kind'], required: boolean, pem: CredentialField['pem'] = null): CredentialField => ({
  name,
  label,
  kind,
  required,
  pem,
  help: `Help for ${name}.`,
});

/**
 * A Pix API provider as the catalogue describes one. The providers of these tests are invented:
 * the forms must work from what the catalogue says, knowing no PSP of their own.
 */
export function pixProvider(
  name: string,
  label: string,
  { hosts = true, sandboxHosts = hosts, secret = true, extras = [] }: { hosts?: boolean; sandboxHosts?: boolean; secret?: boolean; extras?: CredentialField[] } = {},
): Descriptor {
  const host = (environment: string) => `https://${environment === 'production' ? 'pix' : 'pix-h'}.${name}.example/v2`;
  const environments: Descriptor['environments'] = (['sandbox', 'production'] as const).map((environment) => {
    const known = environment === 'sandbox' ? sandboxHosts : hosts;
    return { name: environment, base_url: known ? host(environment) : null, token_url: known ? `${host(environment)}/oauth/token` : null };
  });
  const missing = environments.filter((environment) => environment.base_url === null).map((environment) => environment.name);
  return {
    name,
    label,
    environments,
    settings: [
      { name: 'base_url', label: 'API base URL', required_in: missing, help: 'Scheme, host and base path.' },
      { name: 'token_url', label: 'Token URL', required_in: missing, help: 'The OAuth2 token URL.' },
      { name: 'pix_key', label: 'Pix key', required_in: ['sandbox', 'production'], help: 'The receiving key.' },
    ],
    credentials: [
      field('client_id', 'Client ID', 'text', true),
      ...(secret ? [field('client_secret', 'Client secret', 'secret', true)] : []),
      field('certificate_pem', 'Certificate (PEM)', 'pem', true, 'certificates'),
      field('private_key_pem', 'Private key (PEM)', 'pem', true, 'private_key'),
      field('pkcs12_base64', 'PKCS#12 file', 'pkcs12', true),
      field('pkcs12_password', 'Bundle password', 'secret', false),
      field('ca_pem', 'CA certificates (PEM)', 'pem', false, 'certificates'),
      ...extras,
    ],
    one_of: [
      {
        name: 'certificate',
        label: 'Client certificate',
        options: [
          { name: 'pem', label: 'Certificate and private key (PEM)', fields: ['certificate_pem', 'private_key_pem'] },
          { name: 'pkcs12', label: 'PKCS#12 bundle (.p12, .pfx)', fields: ['pkcs12_base64', 'pkcs12_password'] },
        ],
      },
    ],
    capabilities: {
      refund: true,
      partial_refund: true,
      cancel: true,
      register_webhook: true,
      txid: 'gateway',
      recurring: { lead_time: { min_days: 2, max_days: 10 }, source: 'https://bacen.github.io/pix-api/' },
      due_charges: { source: 'https://bacen.github.io/pix-api/#/CobV' },
      charge_batches: { max_charges: 1000, source: 'https://bacen.github.io/pix-api/#/LoteCobV' },
    },
    built_in: false,
  };
}

/**
 * Mercado Pago as its descriptor describes it (contract section 8): a bearer access token and the
 * notifications' secret, no Pix key, no certificate, no token URL, one host for both environments.
 */
export function mercadoPagoProvider(): Descriptor {
  const host = 'https://api.mercadopago.com';
  return {
    name: 'mercadopago',
    label: 'Mercado Pago',
    environments: [
      { name: 'sandbox', base_url: host, token_url: null },
      { name: 'production', base_url: host, token_url: null },
    ],
    settings: [{ name: 'base_url', label: 'API base URL', required_in: [], help: "Mercado Pago's API." }],
    credentials: [field('access_token', 'Access token', 'secret', true), field('webhook_secret', 'Webhook secret', 'secret', true)],
    one_of: [],
    capabilities: { refund: true, partial_refund: true, cancel: true, register_webhook: false, txid: 'provider', recurring: null, due_charges: null, charge_batches: null },
    built_in: false,
  };
}

/** The catalogue of these tests: a provider without hosts, banks with extras, one without a client secret, Mercado Pago, a simulated PSP. */
export function providerCatalogue(): Descriptor[] {
  return [
    pixProvider('pix-api', 'Pix API', { hosts: false }),
    pixProvider('banco-a', 'Banco A', { extras: [field('app_key', 'Application key', 'text', true)] }),
    pixProvider('banco-b', 'Banco B', { extras: [field('skip_checks', 'Skip the checks', 'boolean', false), field('branch', 'Branch', 'text', false)] }),
    pixProvider('coop', 'Cooperativa', { sandboxHosts: false, secret: false }),
    mercadoPagoProvider(),
    {
      name: 'simulated',
      label: 'Simulated PSP',
      environments: [{ name: 'sandbox', base_url: 'http://127.0.0.1:3000/sandbox', token_url: null }],
      settings: [{ name: 'base_url', label: 'Sandbox URL', required_in: [], help: 'Another simulated PSP.' }],
      credentials: [field('webhook_secret', 'Webhook secret', 'secret', false)],
      one_of: [],
      capabilities: {
        refund: false,
        partial_refund: false,
        cancel: false,
        register_webhook: false,
        txid: 'gateway',
        recurring: { lead_time: { min_days: 2, max_days: 10 }, source: 'docs/sandbox.md' },
        due_charges: { source: 'docs/sandbox.md' },
        charge_batches: null,
      },
      built_in: true,
    },
  ];
}

/** An active monthly recurrence of R$ 89,90 at the sandbox, as the admin list shows it. */
export function recurrence(overrides: Partial<Schemas['AdminRecurrenceView']> = {}): Schemas['AdminRecurrenceView'] {
  return {
    id: next('rec'),
    status: 'active',
    externalId: 'subscription-881',
    payer: { document: '12345678909', name: 'Ana Souza' },
    contract: { id: 'plan-gold', description: 'Gym membership' },
    frequency: 'monthly',
    amount: 89.9,
    minimumAmount: null,
    startDate: '2024-05-10',
    endDate: null,
    retryPolicy: 'three_in_seven_days',
    journey: 'qr',
    authorization: null,
    firstPaymentId: null,
    cancelledBy: null,
    provider: 'sandbox',
    environment: 'sandbox',
    createdAt: CREATED,
    updatedAt: CREATED,
    merchant_id: 'mer_000000000000000000000001',
    ...overrides,
  };
}

export function recurrenceDetail(overrides: Partial<Schemas['AdminRecurrenceDetailView']> = {}): Schemas['AdminRecurrenceDetailView'] {
  return { ...recurrence(), can_simulate: false, can_cancel: true, charges: [], events: [], deliveries: [], ...overrides };
}

/** A recurrence waiting for the payer, with its authorization QR. */
export function pendingRecurrence(overrides: Partial<Schemas['AdminRecurrenceDetailView']> = {}): Schemas['AdminRecurrenceDetailView'] {
  return recurrenceDetail({
    status: 'pending_authorization',
    authorization: {
      copyPaste: '00020126580014br.gov.bcb.pix2536pix.example.com/rec/abc6304ABCD',
      qrCodePng: 'data:image/png;base64,iVBORw0KGgo=',
      expiresAt: '2024-05-03T13:45:10.000Z',
      checkoutUrl: 'http://localhost:3000/pay/Lr7NcQ2wX9vK4mP8zT3bY6hD',
    },
    ...overrides,
  });
}

export function recurringCharge(overrides: Partial<Schemas['RecurringChargeView']> = {}): Schemas['RecurringChargeView'] {
  return {
    id: next('rch'),
    recurrenceId: 'rec_000000000000000000000001',
    amount: 89.9,
    dueDate: '2024-05-10',
    description: 'May',
    status: 'scheduled',
    attempts: [{ date: '2024-05-10', status: 'scheduled', reason: null }],
    endToEndId: null,
    paidAt: null,
    failureReason: null,
    txid: 'k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2E',
    createdAt: CREATED,
    updatedAt: CREATED,
    ...overrides,
  };
}

export function recurrenceEvent(overrides: Partial<Schemas['RecurrenceEventView']> = {}): Schemas['RecurrenceEventView'] {
  return {
    id: next('evt'),
    type: 'recurrence.authorized',
    source: 'webhook',
    recurring_charge_id: null,
    from_status: 'pending_authorization',
    to_status: 'active',
    forward: 'queued',
    note: null,
    provider_event_id: 'sandbox:rec:1',
    request_id: '00000000-0000-4000-8000-000000000001',
    created_at: CREATED,
    ...overrides,
  };
}

/** A batch of three due-date charges as the batches list shows it: two created, one refused by the PSP. */
export function paymentBatch(overrides: Partial<Schemas['AdminPaymentBatchView']> = {}): Schemas['AdminPaymentBatchView'] {
  return {
    id: next('bat'),
    description: 'Mensalidades de maio',
    status: 'completed',
    counts: { created: 2, failed: 1, pending: 0 },
    createdAt: CREATED,
    completedAt: CREATED,
    merchant_id: 'mer_000000000000000000000001',
    provider: 'sandbox',
    ...overrides,
  };
}

/** One charge of a batch: created with its payment unless told otherwise. */
export function batchItem(overrides: Partial<Schemas['PaymentBatchItemView']> = {}): Schemas['PaymentBatchItemView'] {
  return { index: 0, externalId: 'tuition-2024-05-ana', status: 'created', paymentId: next('pay'), ...overrides };
}

/** paymentBatch with its items (two created, the third refused) and no delivery yet. */
export function paymentBatchDetail(overrides: Partial<Schemas['AdminPaymentBatchDetailView']> = {}): Schemas['AdminPaymentBatchDetailView'] {
  return {
    ...paymentBatch(),
    items: [
      batchItem({ index: 0, externalId: 'tuition-2024-05-ana' }),
      batchItem({ index: 1, externalId: 'tuition-2024-05-bruno' }),
      batchItem({
        index: 2,
        externalId: 'tuition-2024-05-carla',
        status: 'failed',
        paymentId: undefined,
        error: { code: 'PAYMENT_CREATE_FAILED', message: 'The PSP refused the charge: the payer’s document is not accepted.' },
      }),
    ],
    deliveries: [],
    ...overrides,
  };
}

/** A merchant's open payment link of a fixed amount, never expiring, with no limit. */
export function paymentLink(overrides: Partial<Schemas['AdminPaymentLinkDetailView']> = {}): Schemas['AdminPaymentLinkDetailView'] {
  return {
    id: next('plink'),
    url: 'http://localhost:3000/l/7QmZ2xT9bLk4Wn8Rc1Vd5Hs3aB',
    title: 'Camiseta azul',
    description: null,
    amount: 59.9,
    amountRange: null,
    expiresAt: null,
    maxPayments: null,
    collect: { email: false },
    returnUrl: null,
    active: true,
    state: 'open',
    paymentsCount: 0,
    paidCount: 0,
    createdAt: CREATED,
    updatedAt: CREATED,
    merchant_id: 'mer_000000000000000000000001',
    payments: [],
    ...overrides,
  };
}
