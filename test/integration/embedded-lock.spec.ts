import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../helpers/eventually';
import { EmbeddedLock } from '../../src/database/embedded-lock';

/** Real processes and a real lock file: the lock is about what the operating system says of a pid. */
describe('EmbeddedLock', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'gw-lock-'));
    dirs.push(dir);
    return dir;
  };
  /** A process that runs until killed, and resolves `exited` once it is gone (reaped). */
  const owner = () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    children.push(child);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return { pid: child.pid!, kill: () => child.kill('SIGKILL'), exited };
  };
  const lockFile = (dir: string) => join(dir, 'gateway.lock');
  afterAll(() => {
    children.forEach((child) => child.kill('SIGKILL'));
    dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  });

  it('waits for an owner that exits while it waits (a restart right after kill -9), then takes the lock', async () => {
    const dir = dataDir();
    const old = owner();
    writeFileSync(lockFile(dir), String(old.pid));
    const waitedFor: number[] = [];
    const acquiring = EmbeddedLock.acquire(dir, { waitForOwnerMs: 30_000, onWait: (pid) => waitedFor.push(pid) });
    const settled = acquiring.then(
      () => 'taken',
      (error: Error) => error.message,
    );
    // It is waiting (not refusing) while the owner runs; then the owner dies.
    await eventually(
      () => waitedFor,
      (pids) => pids.length > 0,
    );
    expect(waitedFor).toEqual([old.pid]);
    old.kill();
    expect(await settled).toBe('taken');
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(process.pid));
    (await acquiring).release();
    expect(existsSync(lockFile(dir))).toBe(false);
  });

  it('refuses, naming the pid, when the owner is still running once the wait is over', async () => {
    const dir = dataDir();
    const live = owner();
    writeFileSync(lockFile(dir), String(live.pid));
    await expect(EmbeddedLock.acquire(dir, { waitForOwnerMs: 300 })).rejects.toThrow(`Another gateway process (pid ${live.pid})`);
    expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(live.pid));
  });

  it('takes over at once a lock whose owner is gone, or that names no pid', async () => {
    const gone = owner();
    gone.kill();
    await gone.exited;
    for (const content of [String(gone.pid), '', 'not a pid']) {
      const dir = dataDir();
      writeFileSync(lockFile(dir), content);
      const waitedFor: number[] = [];
      const lock = await EmbeddedLock.acquire(dir, { waitForOwnerMs: 30_000, onWait: (pid) => waitedFor.push(pid) });
      expect(waitedFor).toEqual([]);
      expect(readFileSync(lockFile(dir), 'utf8')).toBe(String(process.pid));
      lock.release();
    }
  });
});
