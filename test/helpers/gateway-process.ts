import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, rmdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort, testEnv } from './test-app';

const ROOT = resolve(__dirname, '../..');
const MAIN = join(ROOT, 'dist/src/main.js');
const LOCK = join(ROOT, 'dist/.build-lock');

/**
 * Builds the gateway once for the whole test run (several Jest workers may ask at once: the
 * first takes a directory lock and builds, the others wait for it).
 */
export async function ensureBuilt(): Promise<void> {
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      if (Date.now() - statSync(LOCK).mtimeMs > 120_000) rmdirSync(LOCK); // a crashed builder
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    if (!builtThisRun()) {
      execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'pipe' });
      process.env.GATEWAY_BUILT_AT = String(Date.now());
    }
  } finally {
    rmdirSync(LOCK);
  }
}

function builtThisRun(): boolean {
  // tsc -p is incremental; running it again is cheap when nothing changed, but skip it entirely
  // within one worker once done.
  return process.env.GATEWAY_BUILT_AT !== undefined && existsSync(MAIN);
}

export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  port: number;
  output(): string;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): void;
}

/** Starts `node dist/src/main.js` with the test environment plus `env`, and waits until /health answers. */
export async function startGatewayProcess(env: Record<string, string | undefined>, options: { waitHealthy?: boolean } = {}): Promise<GatewayProcess> {
  await ensureBuilt();
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const fullEnv = { ...process.env, ...testEnv({ PORT: String(port), HOST: '127.0.0.1', ...env }) } as Record<string, string>;
  for (const [k, v] of Object.entries(fullEnv)) if (v === undefined) delete fullEnv[k];
  const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | string>((resolveExit) => child.on('exit', (code, signal) => resolveExit(code ?? signal ?? 'unknown')));
  const gateway: GatewayProcess = { child, url: `http://127.0.0.1:${port}`, port, output: () => output, exited, kill: (signal = 'SIGTERM') => child.kill(signal) };
  if (options.waitHealthy ?? true) {
    const deadline = Date.now() + 30_000;
    let done = false;
    exited.then(() => (done = true));
    while (!done && Date.now() < deadline) {
      try {
        if ((await fetch(`${gateway.url}/health`)).ok) return gateway;
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    child.kill('SIGKILL');
    throw new Error(`Gateway did not become healthy:\n${output}`);
  }
  return gateway;
}
