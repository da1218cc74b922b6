import { Worker } from 'node:worker_threads';

/*
 * Runs in a thread of its own. The line goes out asynchronously and the kill follows it, or follows
 * 100 ms later if stderr cannot take it: nothing here waits on the main thread, or on a write.
 */
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const { write } = require('node:fs');
setTimeout(() => {
  const kill = () => process.kill(workerData.pid, 'SIGKILL');
  setTimeout(kill, 100);
  write(2, workerData.line + '\\n', kill);
}, Math.max(0, workerData.deadlineAt - Date.now()));
`;

/**
 * The shutdown deadline's last resort: a thread that kills the process (SIGKILL) at `deadlineAt`
 * if it is still there, after writing `line` to stderr. main.ts's own timer exits before then; this
 * one is for a main thread stuck in something synchronous (a write nobody takes, a statement the
 * embedded database runs on that thread), where no timer of the main thread can fire. It never
 * keeps the process alive, and dies with it.
 */
export function armWatchdog(deadlineAt: number, line: string): void {
  const watchdog = new Worker(WATCHDOG_SOURCE, { eval: true, workerData: { deadlineAt, line, pid: process.pid }, stdout: true, stderr: true });
  watchdog.unref();
  // A thread that could not start leaves the main thread's own deadline, which is the usual one anyway.
  watchdog.on('error', () => undefined);
}
