import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { ensureBuilt } from '../helpers/gateway-process';

/**
 * The shutdown deadline's last resort (src/common/lifecycle/watchdog.ts), in real processes: a main
 * thread stuck where no timer of its own can fire is still ended at the deadline.
 */
jest.setTimeout(120_000);

const WATCHDOG = join(resolve(__dirname, '../..'), 'dist/src/common/lifecycle/watchdog.js');

/** Runs `script` after arming the watchdog `inMs` from now; resolves with how the process ended, when, and its stderr. */
function run(inMs: number, script: string): Promise<{ how: number | string; ms: number; stderr: string }> {
  const started = Date.now();
  const child = spawn(process.execPath, ['-e', `require(${JSON.stringify(WATCHDOG)}).armWatchdog(Date.now() + ${inMs}, 'deadline passed: killing it'); ${script}`], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const limit = setTimeout(() => child.kill('SIGKILL'), 30_000);
  return new Promise((resolveRun) =>
    child.on('exit', (code, signal) => {
      clearTimeout(limit);
      resolveRun({ how: code ?? signal ?? 'unknown', ms: Date.now() - started, stderr });
    }),
  );
}

describe('shutdown watchdog', () => {
  beforeAll(() => ensureBuilt());

  it('kills a process whose main thread is blocked, at the deadline, after saying so on stderr', async () => {
    // Blocked for ever and idle, as a write nobody takes blocks it; its own SIGTERM handler can never run.
    const result = await run(1_000, "process.on('SIGTERM', () => process.exit(0)); Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);");
    expect(result.how).toBe('SIGKILL');
    expect(result.stderr).toContain('deadline passed: killing it');
    // Not before the deadline, a second after the watchdog was armed; room for a busy machine after it.
    expect(result.ms).toBeGreaterThanOrEqual(1_000);
    expect(result.ms).toBeLessThan(10_000);
  });

  it('never keeps a process alive that ends before the deadline', async () => {
    const result = await run(60_000, 'setTimeout(() => {}, 200);');
    expect(result).toMatchObject({ how: 0, stderr: '' });
    expect(result.ms).toBeLessThan(30_000);
  });
});
