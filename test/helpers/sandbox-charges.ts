import type { Payment } from '../../src/payments/payment.entity';
import { type Factories, sandboxChargeBody } from './factories';
import { http, HttpResult } from './http';

/** Where the sandbox "delivers" events in reconciliation specs: nowhere, as if the provider's webhook were lost. */
export const LOST = 'http://127.0.0.1:9/webhooks/sandbox';

/**
 * The simulated PSP's API as reconciliation specs drive it, over real HTTP wherever it runs: alone
 * (startSandboxServer, medium tier) or mounted in a booted app under /sandbox (e2e tier).
 */
export class SandboxCharges {
  constructor(
    private readonly baseUrl: string,
    private readonly auth: Record<string, string>,
  ) {}

  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<HttpResult> {
    return http(this.baseUrl, method, path, { body, headers: { ...this.auth, ...headers } });
  }

  /** A sandbox charge whose events go nowhere, and the gateway's pending payment for it (written by the factories). */
  async lostCharge(
    factories: Factories,
    merchantId: string,
    options: { expiresIn?: number; expiresAt?: Date; createdAt?: Date } = {},
  ): Promise<{ payment: Payment; chargeId: string }> {
    const body = sandboxChargeBody({ expiresIn: options.expiresIn ?? 3600, notificationUrl: LOST });
    const txid = body.txid;
    const charge = await this.call('POST', '/charges', body, { 'idempotency-key': txid });
    expect(charge.status).toBe(201);
    const payment = await factories.newPayment(merchantId, {
      providerPaymentId: charge.body.id,
      txid,
      amountCents: 1050,
      expiresAt: options.expiresAt ?? new Date(charge.body.expiresAt),
      ...(options.createdAt ? { createdAt: options.createdAt } : {}),
    });
    return { payment, chargeId: charge.body.id as string };
  }

  /**
   * Settles a refund in process at the sandbox (by its `sbxr_…` id or the gateway's `ref_…`), and the
   * sandbox posts its callback to the charge's notification URL. Without a status, as its reason's
   * marker says (docs/sandbox.md, Refunds). 200 `{eventId, delivered, status, refund, charge}`.
   */
  settleRefund(refund: string, status?: 'DEVOLVIDO' | 'NAO_REALIZADO', failureReason?: string): Promise<HttpResult> {
    return this.call('POST', `/_control/refunds/${encodeURIComponent(refund)}/settle`, { ...(status ? { status } : {}), ...(failureReason ? { failureReason } : {}) });
  }

  /** Money going back without the gateway asking: at the PSP's portal or as a MED return, settled and posted. 201 as settleRefund. */
  refundOutside(chargeId: string, origin: 'portal' | 'med', amount?: string): Promise<HttpResult> {
    return this.call('POST', `/_control/charges/${encodeURIComponent(chargeId)}/refunds`, { origin, ...(amount ? { amount } : {}) });
  }
}
