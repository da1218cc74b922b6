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
import { Agent, request } from 'node:http';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { Pool } from 'pg';
import { FloorCallbacks, SANDBOX_SIGNATURE_HEADER } from './floor-callback';
import { floorCreate, type FloorCreateBody, type FloorIo, floorRead, type Merchant, merchantByKey } from './floor-create';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_SIZE ?? 20) });
const upstream = new URL(process.env.UPSTREAM_URL!);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });

async function merchantOf(req: FastifyRequest, reply: FastifyReply): Promise<Merchant | undefined> {
  const key = req.headers['x-merchant-key'];
  if (typeof key !== 'string') {
    void reply.code(401).send({ success: false, error: { code: 'MISSING_MERCHANT_KEY' } });
    return undefined;
  }
  const merchant = await merchantByKey(io, key);
  if (!merchant) void reply.code(401).send({ success: false, error: { code: 'INVALID_MERCHANT_KEY' } });
  return merchant;
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

const io: FloorIo = {
  query: (text, values) => pool.query(text, values),
  post: async (path, headers, text) => {
    const answer = await postOnce(new URL(path, upstream), headers, text);
    return { status: answer.status, text: answer.body.toString('utf8') };
  },
};

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
  const answer = await floorCreate(io, merchant, req.headers['idempotency-key'] as string, req.body as FloorCreateBody);
  return reply.code(answer.status).header('content-type', 'application/json; charset=utf-8').send(answer.text);
});

app.get('/v1/payments/:id', async (req, reply) => {
  const merchant = await merchantOf(req, reply);
  if (!merchant) return reply;
  const answer = await floorRead(io, merchant, (req.params as { id: string }).id);
  return reply.code(answer.status).header('content-type', 'application/json; charset=utf-8').send(answer.text);
});

const callbacks = new FloorCallbacks(
  {
    query: io.query,
    transaction: async (work) => {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work((text, values) => client.query(text, values));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    postTo: async (url, headers, text) => (await postOnce(new URL(url), headers, text)).status,
  },
  process.env.CALLBACK_SECRET ?? '',
  Number(process.env.DELIVERY_CONCURRENCY ?? 32),
);

app.post('/webhooks/sandbox', async (req, reply) => {
  const answer = await callbacks.receive(req.headers[SANDBOX_SIGNATURE_HEADER], (req as FastifyRequest & { rawBody?: Buffer }).rawBody, req.body as never);
  return reply.code(answer.status).send(answer.body);
});

app.get('/health', async () => ({ status: 'ok' }));

app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' }).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

// A clean exit on SIGTERM, so that Node's --cpu-prof (BENCH_FLOOR_NODE_FLAGS) writes its profile.
process.once('SIGTERM', () => {
  void app.close().finally(() => process.exit(0));
});
