/**
 * The floor: what a competent hand-written Fastify + `pg` handler does for the same requests, with
 * none of the gateway's framework, so the benchmark can say how much the gateway costs over it
 * (docs/performance.md, The floor). It uses the gateway's own tables, migrated by the gateway.
 *
 * create:   looks the key up, inserts the idempotency row, makes one HTTP call to the upstream (the
 *           same sandbox PSP the gateway calls, over a keep-alive agent), draws the QR with one fixed
 *           mask as a 1-bit PNG, deflated, and inserts the payment with the stored response in one
 *           statement.
 * read:     looks the key up and reads the payment.
 * callback: verifies the sandbox signature over the raw body; BEGIN, locks the payment by the PSP's
 *           reference, one statement that inserts the event and its delivery and moves the payment,
 *           COMMIT. A sender with the gateway's concurrency signs each forward with
 *           `standardwebhooks`, posts it over keep-alive and marks what was delivered in batches.
 *           It leaves out what a floor may: leases, polling, retries, the URL policy, metrics, logs.
 *
 * Env: PORT, DATABASE_URL, UPSTREAM_URL, UPSTREAM_TOKEN, DATABASE_POOL_SIZE (default 20, as the
 * gateway), CALLBACK_SECRET (the sandbox's signing secret), DELIVERY_CONCURRENCY (default 32, as the gateway).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { Pool, type PoolClient } from 'pg';
import { Webhook } from 'standardwebhooks';
import { SANDBOX_SIGNATURE_HEADER, verifySandboxSignature } from '../src/common/sandbox-wire/sandbox-signature';
import { renderQrPngDataUrl } from '../src/payments/qr-png';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 20) });
const upstream = new URL(process.env.UPSTREAM_URL!);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

interface Merchant {
  id: string;
  provider: string | null;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const base62 = (length: number) => Array.from(randomBytes(length), (b) => BASE62[b % 62]).join('');

async function merchantOf(req: FastifyRequest, reply: FastifyReply): Promise<Merchant | undefined> {
  const key = req.headers['x-merchant-key'];
  if (typeof key !== 'string') {
    void reply.code(401).send({ success: false, error: { code: 'MISSING_MERCHANT_KEY' } });
    return undefined;
  }
  const { rows } = await pool.query<Merchant>(
    `SELECT m.id, m.provider FROM api_keys k JOIN merchants m ON m.id = k.merchant_id
      WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND m.active`,
    [createHash('sha256').update(key).digest()],
  );
  if (!rows[0]) void reply.code(401).send({ success: false, error: { code: 'INVALID_MERCHANT_KEY' } });
  return rows[0];
}

/** One JSON POST over the keep-alive agent: the status and the whole body. */
function postOnce(url: URL, headers: Record<string, string>, text: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers },
        timeout: 10_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 500, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

async function postJson(path: string, body: { txid: string } & Record<string, unknown>): Promise<Record<string, unknown>> {
  const answer = await postOnce(new URL(path, upstream), { authorization: `Bearer ${process.env.UPSTREAM_TOKEN}`, 'idempotency-key': body.txid }, JSON.stringify(body));
  if (answer.status >= 300) throw new Error(`upstream answered ${answer.status}`);
  return JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
}

