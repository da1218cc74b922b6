import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How long a starting process waits for the lock's owner to finish exiting before refusing. A
 * restart right after `kill -9` finds the old process still alive for a moment (the kernel is
 * freeing its memory, or its parent has not reaped it yet); a few seconds covers that, and a second
 * gateway started by mistake is still refused soon after.
 */
export const OWNER_EXIT_WAIT_MS = 5_000;
const POLL_MS = 100;

export interface AcquireOptions {
  /** How long to wait for a running owner to exit (OWNER_EXIT_WAIT_MS by default). */
  waitForOwnerMs?: number;
  /** Called once when the lock's owner is still running and this process starts waiting for it. */
  onWait?: (ownerPid: number) => void;
}

/**
 * Only one process may open the embedded data directory (two processes on one directory lost committed
 * rows when tried; see docs/architecture.md, The embedded database). The lock file holds the owner's pid; a lock left by a
 * process that no longer runs (kill -9, crash) is taken over, after waiting a little for one that is
 * still exiting.
 */
export class EmbeddedLock {
  private constructor(private readonly file: string) {}

  static async acquire(dataDir: string, options: AcquireOptions = {}): Promise<EmbeddedLock> {
    mkdirSync(dataDir, { recursive: true });
    const file = join(dataDir, 'gateway.lock');
    const deadline = Date.now() + (options.waitForOwnerMs ?? OWNER_EXIT_WAIT_MS);
    let waitingFor: number | undefined;
    for (;;) {
      try {
        const fd = openSync(file, 'wx', 0o600);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        return new EmbeddedLock(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const owner = readOwner(file);
        if (owner !== undefined && owner !== process.pid && isRunning(owner)) {
          if (Date.now() >= deadline) {
            throw new Error(
              `Another gateway process (pid ${owner}) is using the embedded database in ${dataDir}. ` +
                'Stop it, use another DATA_DIR, or set DATABASE_URL to share one PostgreSQL between processes.',
              { cause: error },
            );
          }
          if (waitingFor !== owner) options.onWait?.(owner);
          waitingFor = owner;
          await new Promise((resolve) => setTimeout(resolve, POLL_MS));
          continue;
        }
        removeStale(file); // its owner is gone
      }
    }
  }

  release(): void {
    try {
      if (Number(readFileSync(this.file, 'utf8').trim()) === process.pid) unlinkSync(this.file);
    } catch {
      /* already gone */
    }
  }
}

/** The pid the lock file names; undefined when it names none or is already gone. */
function readOwner(file: string): number | undefined {
  try {
    const owner = Number(readFileSync(file, 'utf8').trim());
    return Number.isInteger(owner) && owner > 0 ? owner : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function removeStale(file: string): void {
  try {
    unlinkSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * Whether `pid` is a live process. A zombie (killed, not yet reaped by its parent) answers signal 0
 * like a live one, but holds no file or memory any more: on Linux its state in /proc says so.
 */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    // /proc/<pid>/stat: "pid (comm) state …"; comm may hold spaces or parentheses, so read after the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state === 'Z' || state === 'X';
  } catch {
    return false; // no /proc (not Linux), or the process just went: signal 0 decides
  }
}
