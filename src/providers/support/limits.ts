import { UpstreamError } from '../provider-adapter';
import type { OutboundAnswer } from '../transport/transport';

/** The longest a PSP's Retry-After is obeyed: a bogus one must not silence an account for hours. */
const MAX_RETRY_AFTER_MS = 10 * 60_000;

/**
 * How long a 429 asks to wait (RFC 9110 section 10.2.3: delay-seconds or an HTTP-date), `fallbackMs`
 * when it does not say, at most ten minutes.
 */
export function retryAfterMs(answer: OutboundAnswer, now: Date, fallbackMs: number): number {
  const raw = answer.headers['retry-after'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  let ms = fallbackMs;
  if (value && /^\d+$/.test(value)) ms = Number(value) * 1000;
  else if (value && !Number.isNaN(Date.parse(value))) ms = Date.parse(value) - now.getTime();
  return Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
}

/**
 * Where a PSP answered 429: no call goes there again until its Retry-After has passed; calls meanwhile
 * fail at once, as the 429 would have. Keyed by account and lane.
 */
export class RateLimitGate {
  private readonly until = new Map<string, { at: number; label: string }>();

  constructor(private readonly now: () => Date) {}

  /** Throws the PSP's 429 again while `key` is told to wait. */
  check(key: string, label: string): void {
    const blocked = this.until.get(key);
    if (!blocked) return;
    const left = blocked.at - this.now().getTime();
    if (left <= 0) {
      this.until.delete(key);
      return;
    }
    throw new UpstreamError({ kind: 'http', upstreamStatus: 429, message: `${label}: HTTP 429 (the PSP asked to wait ${Math.ceil(left / 1000)} s more; not called)` });
  }

  /** Records a 429 `answer` of `key`. */
  record(key: string, label: string, answer: OutboundAnswer, fallbackMs: number): void {
    const now = this.now();
    const at = now.getTime() + retryAfterMs(answer, now, fallbackMs);
    if (at > (this.until.get(key)?.at ?? 0)) this.until.set(key, { at, label });
  }
}

/**
 * At most `limit` tasks at once per key (an account), shared by every caller of this process; a
 * waiter whose signal aborts leaves the queue. Keys with nothing running or waiting are dropped.
 */
export class KeyedLimiter {
  private readonly slots = new Map<string, { running: number; waiting: (() => void)[] }>();

  constructor(private readonly limit: number) {}

  async run<T>(key: string, signal: AbortSignal, task: () => Promise<T>): Promise<T> {
    if (signal.aborted) throw signal.reason as Error;
    const slot = this.slots.get(key) ?? { running: 0, waiting: [] };
    this.slots.set(key, slot);
    if (slot.running < this.limit) slot.running++;
    else {
      // A finishing task hands its place straight to the first waiter: nobody overtakes the queue.
      await new Promise<void>((resolve, reject) => {
        const go = () => {
          signal.removeEventListener('abort', leave);
          resolve();
        };
        const leave = () => {
          slot.waiting = slot.waiting.filter((w) => w !== go);
          this.drop(key, slot);
          reject(signal.reason as Error);
        };
        slot.waiting.push(go);
        signal.addEventListener('abort', leave, { once: true });
      });
    }
    try {
      return await task();
    } finally {
      const next = slot.waiting.shift();
      if (next) next();
      else {
        slot.running--;
        this.drop(key, slot);
      }
    }
  }

  /** Tasks running or waiting for `key` (for tests and metrics). */
  load(key: string): number {
    const slot = this.slots.get(key);
    return slot ? slot.running + slot.waiting.length : 0;
  }

  private drop(key: string, slot: { running: number; waiting: unknown[] }): void {
    if (slot.running === 0 && slot.waiting.length === 0 && this.slots.get(key) === slot) this.slots.delete(key);
  }
}

/** `work`, or the signal's reason as soon as it aborts: a caller stops waiting even for a transport that ignores the signal. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    work.then(
      (value) => (signal.removeEventListener('abort', abort), resolve(value)),
      (error: unknown) => (signal.removeEventListener('abort', abort), reject(error as Error)),
    );
  });
}
