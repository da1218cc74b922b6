import { Secret } from '../../config/app-config';
import type { Account, InboundCallback } from '../provider-adapter';
import { UpstreamError, WebhookAuthError, WebhookParseError } from '../provider-adapter';
import type { CreateRecurrenceRequest } from '../recurring';
import type { OutboundAnswer } from '../transport/transport';
import type { SendSandboxCall } from './flows/api-call';
import { sandboxCanceller, sandboxRecurrenceStatus } from './flows/recurrence';
import { sandboxAttemptStatus, sandboxChargeStatus } from './flows/recurring-charge';
import { SandboxRecurring } from './sandbox.recurring';
import { SANDBOX_ATTEMPT_STATUSES, SANDBOX_CANCELLERS, SANDBOX_RECURRENCE_STATUSES, SANDBOX_RECURRING_CHARGE_STATUSES } from '../../common/sandbox-wire/sandbox-recurring-api';
import { signSandboxPayload } from '../../common/sandbox-wire/sandbox-signature';
import type { SandboxCredentials } from './credentials';

const SECRET = 'whsec_recurring_unit';

interface Seen {
  operation: string;
  method: string;
  path: string;
  data?: unknown;
  headers?: Record<string, string>;
}

/** SandboxRecurring over a `call` answered by `answer` (real HTTP is the contract spec's, test/providers/sandbox-recurring.contract.spec.ts). */
function recurringAnswering(answer: (seen: Seen) => { status: number; body?: unknown }, options: { isProduction?: boolean } = {}) {
  const seen: Seen[] = [];
  const call: SendSandboxCall = ({ operation, method, path, body: data, headers }) => {
    const exchange = { operation, method, path, data, headers };
    seen.push(exchange);
    const { status, body } = answer(exchange);
    return Promise.resolve<OutboundAnswer>({ status, headers: {}, text: body === undefined ? '' : JSON.stringify(body) });
  };
  const recurring = new SandboxRecurring(call, { isProduction: options.isProduction ?? false, webhookSecretFor: (account) => account.credentials.webhookSecret?.reveal() });
  return { recurring, seen };
}

const account = (secret: string | null = SECRET): Account<SandboxCredentials> => ({
  id: 'pa_1',
  provider: 'sandbox',
  environment: 'sandbox',
  baseUrl: null,
  tokenUrl: null,
  pixKey: null,
  credentials: { webhookSecret: secret === null ? null : new Secret(secret) },
});

const wireRecurrence = (overrides: Record<string, unknown> = {}) => ({
  id: 'sbxrec_1',
  recurrenceId: 'rec_1',
  status: 'CRIADA',
  pixCopiaECola: '000201…6304ABCD',
  expiresAt: '2026-03-03T15:00:00.000Z',
  updatedAt: '2026-03-02T15:00:00.000Z',
  cancelledBy: null,
  ...overrides,
});

const wireCharge = (overrides: Record<string, unknown> = {}) => ({
  txid: 'a'.repeat(32),
  recurrenceId: 'sbxrec_1',
  status: 'ATIVA',
  amount: '49.90',
  dueDate: '2026-03-07',
  attempts: [{ date: '2026-03-07', status: 'AGENDADA', endToEndId: null, failureReason: null, updatedAt: '2026-03-02T15:00:00.000Z' }],
  endToEndId: null,
  paidAt: null,
  failureReason: null,
  updatedAt: '2026-03-02T15:00:00.000Z',
  ...overrides,
});

const recurrenceRequest: CreateRecurrenceRequest = {
  recurrenceId: 'rec_1',
  contract: { id: 'contract1', description: null },
  payer: { document: '12345678909', name: 'Ana Souza' },
  frequency: 'monthly',
  amountCents: 4990,
  minimumAmountCents: null,
  startDate: '2026-03-02',
  endDate: null,
  retryPolicy: 'three_in_seven_days',
  journey: 'qr',
  firstPayment: null,
  payerAccount: null,
  expiresInSeconds: 86_400,
  notificationUrl: 'http://gateway.test/webhooks/sandbox/pa_1',
};

