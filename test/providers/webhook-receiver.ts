import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
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

  async start(): Promise<this> {
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
        const hook = { headers: req.headers, rawBody, body };
        this.received.push(hook);
        this.waiters.shift()?.(hook);
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks/test`;
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
  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
