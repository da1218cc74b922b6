/**
 * The floor's callback path (bench/floor.ts), written once for both floors, as bench/floor-create.ts
 * is: verify the sandbox signature over the raw body; in one transaction lock the payment and write
 * the event, its delivery and the move in one statement; then a sender of the gateway's concurrency
 * signs each forward with `standardwebhooks`, posts it and marks what was delivered in batches.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { SANDBOX_SIGNATURE_HEADER, verifySandboxSignature } from '../src/common/sandbox-wire/sandbox-signature';
import { base62, type FloorIo } from './floor-create';

export type FloorQuery = (text: string, values: unknown[]) => Promise<{ rows: unknown[] }>;

/** How the callback floor reaches the database and the merchant: `query` is the create's (FloorIo). */
export interface FloorCallbackIo extends Pick<FloorIo, 'query'> {
  /** `work` inside BEGIN … COMMIT on one connection (ROLLBACK when it throws). */
  transaction<T>(work: (query: FloorQuery) => Promise<T>): Promise<T>;
  /** One JSON POST to `url`: the status. */
  postTo(url: string, headers: Record<string, string>, text: string): Promise<number>;
}

interface Outgoing {
  id: string;
  url: string;
  type: string;
  body: string;
}

interface LockedPayment {
  id: string;
  merchant_id: string;
  status: string;
  amount_cents: string;
  external_id: string;
  webhook_url: string | null;
}

export class FloorCallbacks {
  /** The merchant's signing key: the floor signs with one fixed secret rather than decrypting the merchant's. */
  private readonly signer = new Webhook(randomBytes(32).toString('base64'));
  private readonly queue: Outgoing[] = [];
  private sending = 0;
  private delivered: string[] = [];
  private marking = false;

  constructor(
    private readonly io: FloorCallbackIo,
    private readonly secret: string,
    private readonly concurrency: number,
  ) {}

  /** A sandbox callback: 401 unless signed; else applied, and its forward queued. */
  async receive(
    signature: string | string[] | undefined,
    raw: Buffer | undefined,
    event: { event: string; id: string; data: { id: string; amount: number } },
  ): Promise<{ status: number; body: unknown }> {
    if (!raw || !verifySandboxSignature(signature, raw, this.secret)) return { status: 401, body: { success: false, error: { code: 'INVALID_SIGNATURE' } } };
    const outgoing = await this.io.transaction(async (query) => {
      const { rows } = await query(
        `SELECT p.id, p.merchant_id, p.status, p.amount_cents, p.external_id, m.webhook_url
           FROM payments p JOIN merchants m ON m.id = p.merchant_id
          WHERE p.provider = 'sandbox' AND (p.id = $1 OR p.provider_payment_id = $1) AND p.provider_account_id IS NULL
          ORDER BY (p.id = $1) DESC LIMIT 1
            FOR UPDATE OF p`,
        [event.data.id],
      );
      const payment = rows[0] as LockedPayment | undefined;
      return payment?.status === 'pending' && event.event === 'payment.confirmed' ? confirm(query, payment, event, raw) : undefined;
    });
    if (outgoing) this.send(outgoing);
    return { status: 200, body: { success: true, data: { received: true, matched: Boolean(outgoing) } } };
  }

  private send(outgoing: Outgoing): void {
    this.queue.push(outgoing);
    this.pump();
  }

  private pump(): void {
    while (this.sending < this.concurrency && this.queue.length) {
      const next = this.queue.shift()!;
      this.sending++;
      void this.post(next)
        .then((ok) => {
          if (ok) this.delivered.push(next.id);
          this.markDelivered();
        })
        .finally(() => {
          this.sending--;
          this.pump();
        });
    }
  }

  private async post(outgoing: Outgoing): Promise<boolean> {
    const now = new Date();
    const headers = {
      'content-type': 'application/json',
      'webhook-id': outgoing.id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': this.signer.sign(outgoing.id, now, outgoing.body),
    };
    return this.io.postTo(outgoing.url, headers, outgoing.body).then(
      (status) => status < 300,
      () => false,
    );
  }

  /** Group commit: what was delivered while the last statement ran is marked by the next. */
  private markDelivered(): void {
    if (this.marking || this.delivered.length === 0) return;
    const ids = this.delivered;
    this.delivered = [];
    this.marking = true;
    this.io
      .query(`UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = now(), updated_at = now() WHERE id = ANY($1)`, [ids])
      .catch((error: unknown) => console.error(error))
      .finally(() => {
        this.marking = false;
        this.markDelivered();
      });
  }
}

export { SANDBOX_SIGNATURE_HEADER };

/** The event, its delivery and the payment's move in one statement; the delivery's body comes back to send. */
async function confirm(
  query: FloorQuery,
  payment: { id: string; merchant_id: string; amount_cents: string; external_id: string; webhook_url: string | null },
  event: { id: string; data: { amount: number } },
  raw: Buffer,
): Promise<Outgoing | undefined> {
  const eventId = `evt_${base62(24)}`;
  const deliveryId = `dlv_${base62(24)}`;
  const body = {
    event: 'payment.confirmed',
    id: eventId,
    data: {
      id: payment.id,
      amount: Number(payment.amount_cents) / 100,
      status: 'paid',
      externalId: payment.external_id,
      provider: 'sandbox',
      paidAfterClose: false,
      refundedAmount: 0,
    },
  };
  const { rows } = await query(
    `WITH event AS (
       INSERT INTO payment_events (id, provider, provider_event_id, type, source, payment_id, merchant_id, outcome, from_status, to_status,
                                   amount_cents, forward, request_id, payload, created_at)
       VALUES ($1, 'sandbox', $2, 'payment.confirmed', 'webhook', $3, $4, 'applied', 'pending', 'paid', $5, 'queued', $6, $7::jsonb, clock_timestamp())
       ON CONFLICT (provider, provider_account_id, provider_event_id) DO NOTHING
       RETURNING created_at
     ), delivery AS (
       -- Due in an hour: the floor sends it itself, and the gateway's worker, polling the same table, must not.
       INSERT INTO webhook_deliveries (id, event_id, merchant_id, payment_id, event_type, request_id, body, status, next_attempt_at, created_at, updated_at)
       SELECT $8, $1, $4, $3, 'payment.confirmed', $6,
              jsonb_set(jsonb_set($9::jsonb, '{created_at}', to_jsonb(e.created_at)), '{data,paidAt}', to_jsonb(e.created_at)),
              'pending', e.created_at + interval '1 hour', e.created_at, e.created_at
         FROM event e WHERE $10::text IS NOT NULL
       RETURNING body::text
     ), moved AS (
       UPDATE payments p SET status = 'paid', paid_at = e.created_at, updated_at = e.created_at FROM event e WHERE p.id = $3
     )
     SELECT body FROM delivery`,
    [
      eventId,
      event.id,
      payment.id,
      payment.merchant_id,
      Math.round(event.data.amount * 100),
      randomUUID(),
      raw.toString('utf8'),
      deliveryId,
      JSON.stringify(body),
      payment.webhook_url,
    ],
  );
  const row = rows[0] as { body: string } | undefined;
  return row && payment.webhook_url ? { id: deliveryId, url: payment.webhook_url, type: 'payment.confirmed', body: row.body } : undefined;
}