function signed(body: unknown, path: string, secret = SECRET): InboundCallback {
  const rawBody = Buffer.from(JSON.stringify(body));
  return { method: 'POST', path, query: {}, headers: { 'x-sandbox-signature': signSandboxPayload(secret, rawBody, Date.now() / 1000) }, rawBody };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('SandboxRecurring', () => {
  describe('status mapping', () => {
    it.each(SANDBOX_RECURRENCE_STATUSES)('maps recurrence %s', (status) => {
      const expected = { CRIADA: 'pending_authorization', APROVADA: 'active', REJEITADA: 'rejected', EXPIRADA: 'expired', CANCELADA: 'cancelled' } as const;
      expect(sandboxRecurrenceStatus(status)).toBe(expected[status]);
    });

    it.each(SANDBOX_CANCELLERS)('maps canceller %s', (canceller) => {
      const expected = { USUARIO_RECEBEDOR: 'merchant', USUARIO_PAGADOR: 'payer', PSP_RECEBEDOR: 'psp', PSP_PAGADOR: 'psp' } as const;
      expect(sandboxCanceller(canceller)).toBe(expected[canceller]);
    });

    it.each(SANDBOX_ATTEMPT_STATUSES)('maps attempt %s', (status) => {
      const expected = { AGENDADA: 'scheduled', PAGA: 'paid', REJEITADA: 'failed', CANCELADA: 'cancelled' } as const;
      expect(sandboxAttemptStatus(status)).toBe(expected[status]);
    });

    it.each(SANDBOX_RECURRING_CHARGE_STATUSES)('maps charge %s, open only while ATIVA', (status) => {
      const expected = { ATIVA: 'scheduled', CONCLUIDA: 'paid', REJEITADA: 'failed', EXPIRADA: 'expired', CANCELADA: 'cancelled' } as const;
      expect(sandboxChargeStatus(status, 'AGENDADA')).toEqual({ status: expected[status], open: status === 'ATIVA' });
    });

    it('an open charge whose last attempt failed is failed and still open (a retry may be asked for)', () => {
      expect(sandboxChargeStatus('ATIVA', 'REJEITADA')).toEqual({ status: 'failed', open: true });
    });

    it('an answer with a status it does not know is malformed', async () => {
      const { recurring } = recurringAnswering(() => ({ status: 200, body: wireRecurrence({ status: 'ENCERRADA' }) }));
      await expect(rejection(recurring.getRecurrence(account(), { providerRecurrenceId: 'sbxrec_1' }))).resolves.toMatchObject({ kind: 'malformed' });
    });
  });

  describe('requests', () => {
    it("creates with the gateway's id as Idempotency-Key, two-place amounts and the account's secret", async () => {
      const { recurring, seen } = recurringAnswering(() => ({ status: 201, body: wireRecurrence() }));
      await expect(recurring.createRecurrence(account(), recurrenceRequest)).resolves.toEqual({
        providerRecurrenceId: 'sbxrec_1',
        status: 'pending_authorization',
        cancelledBy: null,
        copyPaste: '000201…6304ABCD',
        authorizationExpiresAt: new Date('2026-03-03T15:00:00.000Z'),
        updatedAt: new Date('2026-03-02T15:00:00.000Z'),
      });
      expect(seen[0]).toMatchObject({ method: 'POST', path: '/recurrences', headers: { 'idempotency-key': 'rec_1' } });
      expect(seen[0]!.data).toMatchObject({ amount: '49.90', minimumAmount: null, firstPaymentTxid: null, expiresIn: 86_400, webhookSecret: SECRET });
    });

    it('names the first payment’s due-date charge for qr_with_due_payment, as it names the immediate one for qr_with_first_payment', async () => {
      const { recurring, seen } = recurringAnswering(() => ({ status: 201, body: wireRecurrence() }));
      const firstPayment = { txid: 'd'.repeat(32) };
      await recurring.createRecurrence(account(), { ...recurrenceRequest, journey: 'qr_with_due_payment', firstPayment });
      await recurring.createRecurrence(account(), { ...recurrenceRequest, journey: 'qr_with_first_payment', firstPayment });
      expect(seen.map((exchange) => exchange.data)).toEqual([
        expect.objectContaining({ journey: 'qr_with_due_payment', firstPaymentTxid: firstPayment.txid }),
        expect.objectContaining({ journey: 'qr_with_first_payment', firstPaymentTxid: firstPayment.txid }),
      ]);
    });

    it('creates a charge by PUT on its txid, and retries by date', async () => {
      const { recurring, seen } = recurringAnswering(() => ({ status: 201, body: wireCharge() }));
      const receiverAccount = { agencia: '0001', conta: '1', tipoConta: 'CORRENTE' } as const;
      const request = {
        chargeId: 'rch_1',
        txid: 'a'.repeat(32),
        providerRecurrenceId: 'sbxrec_1',
        dueDate: '2026-03-07',
        amountCents: 4990,
        description: null,
        receiverAccount,
        notificationUrl: 'http://x.test',
      };
      await recurring.createCharge(account(null), request);
      await recurring.retryCharge(account(), { txid: request.txid }, '2026-03-08');
      expect(seen.map(({ method, path }) => `${method} ${path}`)).toEqual([`PUT /recurring-charges/${request.txid}`, `POST /recurring-charges/${request.txid}/retries/2026-03-08`]);
      // No secret of its own: none sent.
      expect(seen[0]!.data).not.toHaveProperty('webhookSecret');
    });

    it("turns a refused due date into an http UpstreamError with the sandbox's status and code", async () => {
      const { recurring } = recurringAnswering(() => ({ status: 400, body: { error: { code: 'DUE_DATE_REFUSED', message: 'dueDate is too soon', field: 'dueDate' } } }));
      const error = await rejection(recurring.getCharge(account(), { txid: 'a'.repeat(32) }));
      expect(error).toBeInstanceOf(UpstreamError);
      expect(error).toMatchObject({ kind: 'http', upstreamStatus: 400, providerCode: 'DUE_DATE_REFUSED', providerMessage: 'dueDate is too soon' });
    });

    it("reports an open charge's failed attempt's reason as its own", async () => {
      const attempts = [{ date: '2026-03-07', status: 'REJEITADA', endToEndId: null, failureReason: 'No funds', updatedAt: '2026-03-07T12:00:00.000Z' }];
      const { recurring } = recurringAnswering(() => ({ status: 200, body: wireCharge({ attempts }) }));
      await expect(recurring.getCharge(account(), { txid: 'a'.repeat(32) })).resolves.toMatchObject({ status: 'failed', open: true, failureReason: 'No funds' });
    });
  });

  describe('receiveCallback', () => {
    const readBack = (missing: Set<string> = new Set()) =>
      recurringAnswering(({ path }) => {
        const id = path.split('/')[2]!;
        if (missing.has(id)) return { status: 404, body: { error: { code: 'NOT_FOUND', message: 'no' } } };
        if (path.startsWith('/recurrences/')) return { status: 200, body: wireRecurrence({ id, status: 'APROVADA' }) };
        return { status: 200, body: wireCharge({ txid: id }) };
      });

    it('reads each entry back and reports what the sandbox answers, with one id per state', async () => {
      const { recurring, seen } = readBack();
      const reports = await recurring.receiveCallback(account(), signed({ id: 'evt', recurrences: [{ id: 'sbxrec_1', status: 'REJEITADA' }] }, '/rec'));
      // The body said REJEITADA; the sandbox says APROVADA, and that is the report.
      expect(reports).toEqual([{ kind: 'recurrence', eventId: 'sandbox:rec:sbxrec_1:active', recurrence: expect.objectContaining({ status: 'active' }) }]);
      expect(seen.map((exchange) => exchange.path)).toEqual(['/recurrences/sbxrec_1']);
      const charges = await recurring.receiveCallback(account(), signed({ id: 'evt', recurringCharges: [{ txid: 'b'.repeat(32) }] }, '/cobr'));
      expect(charges).toEqual([{ kind: 'charge', eventId: `sandbox:cobr:${'b'.repeat(32)}:scheduled:1:scheduled`, charge: expect.objectContaining({ txid: 'b'.repeat(32) }) }]);
    });

    it('stops at the first entry the sandbox does not know; none known is a WebhookAuthError', async () => {
      const { recurring, seen } = readBack(new Set(['sbxrec_2']));
      const body = { id: 'evt', recurrences: [{ id: 'sbxrec_1' }, { id: 'sbxrec_2' }, { id: 'sbxrec_3' }] };
      await expect(recurring.receiveCallback(account(), signed(body, '/rec'))).resolves.toHaveLength(1);
      expect(seen.map((exchange) => exchange.path)).toEqual(['/recurrences/sbxrec_1', '/recurrences/sbxrec_2']);
      await expect(rejection(recurring.receiveCallback(account(), signed({ id: 'evt', recurrences: [{ id: 'sbxrec_2' }] }, '/rec')))).resolves.toBeInstanceOf(WebhookAuthError);
    });

    it('lets a failure of the sandbox itself through (the callback is retried), rather than calling it forged', async () => {
      const { recurring } = recurringAnswering(() => ({ status: 503 }));
      await expect(rejection(recurring.receiveCallback(account(), signed({ id: 'evt', recurrences: [{ id: 'sbxrec_1' }] }, '/rec')))).resolves.toMatchObject({
        upstreamStatus: 503,
      });
    });

    it('refuses a wrong or missing signature before reading anything', async () => {
      const { recurring, seen } = readBack();
      const body = { id: 'evt', recurrences: [{ id: 'sbxrec_1' }] };
      await expect(rejection(recurring.receiveCallback(account(), signed(body, '/rec', 'whsec_someone_else')))).resolves.toBeInstanceOf(WebhookAuthError);
      await expect(rejection(recurring.receiveCallback(account(), { ...signed(body, '/rec'), headers: {} }))).resolves.toBeInstanceOf(WebhookAuthError);
      expect(seen).toEqual([]);
    });

    it('takes unsigned callbacks for an account without a secret outside production only', async () => {
      const body = { id: 'evt', recurrences: [{ id: 'sbxrec_1' }] };
      const unsigned = { ...signed(body, '/rec'), headers: {} };
      await expect(readBack().recurring.receiveCallback(account(null), unsigned)).resolves.toHaveLength(1);
      const production = recurringAnswering(() => ({ status: 200, body: wireRecurrence() }), { isProduction: true });
      await expect(rejection(production.recurring.receiveCallback(account(null), unsigned))).resolves.toBeInstanceOf(WebhookAuthError);
    });

    it.each([
      ['not JSON', 'nope', '/rec'],
      ['both lists', { recurrences: [{ id: 'a' }], recurringCharges: [{ txid: 'b' }] }, '/rec'],
      ['neither list', { id: 'evt' }, '/rec'],
      ['an empty list', { recurrences: [] }, '/rec'],
      ['an entry without its id', { recurrences: [{ status: 'APROVADA' }] }, '/rec'],
      ['recurrences at /cobr', { recurrences: [{ id: 'sbxrec_1' }] }, '/cobr'],
      ['more than 100 entries', { recurrences: Array.from({ length: 101 }, (_, i) => ({ id: `sbxrec_${i}` })) }, '/rec'],
    ])('refuses %s as a WebhookParseError', async (_, body, path) => {
      const { recurring, seen } = readBack();
      const inbound =
        typeof body === 'string'
          ? { ...signed({}, path), rawBody: Buffer.from(body), headers: { 'x-sandbox-signature': signSandboxPayload(SECRET, body, Date.now() / 1000) } }
          : signed(body, path);
      await expect(rejection(recurring.receiveCallback(account(), inbound))).resolves.toBeInstanceOf(WebhookParseError);
      expect(seen).toEqual([]);
    });
  });
});