const view = (row: Record<string, unknown>) => ({
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

const app = Fastify({ logger: false });
// The raw bytes are kept: a callback's signature is over exactly them.
app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (req, body, done) => {
  (req as FastifyRequest & { rawBody?: Buffer }).rawBody = body as Buffer;
  try {
    done(null, JSON.parse((body as Buffer).toString('utf8')));
  } catch (error) {
    done(error as Error, undefined);
  }
});

app.post('/v1/payments/create', async (req, reply) => {
  const merchant = await merchantOf(req, reply);
  if (!merchant) return reply;
  const key = req.headers['idempotency-key'] as string;
  const body = req.body as { amount: number; description?: string; externalId: string; recipientDocument: string; recipientName: string; recipientEmail?: string };
  const amountCents = Math.round(body.amount * 100);
  const paymentId = `pay_${base62(24)}`;
  const txid = base62(32);
  const requestHash = createHash('sha256').update(JSON.stringify(body)).digest('hex');
  const claimed = await pool.query(
    `INSERT INTO idempotency_records (merchant_id, key, request_hash, request_path, state, locked_until, payment_id, txid, expires_at)
     VALUES ($1, $2, $3, '/v1/payments/create', 'in_progress', now() + interval '60 seconds', $4, $5, now() + interval '24 hours')
     ON CONFLICT (merchant_id, key) DO NOTHING RETURNING attempt`,
    [merchant.id, key, requestHash, paymentId, txid],
  );
  if (claimed.rowCount === 0) return reply.code(409).send({ success: false, error: { code: 'IDEMPOTENCY_IN_PROGRESS' } });
  const charge = await postJson('/charges', {
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
  await pool.query(
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
  return reply.code(201).header('content-type', 'application/json; charset=utf-8').send(text);
});

app.get('/v1/payments/:id', async (req, reply) => {
  const merchant = await merchantOf(req, reply);
  if (!merchant) return reply;
  const { rows } = await pool.query<Record<string, unknown>>(`SELECT * FROM payments WHERE id = $1 AND merchant_id = $2`, [(req.params as { id: string }).id, merchant.id]);
  if (!rows[0]) return reply.code(404).send({ success: false, error: { code: 'NOT_FOUND' } });
  return reply
    .header('content-type', 'application/json; charset=utf-8')
    .send(JSON.stringify({ success: true, data: view(rows[0]), request_id: randomUUID(), provider: rows[0].provider }));
});

const callbackSecret = process.env.CALLBACK_SECRET ?? '';
/** The merchant's signing key: the floor signs with one fixed secret rather than decrypting the merchant's. */
const signer = new Webhook(randomBytes(32).toString('base64'));
const DELIVERY_CONCURRENCY = Number(process.env.DELIVERY_CONCURRENCY ?? 32);

interface Outgoing {
  id: string;
  url: string;
  type: string;
  body: string;
}

app.post('/webhooks/sandbox', async (req, reply) => {
  const raw = (req as FastifyRequest & { rawBody?: Buffer }).rawBody;
  if (!raw || !verifySandboxSignature(req.headers[SANDBOX_SIGNATURE_HEADER], raw, callbackSecret)) {
    return reply.code(401).send({ success: false, error: { code: 'INVALID_SIGNATURE' } });
  }
  const event = req.body as { event: string; id: string; data: { id: string; amount: number } };
  const client = await pool.connect();
  let outgoing: Outgoing | undefined;
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ id: string; merchant_id: string; status: string; amount_cents: string; external_id: string; webhook_url: string | null }>(
      `SELECT p.id, p.merchant_id, p.status, p.amount_cents, p.external_id, m.webhook_url
         FROM payments p JOIN merchants m ON m.id = p.merchant_id
        WHERE p.provider = 'sandbox' AND (p.id = $1 OR p.provider_payment_id = $1) AND p.provider_account_id IS NULL
        ORDER BY (p.id = $1) DESC LIMIT 1
          FOR UPDATE OF p`,
      [event.data.id],
    );
    const payment = rows[0];
    if (payment?.status === 'pending' && event.event === 'payment.confirmed') outgoing = await confirm(client, payment, event, raw);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  if (outgoing) send(outgoing);
  return { success: true, data: { received: true, matched: Boolean(outgoing) } };
});

/** The event, its delivery and the payment's move in one statement; the delivery's body comes back to send. */
async function confirm(
  client: PoolClient,
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
  const { rows } = await client.query<{ body: string }>(
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
  return rows[0] && payment.webhook_url ? { id: deliveryId, url: payment.webhook_url, type: 'payment.confirmed', body: rows[0].body } : undefined;
}

const queue: Outgoing[] = [];
let sending = 0;
let delivered: string[] = [];
let marking = false;

function send(outgoing: Outgoing): void {
  queue.push(outgoing);
  pump();
}

function pump(): void {
  while (sending < DELIVERY_CONCURRENCY && queue.length) {
    const next = queue.shift()!;
    sending++;
    void post(next)
      .then((ok) => {
        if (ok) delivered.push(next.id);
        markDelivered();
      })
      .finally(() => {
        sending--;
        pump();
      });
  }
}

async function post(outgoing: Outgoing): Promise<boolean> {
  const now = new Date();
  const headers = {
    'webhook-id': outgoing.id,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': signer.sign(outgoing.id, now, outgoing.body),
  };
  return postOnce(new URL(outgoing.url), headers, outgoing.body).then(
    (answer) => answer.status < 300,
    () => false,
  );
}

/** Group commit: what was delivered while the last statement ran is marked by the next. */
function markDelivered(): void {
  if (marking || delivered.length === 0) return;
  const ids = delivered;
  delivered = [];
  marking = true;
  pool
    .query(`UPDATE webhook_deliveries SET status = 'delivered', attempts = attempts + 1, delivered_at = now(), updated_at = now() WHERE id = ANY($1)`, [ids])
    .catch((error: unknown) => console.error(error))
    .finally(() => {
      marking = false;
      markDelivered();
    });
}

app.get('/health', async () => ({ status: 'ok' }));

app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

// A clean exit on SIGTERM, so that Node's --cpu-prof (BENCH_FLOOR_NODE_FLAGS) writes its profile.
process.once('SIGTERM', () => {
  void app.close().finally(() => process.exit(0));
});
