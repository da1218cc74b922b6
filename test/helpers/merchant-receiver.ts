import { createServer, IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer, Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { apiContract } from './api-contract';

/** One request the merchant's endpoint received, and whether its signature checked out. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  /** The raw body, exactly as received. */
  raw: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  /** null when the receiver has no secret; else whether `standardwebhooks` verified the request. */
  verified: boolean | null;
  verifyError?: string;
  /** 1 for the first request this receiver got. */
  seq: number;
  /** The status it was answered with; null while held (or never answered). */
  status: number | null;
  /** The response object, while the request may still be answered. */
  response?: ServerResponse;
}

/** How to answer a request: a status (and headers), or `hold` to never answer (until the receiver closes). */
export type Reply = { status: number; headers?: Record<string, string>; body?: string } | 'hold';
export type Responder = (request: ReceivedWebhook) => Reply;

/**
 * A merchant's webhook endpoint on a real socket, for e2e specs: it verifies signatures with the
 * `standardwebhooks` library exactly as a merchant would (`new Webhook(secret).verify(raw, headers)`)
 * and answers as the spec tells it to. Each body it receives is checked against the document's
 * webhook for its event (apiContract.checkEvent): a spec file fails on a body the document does not describe.
 */
export class MerchantReceiver {
  readonly received: ReceivedWebhook[] = [];
  private readonly held = new Set<ServerResponse>();
  private responder: Responder = () => ({ status: 200 });
  private waiters: { check: () => boolean; resolve: () => void }[] = [];

  private constructor(
    private readonly server: Server | HttpsServer,
    readonly url: string,
    private readonly webhook?: Webhook,
  ) {}

  /**
   * `secret`: the merchant's signing secret; a `whsec_` secret is passed to the library as is, a
   * plain one as its UTF-8 bytes with `format: "raw"` (docs/webhooks.md).
   */
  static async start(options: { secret?: string; path?: string; tls?: { key: string; cert: string } } = {}): Promise<MerchantReceiver> {
    const webhook = options.secret
      ? options.secret.startsWith('whsec_')
        ? new Webhook(options.secret)
        : new Webhook(new Uint8Array(Buffer.from(options.secret, 'utf8')), { format: 'raw' })
      : undefined;
    // The server exists before the receiver that handles its requests (which needs its port).
    const holder: { receiver?: MerchantReceiver } = {};
    const onRequest = (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        // A request cut off by a sender killed mid-send (crash-safety) never reached the merchant's
        // application, whose framework refuses a body shorter than its Content-Length.
        if (!req.complete) return;
        holder.receiver!.handle(req.url ?? '/', req.headers, Buffer.concat(chunks).toString('utf8'), res);
      });
    };
    const server = options.tls ? createHttpsServer(options.tls, onRequest) : createServer(onRequest);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const receiver = new MerchantReceiver(server, `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}${options.path ?? '/pix-hook'}`, webhook);
    holder.receiver = receiver;
    return receiver;
  }

  /** Answers from now on; the function sees each request (with `seq`) before it is answered. */
  respondWith(responder: Responder): void {
    this.responder = responder;
  }

  /** Answers every held request with `status` now (they were held by a `'hold'` reply). */
  releaseHeld(status = 200): void {
    for (const res of this.held) {
      const request = this.received.find((r) => r.response === res);
      if (request) request.status = status;
      res.writeHead(status).end('');
    }
    this.held.clear();
  }

  /** Requests carrying this `webhook-id` (or, unsigned, this event id in the body). */
  forDelivery(id: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.headers['webhook-id'] === id || r.body?.id === id);
  }

  /** Resolves once `check()` holds, re-checked after every request; rejects after `timeoutMs`. */
  async waitUntil(check: () => boolean, timeoutMs = 15_000, what = 'the expected webhooks'): Promise<void> {
    if (check()) return;
    await new Promise<void>((resolve, reject) => {
      const waiter = { check, resolve: () => (clearTimeout(timer), resolve()) };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(
          new Error(
            `Timed out after ${timeoutMs} ms waiting for ${what}; received ${this.received.length}: ${JSON.stringify(this.received.map((r) => [r.seq, r.body?.id, r.headers['webhook-id']]))}`,
          ),
        );
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  waitForCount(count: number, timeoutMs?: number): Promise<void> {
    return this.waitUntil(() => this.received.length >= count, timeoutMs, `${count} webhooks`);
  }

  async close(): Promise<void> {
    for (const res of this.held) res.destroy();
    this.held.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(path: string, headers: IncomingHttpHeaders, raw: string, res: ServerResponse): void {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const request: ReceivedWebhook = { path, headers, raw, body, verified: null, seq: this.received.length + 1, status: null };
    if (this.webhook) {
      try {
        this.webhook.verify(raw, headers as Record<string, string>);
        request.verified = true;
      } catch (error) {
        request.verified = false;
        request.verifyError = (error as Error).message;
      }
    }
    this.received.push(request);
    // Every body the gateway sends must be one the document's webhooks describe (src/api-webhooks.ts).
    apiContract.checkEvent(body, `merchant receiver POST ${path} (${String((body as { event?: unknown } | undefined)?.event)})`);
    const reply = this.responder(request);
    if (reply === 'hold') {
      request.response = res;
      this.held.add(res);
    } else {
      request.status = reply.status;
      res.writeHead(reply.status, reply.headers).end(reply.body ?? '');
    }
    for (const waiter of [...this.waiters]) {
      if (waiter.check()) {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        waiter.resolve();
      }
    }
  }
}
