import { closeSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Only one process may open the embedded data directory (two processes on one directory lost committed
 * rows when tried; see docs/architecture.md, The embedded database). The lock file holds the owner's pid; a lock left by a
 * process that no longer runs (kill -9, crash) is taken over.
 */
export class EmbeddedLock {
  private constructor(private readonly file: string) {}

  static acquire(dataDir: string): EmbeddedLock {
    mkdirSync(dataDir, { recursive: true });
    const file = join(dataDir, 'gateway.lock');
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(file, 'wx', 0o600);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        return new EmbeddedLock(file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const owner = Number(readFileSync(file, 'utf8').trim());
        if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner)) {
          throw new Error(
            `Another gateway process (pid ${owner}) is using the embedded database in ${dataDir}. ` +
              'Stop it, use another DATA_DIR, or set DATABASE_URL to share one PostgreSQL between processes.',
            { cause: error },
          );
        }
        unlinkSync(file); // stale: its owner is gone
      }
    }
    throw new Error(`Could not take the lock file ${file}.`);
  }

  release(): void {
    try {
      if (Number(readFileSync(this.file, 'utf8').trim()) === process.pid) unlinkSync(this.file);
    } catch {
      /* already gone */
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
