import type { DataSourceOptions } from 'typeorm';

/** DATA_DIR's value for an embedded database that lives in memory only (tests). */
export const IN_MEMORY_DATA_DIR = ':memory:';

/** What the data source needs, and what must be closed after it (TypeORM does not close PGlite). */
export interface DatabaseSetup {
  kind: 'postgres' | 'embedded';
  options: DataSourceOptions;
  close(): Promise<void>;
  /**
   * LISTENs on `channel`: `onPayload` gets each notification's payload, `onLost` is called once if
   * the listening connection is lost. Resolves with the function that stops listening.
   */
  listen(channel: string, onPayload: (payload: string) => void, onLost: () => void): Promise<() => Promise<void>>;
}
