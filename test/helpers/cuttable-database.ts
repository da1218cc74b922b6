// A data source whose connections to the spec's database a test can cut and restore, as a network
// partition or a stopped server cuts them: open connections are reset, new ones refused. The
// database behind it is the real one (PostgreSQL over TCP, or the embedded database over its
// in-process stream); only the link fails, so a medium spec can watch code ride out an outage on
// either database.
import { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { DataSource, type DataSourceOptions } from 'typeorm';
import type { DatabaseSetup } from '../../src/database/database-options';
import { PooledClient } from '../../src/database/prepared-statements';

/** What `pg` asks of its connection's stream: a socket's connect and options. */
type PgStream = Duplex & {
  connect(...args: unknown[]): unknown;
  setNoDelay?(noDelay?: boolean): unknown;
  setKeepAlive?(enable?: boolean, delay?: number): unknown;
  ref?(): unknown;
  unref?(): unknown;
};

function errnoError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code, errno: code === 'ECONNREFUSED' ? -111 : -104, syscall: code === 'ECONNREFUSED' ? 'connect' : 'read' });
}

export class CuttableDatabase {
  private down = false;
  private readonly open = new Set<LinkStream>();

  /** Resets every open connection (ECONNRESET) and refuses new ones (ECONNREFUSED) until restore(). */
  cut(): void {
    this.down = true;
    for (const stream of this.open) stream.destroy(errnoError('ECONNRESET', 'read ECONNRESET'));
  }

  restore(): void {
    this.down = false;
  }

  get isDown(): boolean {
    return this.down;
  }

  /** A data source on `setup`'s database (as the medium context builds its own) whose connections pass through this link. */
  dataSource(setup: DatabaseSetup, entities: NonNullable<DataSourceOptions['entities']>): DataSource {
    const options = setup.options as Extract<DataSourceOptions, { type: 'postgres' }>;
    const extra = (options.extra ?? {}) as { stream?: (config: unknown) => PgStream };
    const inner = extra.stream ?? (() => new Socket());
    // The embedded database has one session, which this data source's connection shares with the
    // context's: statements named on one connection would collide with the other's, so these go unnamed.
    const client = setup.kind === 'embedded' ? { Client: PooledClient } : {};
    return new DataSource({ ...options, entities, extra: { ...extra, ...client, stream: (config: unknown) => new LinkStream(inner(config), this) } });
  }

  /** @internal */
  track(stream: LinkStream, isOpen: boolean): void {
    if (isOpen) this.open.add(stream);
    else this.open.delete(stream);
  }
}

/** One connection through the link: the real stream inside, unless the link is cut. */
class LinkStream extends Duplex {
  constructor(
    private readonly inner: PgStream,
    private readonly link: CuttableDatabase,
  ) {
    super();
  }

  connect(...args: unknown[]): this {
    if (this.link.isDown) {
      process.nextTick(() => this.destroy(errnoError('ECONNREFUSED', 'connect ECONNREFUSED (the test cut the database off)')));
      return this;
    }
    this.link.track(this, true);
    this.inner.on('data', (chunk: Buffer) => this.push(chunk));
    this.inner.on('end', () => this.push(null));
    this.inner.on('error', (error: Error) => this.destroy(error));
    this.inner.once('connect', () => this.emit('connect'));
    this.inner.connect(...args);
    return this;
  }

  setNoDelay(noDelay?: boolean): this {
    this.inner.setNoDelay?.(noDelay);
    return this;
  }

  setKeepAlive(enable?: boolean, delay?: number): this {
    this.inner.setKeepAlive?.(enable, delay);
    return this;
  }

  ref(): this {
    this.inner.ref?.();
    return this;
  }

  unref(): this {
    this.inner.unref?.();
    return this;
  }

  override _read(): void {
    // Data is pushed as the inner stream gives it.
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.inner.write(chunk, (error) => done(error ?? null));
  }

  override _final(done: (error?: Error | null) => void): void {
    this.inner.end();
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.link.track(this, false);
    this.inner.destroy();
    done(error);
  }
}
