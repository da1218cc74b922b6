import { Duplex } from 'node:stream';
import type { PGlite } from '@electric-sql/pglite';

/**
 * The embedded database's end of `pg`'s connection, in place of a socket: each write `pg` makes
 * (a query's messages, which it writes together) goes to PGlite whole through `execProtocolRawStream`,
 * and PGlite's answer comes back as bytes that `pg` reads with its own parser, as it reads a
 * server's. PGlite's `pg` adapter hands over one message at a time and parses every answer in
 * JavaScript first, which cost more than the embedded PostgreSQL's own work on a read
 * (docs/performance.md, The embedded database's connection).
 */
export class PGliteStream extends Duplex {
  constructor(private readonly db: PGlite) {
    super();
  }

  /** `pg` connects a socket; this one is there already. */
  connect(): this {
    process.nextTick(() => this.emit('connect'));
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  // Nothing here holds the event loop open: there is no socket.
  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  override _read(): void {
    // Answers are pushed as PGlite gives them.
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.exchange(chunk, done);
  }

  override _writev(chunks: { chunk: Buffer }[], done: (error?: Error | null) => void): void {
    this.exchange(Buffer.concat(chunks.map(({ chunk }) => chunk)), done);
  }

  override _final(done: (error?: Error | null) => void): void {
    this.push(null);
    done();
  }

  private exchange(message: Uint8Array, done: (error?: Error | null) => void): void {
    const answer: Buffer[] = [];
    // Each piece is a view of PGlite's memory, reused for the next: copied as it comes.
    const onRawData = (data: Uint8Array) => void answer.push(Buffer.from(data));
    this.db.execProtocolRawStream(message, { onRawData }).then(
      () => {
        for (const piece of answer) this.push(piece);
        done();
      },
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  }
}
