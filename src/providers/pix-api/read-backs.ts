import { UpstreamError } from '../provider-adapter';
import type { KeyedLimiter } from '../support/limits';

/** Entries read back together before any is confirmed: a forged batch costs this many reads. */
const FIRST_WINDOW = 2;

export interface ReadBackOptions {
  /** The per-account cap shared by every callback of the account in this process. */
  limiter: KeyedLimiter;
  limiterKey: string;
  /** For the whole callback: past it, every read still going is aborted. */
  budgetMs: number;
  label: string;
}

/**
 * Reads back a callback's entries with `confirm` (null: the PSP does not confirm it), in order: two
 * at first, one more at a time for each entry confirmed, under the account's cap. No new read starts
 * after the first entry the PSP does not confirm (those in flight finish: they may be genuine); the
 * first failure aborts every sibling and is thrown once all have stopped, so nothing this callback
 * started outlives its answer. Results by entry; undefined for an entry never read.
 */
export async function readBack<E, R>(
  entries: readonly E[],
  confirm: (entry: E, signal: AbortSignal) => Promise<R | null>,
  options: ReadBackOptions,
): Promise<(R | null | undefined)[]> {
  const controller = new AbortController();
  const budget = setTimeout(
    () => controller.abort(new UpstreamError({ kind: 'timeout', message: `${options.label}: reading the callback back took over ${options.budgetMs} ms` })),
    options.budgetMs,
  );
  const results: (R | null | undefined)[] = new Array<R | null | undefined>(entries.length).fill(undefined);
  let next = 0;
  let inFlight = 0;
  let allowed = FIRST_WINDOW;
  let stopped = false;
  let failure: { error: unknown } | undefined;
  try {
    await new Promise<void>((resolve) => {
      const launch = (): void => {
        while (!stopped && next < entries.length && inFlight < allowed) {
          const i = next++;
          inFlight++;
          options.limiter
            .run(options.limiterKey, controller.signal, () => confirm(entries[i]!, controller.signal))
            .then(
              (result) => {
                results[i] = result;
                if (result === null) stopped = true;
                else allowed++;
              },
              (error: unknown) => {
                stopped = true;
                failure ??= { error };
                controller.abort(error);
              },
            )
            .finally(() => {
              inFlight--;
              launch();
            });
        }
        if (inFlight === 0) resolve();
      };
      launch();
    });
  } finally {
    clearTimeout(budget);
  }
  if (failure) throw failure.error;
  return results;
}
