import { WebhookParseError } from '../../provider-adapter';
import { SANDBOX_REFUND_ORIGINS, SANDBOX_REFUND_STATUSES } from '../../../common/sandbox-wire/sandbox-api';
import { parseSandboxEvent } from './callback';
import { readSandboxRefund } from '../wire';
import { sandboxExternalOrigin, sandboxProviderRefund, sandboxRefundReport, sandboxRefundStatus } from './refund';

const wireRefund = (overrides: Record<string, unknown> = {}) => ({
  id: 'sbxr_1',
  refundId: 'ref_1',
  chargeId: 'sbx_1',
  txid: 'abcdefghijklmnopqrstuvwxyz012345',
  amount: '3.00',
  status: 'DEVOLVIDO',
  origin: 'api',
  reason: null,
  failureReason: null,
  createdAt: '2026-03-01T12:00:00.000Z',
  settledAt: '2026-03-01T12:00:01.500Z',
  ...overrides,
});

const refundEvent = (event: string, refund: Record<string, unknown>) => ({
  event,
  id: 'evt_sbxr_1_devolvido',
  created_at: '2026-03-01T12:00:01.500Z',
  data: { id: 'sbx_1', txid: 'abcdefghijklmnopqrstuvwxyz012345', amount: 3, status: 'CONCLUIDA', refund },
});

describe('sandbox refunds on the wire', () => {
  it('maps every refund status and origin', () => {
    expect(SANDBOX_REFUND_STATUSES.map(sandboxRefundStatus)).toEqual(['pending', 'succeeded', 'failed']);
    expect(SANDBOX_REFUND_ORIGINS.map(sandboxExternalOrigin)).toEqual(['psp', 'psp', 'med']);
  });

  it("reads a refund into the gateway's report and refund, with the gateway's refund id", () => {
    const refund = readSandboxRefund(wireRefund({ origin: 'med', refundId: null }));
    if (typeof refund === 'string') throw new Error(refund);
    expect(sandboxRefundReport(refund)).toEqual({
      providerRefundId: 'sbxr_1',
      status: 'succeeded',
      amountCents: 300,
      externalOrigin: 'med',
      failureReason: null,
      gatewayRefundId: null,
    });
    expect(sandboxProviderRefund(refund, 'ref_ours')).toEqual({ refundId: 'ref_ours', providerRefundId: 'sbxr_1', status: 'succeeded', amountCents: 300, failureReason: null });
  });

  it('gives a failed refund a reason even when the wire has none', () => {
    const refund = readSandboxRefund(wireRefund({ status: 'NAO_REALIZADO', failureReason: null }));
    expect(refund).toMatchObject({ status: 'NAO_REALIZADO', failureReason: expect.any(String) });
  });

  it.each([
    ['not an object', 'refund'],
    [wireRefund({ id: '' }), 'no id'],
    [wireRefund({ refundId: 7 }), 'refundId'],
    [wireRefund({ amount: 3 }), 'amount'],
    [wireRefund({ amount: '3.5' }), 'amount'],
    [wireRefund({ status: 'DONE' }), 'status'],
    [wireRefund({ origin: 'bank' }), 'origin'],
    [wireRefund({ failureReason: 1 }), 'failureReason'],
  ])('says why a refund does not read (%#: %s)', (value, why) => {
    expect(readSandboxRefund(value)).toEqual(expect.stringContaining(why));
  });
});

describe('parseSandboxEvent, refund events', () => {
  it('carries the refund report, its amount, and an id of the refund and its status', () => {
    const event = parseSandboxEvent(refundEvent('refund.succeeded', wireRefund()));
    expect(event).toEqual({
      eventId: 'sandbox:refund:sbxr_1:succeeded',
      type: 'refund.succeeded',
      paymentRef: 'sbx_1',
      amountCents: 300,
      occurredAt: new Date('2026-03-01T12:00:01.500Z'),
      refund: { providerRefundId: 'sbxr_1', status: 'succeeded', amountCents: 300, externalOrigin: 'psp', failureReason: null, gatewayRefundId: 'ref_1' },
    });
  });

  it('reads a failed refund with its reason', () => {
    const event = parseSandboxEvent(refundEvent('refund.failed', wireRefund({ status: 'NAO_REALIZADO', failureReason: 'Conta encerrada' })));
    expect(event).toMatchObject({ type: 'refund.failed', eventId: 'sandbox:refund:sbxr_1:failed', refund: { status: 'failed', failureReason: 'Conta encerrada' } });
  });

  it('refuses a refund event without its refund, or whose refund says another status', () => {
    const { data, ...rest } = refundEvent('refund.succeeded', wireRefund());
    const withoutRefund = { ...rest, data: { ...data, refund: undefined } };
    expect(() => parseSandboxEvent(withoutRefund)).toThrow(WebhookParseError);
    expect(() => parseSandboxEvent(refundEvent('refund.succeeded', wireRefund({ status: 'EM_PROCESSAMENTO' })))).toThrow(/cannot report a refund EM_PROCESSAMENTO/);
    expect(() => parseSandboxEvent(refundEvent('refund.pending', wireRefund()))).toThrow(WebhookParseError);
  });
});
