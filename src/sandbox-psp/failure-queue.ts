import type { SandboxFailureMode, SandboxFailureOperation } from '../common/sandbox-wire/sandbox-api';

export type SandboxOperation = Exclude<SandboxFailureOperation, 'any'>;

export interface QueuedFailure {
  mode: SandboxFailureMode;
  operation: SandboxFailureOperation;
  remaining: number;
  /** Calls this entry has failed so far (malformed alternates its two variants by it). */
  used: number;
}

/** Failures queued by `POST /_control/failures`, consumed in order by the calls they match. */
export class FailureQueue {
  private entries: QueuedFailure[] = [];

  push(mode: SandboxFailureMode, count: number, operation: SandboxFailureOperation): void {
    this.entries.push({ mode, operation, remaining: count, used: 0 });
  }

  clear(): void {
    this.entries = [];
  }

  /** The failure this call must suffer, if one is queued for its operation; `index` counts from 0 within the entry. */
  take(operation: SandboxOperation): { mode: SandboxFailureMode; index: number } | undefined {
    if (this.entries.length === 0) return undefined;
    const at = this.entries.findIndex((entry) => entry.operation === 'any' || entry.operation === operation);
    if (at < 0) return undefined;
    const entry = this.entries[at]!;
    const index = entry.used++;
    if (--entry.remaining === 0) this.entries.splice(at, 1);
    return { mode: entry.mode, index };
  }
}
