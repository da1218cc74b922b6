import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  /** The path after the receiver's URL: `/rec`, `/cobr` (a recurring callback), or ''. */
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: Buffer;
  body: unknown;
}

/** A real HTTP endpoint that records what providers post to it (their notification URL in tests). */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private waiters: ((hook: ReceivedWebhook) => void)[] = [];
  private taken = 0;
  private server?: Server;
  url = '';

  /** `basePath`: the path of `url`, which a provider posts to or appends to (`/rec`, `/cobr`). */
  async start(basePath = '/webhooks/test'): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks);
        let body: unknown;
        try {
          body = JSON.parse(rawBody.toString('utf8'));
        } catch {
          body = undefined;
        }
        const hook = { path: (req.url ?? '').slice(basePath.length), headers: req.headers, rawBody, body };
        this.received.push(hook);
        this.waiters.shift()?.(hook);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${basePath}`;
    return this;
  }

  /** The next webhook not yet taken (already received, or the next to arrive). */
  async next(timeoutMs = 5_000): Promise<ReceivedWebhook> {
    const taken = this.taken++;
    if (taken < this.received.length) return this.received[taken]!;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no webhook arrived')), timeoutMs);
      this.waiters.push((hook) => {
        clearTimeout(timer);
        resolve(hook);
      });
    });
  }
  /** Every webhook not yet taken is taken: what a test that checks the next one starts from. */
  skipAll(): void {
    this.taken = Math.max(this.taken, this.received.length);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
