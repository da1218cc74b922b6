import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { DATABASE_SETUP, type DatabaseSetup } from './database-options';

/** The channel the ChangeNotifications migration's triggers announce committed changes on. */
export const CHANGE_CHANNEL = 'gateway_changes';
/** How long after losing the listening connection it is opened again. */
const RECONNECT_MS = 1_000;
/** How long shutdown waits for the listening connection to close. */
const STOP_WAIT_MS = 1_000;

/** A table that changed, or null for "anything may have changed" (the feed was lost and is back). */
export type ChangeListener = (table: string | null) => void;

/**
 * Tells this process's lookup caches that a table they copy from has changed (docs/architecture.md,
 * Lookup caches): from the database's notifications, so a change committed by any process, or by
 * an operator's SQL, reaches every process; and at once from this process's own writes
 * (`changed()`), before their notification comes back. While the feed is not listening, it is not
 * `live` and the caches read through to the database, so a lost connection never serves stale rows.
 */
@Injectable()
export class ChangeFeed implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ChangeFeed');
  private readonly listeners = new Set<ChangeListener>();
  private unlisten?: () => Promise<void>;
  private reconnect?: NodeJS.Timeout;
  private stopped = false;
  private listening = false;
  private starting?: Promise<void>;

  constructor(@Inject(DATABASE_SETUP) private readonly setup: Pick<DatabaseSetup, 'listen'>) {}

  async onModuleInit(): Promise<void> {
    await this.start();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.reconnect);
    this.listening = false;
    // Bounded: a listening connection slow to say goodbye must not hold up closing the pool after it.
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, STOP_WAIT_MS)));
    await Promise.race([this.unlisten?.().catch(() => undefined), bound]);
    clearTimeout(timer);
  }

  /** Starts listening (once; a call while one is under way waits for it); caches stay read-through until this succeeds. */
  start(): Promise<void> {
    if (this.listening || this.stopped) return Promise.resolve();
    this.starting ??= this.listen().finally(() => (this.starting = undefined));
    return this.starting;
  }

  private async listen(): Promise<void> {
    try {
      const unlisten = await this.setup.listen(
        CHANGE_CHANNEL,
        (table) => this.emit(table),
        () => this.lost(),
      );
      // Shut down while connecting: the connection must not outlive the process's shutdown.
      if (this.stopped) return void (await unlisten().catch(() => undefined));
      this.unlisten = unlisten;
      this.listening = true;
      // Whatever changed before the feed listened is unknown: nothing cached survives it.
      this.emit(null);
    } catch (error) {
      this.logger.warn({ err: error }, 'Could not listen for changes; lookups go to the database until it can');
      this.scheduleReconnect();
    }
  }

  /** Whether a change committed now will reach this process: only then may lookups be served from memory. */
  get live(): boolean {
    return this.listening;
  }

  subscribe(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** This process changed `table` (after its commit): its own caches learn it now, not when the notification comes back. */
  changed(table: string): void {
    this.emit(table);
  }

  private emit(table: string | null): void {
    for (const listener of this.listeners) listener(table);
  }

  private lost(): void {
    if (!this.listening) return;
    this.listening = false;
    this.emit(null);
    this.logger.warn('Lost the change notifications; lookups go to the database until they are back');
    this.unlisten?.().catch(() => undefined);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    this.reconnect = setTimeout(() => void this.start(), RECONNECT_MS);
    this.reconnect.unref();
  }
}

/**
 * A lookup's results kept in memory while the ChangeFeed is live, dropped whole when one of
 * `tables` changes, and at most `ttlMs` old in any case. A load that was under way when a change
 * arrived is answered but not kept: it may have read the row before the change.
 */
export class LiveCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();
  private generation = 0;

  constructor(
    private readonly feed: ChangeFeed,
    tables: readonly string[],
    private readonly options: { ttlMs: number; maxEntries: number; keep?: (value: V) => boolean },
  ) {
    feed.subscribe((table) => {
      if (table === null || tables.includes(table)) this.clear();
    });
  }

  async get(key: K, load: () => Promise<V>): Promise<V> {
    if (!this.feed.live) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > now) return hit.value;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation && this.feed.live && (this.options.keep?.(value) ?? true)) {
      // A full cache starts again rather than tracking recency: the working set is a few keys or merchants.
      if (this.entries.size >= this.options.maxEntries) this.entries.clear();
      this.entries.set(key, { value, expiresAt: now + this.options.ttlMs });
    }
    return value;
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }
}
