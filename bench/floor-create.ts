/**
 * The floor's create and read (bench/floor.ts), written once for both floors: the bare one (Fastify,
 * `pg`, `node:http`) and the stack floor (bench/stack-floor.ts: the same statements and call through
 * Nest, class-validator, TypeORM and axios). Each passes how it queries and how it posts.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { renderQrPngDataUrl } from '../src/payments/qr-png';

export interface Merchant {
  id: string;
  provider: string | null;
}

/** How a floor reaches the database and the upstream. */
export interface FloorIo {
  query: (text: string, values: unknown[]) => Promise<{ rows: unknown[]; rowCount: number | null }>;
  /** One JSON POST to the upstream's `path`: the status and the body's text. */
  post: (path: string, headers: Record<string, string>, text: string) => Promise<{ status: number; text: string }>;
}

/** The body the benchmark posts to `/v1/payments/create`. */
export interface FloorCreateBody {
  amount: number;
  description?: string | null;
  externalId: string;
  recipientDocument: string;
  recipientName: string;
  recipientEmail?: string | null;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export const base62 = (length: number) => Array.from(randomBytes(length), (b) => BASE62[b % 62]).join('');

/** The merchant an API key names, as the gateway's tables hold it (one statement a request: the floor caches nothing). */
export async function merchantByKey(io: FloorIo, key: string): Promise<Merchant | undefined> {
  const { rows } = await io.query(
    `SELECT m.id, m.provider FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND m.active`,
    [createHash('sha256').update(key).digest()],
  );
  return rows[0] as Merchant | undefined;
}

async function postJson(io: FloorIo, path: string, body: { txid: string } & Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await io.post(path, { authorization: `Bearer ${process.env.UPSTREAM_TOKEN}`, 'idempotency-key': body.txid }, JSON.stringify(body));
  if (answer.status >= 300) throw new Error(`upstream answered ${answer.status}`);
  return JSON.parse(answer.text) as Record<string, unknown>;
}

export const view = (row: Record<string, unknown>) => ({
  id: row.id,
  status: row.status,
  amount: Number(row.amount_cents) / 100,
  currency: row.currency,
  description: row.description,
  externalId: row.external_id,
  recipient: { document: row.recipient_document, name: row.recipient_name, email: row.recipient_email ?? null },
  pix: { txid: row.txid, copyPaste: row.pix_copy_paste, qrCodePng: row.pix_qr_png, expiresAt: (row.expires_at as Date).toISOString(), endToEndId: row.end_to_end_id ?? null },
  provider: row.provider,
  environment: row.environment,
  providerPaymentId: row.provider_payment_id,
  createdAt: (row.created_at as Date).toISOString(),
  updatedAt: (row.updated_at as Date).toISOString(),
  paidAt: row.paid_at ? (row.paid_at as Date).toISOString() : null,
  refundedAmount: Number(row.refunded_amount_cents ?? 0) / 100,
  paidAmount: row.paid_amount_cents === null || row.paid_amount_cents === undefined ? null : Number(row.paid_amount_cents) / 100,
  payer: null,
});

/** The create: key claimed, the upstream's charge, the QR, the payment with its stored answer; the status and body to answer. */
export async function floorCreate(io: FloorIo, merchant: Merchant, key: string, body: FloorCreateBody): Promise<{ status: number; text: string }> {
  const amountCents = Math.round(body.amount * 100);
  const paymentId = `pay_${base62(24)}`;
  const txid = base62(32);
  const requestHash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  const claimed = await io.query(
    `INSERT INTO idempotency_records (merchant_id, key, request_hash, request_path, state, locked_until, payment_id, txid, expires_at)
     VALUES ($1, $2, $3, '/v1/payments/create', 'in_progress', now() + interval '60 seconds', $4, $5, now() + interval '24 hours')
     ON CONFLICT (merchant_id, key) DO NOTHING RETURNING attempt`,
    [merchant.id, key, requestHash, paymentId, txid],
  );
  if (claimed.rowCount === 0) return { status: 409, text: JSON.stringify({ success: false, error: { code: 'IDEMPOTENCY_IN_PROGRESS' } }) };
  const charge = await postJson(io, '/charges', {
    txid,
    amount: (amountCents / 100).toFixed(2),
    currency: 'BRL',
    description: body.description ?? null,
    externalId: body.externalId,
    recipient: { document: body.recipientDocument, name: body.recipientName },
    expiresIn: 3600,
    notificationUrl: 'http://127.0.0.1:9/webhooks/sandbox',
  });
  const copyPaste = charge.pixCopiaECola as string;
  // The same competent drawing as the gateway's: one fixed mask, one byte-mode segment, 1 bit a pixel, deflated.
  const qrCodePng = renderQrPngDataUrl(copyPaste);
  const now = new Date();
  const row = {
    id: paymentId,
    status: 'pending',
    amount_cents: amountCents,
    currency: 'BRL',
    description: body.description ?? null,
    external_id: body.externalId,
    recipient_document: body.recipientDocument,
    recipient_name: body.recipientName,
    recipient_email: body.recipientEmail ?? null,
    txid,
    pix_copy_paste: copyPaste,
    pix_qr_png: qrCodePng,
    expires_at: new Date(charge.expiresAt as string),
    provider: 'sandbox',
    environment: 'sandbox',
    provider_payment_id: charge.id,
    created_at: now,
    updated_at: now,
    paid_at: null,
  };
  const text = JSON.stringify({ success: true, data: view(row), request_id: randomUUID(), provider: 'sandbox' });
  await io.query(
    `WITH done AS (
       UPDATE idempotency_records SET state = 'completed', locked_until = NULL, response_status = 201, response_body = $1
        WHERE merchant_id = $2 AND key = $3 AND state = 'in_progress' RETURNING 1)
     INSERT INTO payments (id, merchant_id, status, amount_cents, currency, description, external_id, recipient_document, recipient_name,
                           recipient_email, method, provider, environment, provider_payment_id, txid, pix_copy_paste, pix_qr_png,
                           expires_at, created_at, updated_at, refunded_amount_cents, checkout_token)
     SELECT $4, $2, $5, $6, 'BRL', $7, $8, $9, $10, $11, 'pix', 'sandbox', 'sandbox', $12, $13, $14, $15, $16, $17, $17, 0, $18
      WHERE EXISTS (SELECT 1 FROM done)`,
    [
      text,
      merchant.id,
      key,
      paymentId,
      row.status,
      amountCents,
      row.description,
      row.external_id,
      row.recipient_document,
      row.recipient_name,
      row.recipient_email,
      row.provider_payment_id,
      txid,
      copyPaste,
      qrCodePng,
      row.expires_at,
      now,
      // Its checkout page's token, as the gateway draws one for every payment.
      randomBytes(18).toString('base64url'),
    ],
  );
  return { status: 201, text };
}

/** The read: the merchant's payment in the envelope, or 404. */
export async function floorRead(io: FloorIo, merchant: Merchant, id: string): Promise<{ status: number; text: string }> {
  const { rows } = await io.query(`SELECT * FROM payments WHERE id = $1 AND merchant_id = $2`, [id, merchant.id]);
  const row = rows[0] as Record<string, unknown> | undefined;
  if (!row) return { status: 404, text: JSON.stringify({ success: false, error: { code: 'NOT_FOUND' } }) };
  return { status: 200, text: JSON.stringify({ success: true, data: view(row), request_id: randomUUID(), provider: row.provider }) };
}
