import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ShutdownProgress } from '../common/lifecycle/shutdown-progress';
import { ChangeFeed } from '../database/change-feed';
import type { LiveStatus } from './checkout-page';
import { CheckoutService } from './checkout.service';

/** The tables whose changes a page may follow (the migration CheckoutChanges announces them). */
const FOLLOWED_TABLES = new Set(['payments', 'recurrences']);
/** How often the followed pages are read while the change feed is not listening. */
const UNHEARD_READ_MS = 1_000;
/**
 * How often they are read even while it listens: a due-date charge's amount due changes at
 * midnight, which no row change announces.
 */
const SAFETY_READ_MS = 30_000;
/** How often the watch looks at the clock (and at whether shutdown has begun) while pages are followed. */
const TICK_MS = 250;

/** One open stream's ends: told of each new state, and told to end. */
export interface Follower {
  onStatus(status: LiveStatus): void;
  onEnd(): void;
}

/**
 * Follows the checkout pages this process streams to (`GET /pay/:token/events`): every committed
 * change to a payment or a recurrence reaches the change feed at once, from any process
 * (PostgreSQL's LISTEN/NOTIFY, or the embedded database's own notifications; migration
 * CheckoutChanges), and each change reads the followed tokens' states in two indexed queries,
 * telling only the pages whose state moved. While the feed is not listening the states are read
 * every second, so a page hears of a change within the 2 s its payer is promised either way. A
 * shutdown ends the streams at once: their browsers reconnect to another process, or poll.
 */
@Injectable()
export class CheckoutWatch implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('CheckoutWatch');
  private readonly followers = new Map<string, Set<Follower>>();
  private readonly last = new Map<string, string>();
  private unsubscribe?: () => void;
  private ticker?: NodeJS.Timeout;
  private reading?: Promise<void>;
  private readAgain = false;
  private lastReadAt = 0;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly checkout: CheckoutService,
    private readonly shutdown: ShutdownProgress,
  ) {}

  onModuleInit(): void {
    this.unsubscribe = this.feed.subscribe((table) => {
      if (this.followers.size > 0 && (table === null || FOLLOWED_TABLES.has(table))) this.readSoon();
    });
  }

  onApplicationShutdown(): void {
    this.unsubscribe?.();
    this.endAll();
  }

  /** Streams open in this process. */
  get streams(): number {
    let count = 0;
    for (const set of this.followers.values()) count += set.size;
    return count;
  }

  /** Follows `token`, whose state the stream has just sent (`current`); returns the function that stops. */
  follow(token: string, current: LiveStatus, follower: Follower): () => void {
    let set = this.followers.get(token);
    if (!set) {
      this.followers.set(token, (set = new Set()));
      this.last.set(token, JSON.stringify(current));
    }
    set.add(follower);
    this.ticker ??= setInterval(() => this.tick(), TICK_MS).unref();
    return () => this.unfollow(token, follower);
  }

  private unfollow(token: string, follower: Follower): void {
    const set = this.followers.get(token);
    if (!set?.delete(follower) || set.size > 0) return;
    this.followers.delete(token);
    this.last.delete(token);
    if (this.followers.size === 0) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
  }

  private tick(): void {
    if (this.shutdown.begun) return this.endAll();
    const since = Date.now() - this.lastReadAt;
    if (since >= SAFETY_READ_MS || (!this.feed.live && since >= UNHEARD_READ_MS)) this.readSoon();
  }

  /** Reads the followed states now, or once more after the read under way (a change may have come after it read). */
  private readSoon(): void {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = this.read()
      .catch((error: unknown) => this.logger.warn({ err: error }, 'Could not read the followed checkout pages; trying again'))
      .finally(() => {
        this.reading = undefined;
        if (this.readAgain) {
          this.readAgain = false;
          this.readSoon();
        }
      });
  }

  private async read(): Promise<void> {
    this.lastReadAt = Date.now();
    const tokens = [...this.followers.keys()];
    const states = await this.checkout.statuses(tokens);
    for (const token of tokens) {
      const status = states.get(token);
      const text = status && JSON.stringify(status);
      if (!status || text === this.last.get(token) || !this.followers.has(token)) continue;
      this.last.set(token, text!);
      for (const follower of this.followers.get(token) ?? []) follower.onStatus(status);
    }
  }

  private endAll(): void {
    const all = [...this.followers.values()].flatMap((set) => [...set]);
    for (const follower of all) follower.onEnd();
  }
}
