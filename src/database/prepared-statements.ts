import { createHash } from 'node:crypto';
import { Client, type QueryConfig, type QueryResult } from 'pg';
import type { AppConfig } from '../config/app-config';

/**
 * Most statement texts one process names. Past it a statement runs unnamed, as every statement did
 * before: a text built from a list of varying length must not grow each connection's set of prepared
 * statements without bound.
 */
export const MAX_NAMED_STATEMENTS = 500;

/** The name each statement text is prepared under, the same on every connection of the process. */
export class StatementNames {
  private readonly names = new Map<string, string>();

  constructor(private readonly limit = MAX_NAMED_STATEMENTS) {}

  /** Undefined once `limit` texts are named, for every text not yet named. */
  nameOf(text: string): string | undefined {
    let name = this.names.get(text);
    if (name === undefined && this.names.size < this.limit) {
      name = `pgw_${createHash('sha1').update(text).digest('base64url')}`;
      this.names.set(text, name);
    }
    return name;
  }
}

/**
 * PostgreSQL's answer to a prepared `SELECT *` or `RETURNING *` whose table changed shape since the
 * statement was prepared: a migration run by another process while this one serves.
 */
export function isStalePlan(error: unknown): boolean {
  return (error as { code?: unknown })?.code === '0A000' && String((error as Error).message).includes('cached plan must not change result type');
}

const PROCESS_NAMES = new StatementNames();

/**
 * The pool's connection when statements are not prepared. pg answers a query asked without a
 * callback with a promise of its own, which sets the query's callback after building it and chains
 * a catch to it: under load that kept every answer's rows alive through V8's young-generation
 * collections, to be promoted and freed only by a full one (~3 KB a read). Asked with a callback,
 * wrapped in a plain promise here, the rows die young (docs/performance.md, Memory).
 */
export class PooledClient extends Client {
  // pg's query() has a dozen overloads: the forms TypeORM uses, (text) and (text, values) answered by
  // a promise, go through send(); every other form passes through as it came.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const [config, values, callback] = args as unknown[];
    if (typeof config !== 'string' || (values !== undefined && !Array.isArray(values)) || callback !== undefined) {
      // eslint-disable-next-line @typescript-eslint/unbound-method -- applied to this client, with its arguments as given
      return Reflect.apply(Client.prototype.query, this, args);
    }
    return this.send(config, values as unknown[] | undefined);
  }

  protected send(text: string, values: unknown[] | undefined): Promise<QueryResult> {
    return this.answer({ text, values });
  }

  protected answer(config: QueryConfig): Promise<QueryResult> {
    return new Promise((resolve, reject) => {
      super.query(config, (error: Error | null, result: QueryResult) => (error ? reject(error) : resolve(result)));
    });
  }
}

/**
 * The pool's connection (`extra.Client`): every statement TypeORM sends with parameters is prepared
 * once per connection under a name and then only bound and executed, so PostgreSQL parses and plans
 * it once rather than on every call. On the embedded database that planning was nearly half of a
 * read's query: PGlite answers each relation-size question the planner asks with a file-system call
 * through Node (docs/performance.md, Prepared statements). PostgreSQL keeps choosing a plan per call where
 * one made for the values beats the generic one (`plan_cache_mode = auto`).
 *
 * `DATABASE_PREPARED_STATEMENTS=false` sends every statement unnamed again (PooledClient): for a
 * pooler in front of PostgreSQL that does not carry prepared statements between its connections.
 */
export class PreparingClient extends PooledClient {
  /** Bumped when a plan went stale: the stale statement keeps its name on this connection, so later calls prepare under a new one. */
  private generation = 0;
  private readonly names: StatementNames = PROCESS_NAMES;

  protected override send(text: string, values: unknown[] | undefined): Promise<QueryResult> {
    const base = values && values.length > 0 ? this.names.nameOf(text) : undefined;
    if (base === undefined) return this.answer({ text, values });
    const run = () => this.answer({ name: this.generation ? `${base}_${this.generation}` : base, text, values });
    return run().catch((error: unknown) => {
      if (!isStalePlan(error)) throw error;
      this.generation += 1;
      // Outside a transaction nothing was done, so the call is made again, prepared afresh; inside
      // one, the error has aborted the transaction and its caller decides, as for any failed statement.
      if (this.getTransactionStatus() !== 'I') throw error;
      return run();
    });
  }
}

/** The pool's connection class, on either database: one that prepares its statements, unless DATABASE_PREPARED_STATEMENTS=false. */
export function poolClient(config: Pick<AppConfig, 'databasePreparedStatements'>): typeof PooledClient {
  return config.databasePreparedStatements ? PreparingClient : PooledClient;
}
