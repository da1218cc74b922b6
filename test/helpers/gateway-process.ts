import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createTestPostgresDatabase, databaseFor, freePort, testEnv } from './test-env';

const ROOT = resolve(__dirname, '../..');
const MAIN = join(ROOT, 'dist/src/main.js');
const LOCK = join(ROOT, 'dist/.build-lock');
/** Which Jest run last built dist/ for its tests. */
const BUILT_FOR = join(ROOT, 'dist/.built-for-test-run');
/** Gateway processes start PGlite from the tests' snapshot of a fresh cluster (pglite-snapshot.js). */
const PGLITE_PRELOAD = join(ROOT, 'test/helpers/pglite-preload.js');
/**
 * V8 runs PostgreSQL's WebAssembly (the embedded database) with its baseline compiler only. By
 * default it also re-optimises the hot functions in the background, about 4 s of CPU in a process's
 * first 10 s, which a test's short-lived gateway never earns back (measured: an embedded gateway
 * process took 7.5 s of CPU to become healthy and 1.9 s more over its next 5 idle seconds; with this
 * flag, 4.9 s and 0.1 s). The JavaScript and the SQL are the same; the gateway never sees the flag.
 */
const NODE_FLAGS = ['--liftoff-only'];
/** Node's cache of compiled modules, shared by the processes tests start: each loads the same code. */
const COMPILE_CACHE = join(ROOT, 'node_modules/.cache/pix-gateway-tests/node-compile-cache');

/** This Jest run: the main process, which is the parent of the workers (or runs the tests itself, in band). */
const TEST_RUN = String(process.send ? process.ppid : process.pid);

/**
 * Builds the gateway once for the whole test run (several Jest workers may ask at once: the
 * first takes a directory lock and builds, the others wait for it and find it done).
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
      execFileSync(process.execPath, [join(ROOT, 'node_modules/@nestjs/cli/bin/nest.js'), 'build'], { cwd: ROOT, stdio: 'pipe' });
      writeFileSync(BUILT_FOR, TEST_RUN);
    }
  } finally {
    rmdirSync(LOCK);
  }
}

function builtThisRun(): boolean {
  return existsSync(MAIN) && existsSync(BUILT_FOR) && readFileSync(BUILT_FOR, 'utf8') === TEST_RUN;
}

export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  port: number;
  /** Its PostgreSQL database, if it runs on one. */
  databaseUrl?: string;
  output(): string;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
  kill(signal?: NodeJS.Signals): void;
}

export interface GatewayProcessOptions {
  waitHealthy?: boolean;
  /**
   * `unread`: its stdout is a pipe nobody reads, as a supervisor's that stopped reading: once the
   * pipe is full, the process can write no more there. output() then holds its stderr only.
   */
  stdout?: 'read' | 'unread';
}

/**
 * Starts `node dist/src/main.js` with the test environment plus `env`, and waits until /health
 * answers. Unless `env` names a database (DATABASE_URL or DATA_DIR), the process gets this
 * project's (see databaseFor in test-app.ts): a fresh PostgreSQL database is dropped once it exits.
 */
export async function startGatewayProcess(env: Record<string, string | undefined>, options: GatewayProcessOptions = {}): Promise<GatewayProcess> {
  await ensureBuilt();
  const pg = databaseFor(undefined, env) === 'postgres' ? await createTestPostgresDatabase() : undefined;
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const fullEnv = {
    ...process.env,
    NODE_COMPILE_CACHE: COMPILE_CACHE,
    ...testEnv({ PORT: String(port), HOST: '127.0.0.1', ...env, ...(pg ? { DATABASE_URL: pg.url } : {}) }),
  } as Record<string, string>;
  for (const [k, v] of Object.entries(fullEnv)) if (v === undefined) delete fullEnv[k];
  const child = spawn(process.execPath, [...NODE_FLAGS, '--require', PGLITE_PRELOAD, MAIN], { cwd: ROOT, env: fullEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  // Not reading a pipe leaves it full: Node reads a child's pipe only as far as its buffer, then waits for a reader.
  if (options.stdout !== 'unread') child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | string>((resolveExit) => child.on('exit', (code, signal) => resolveExit(code ?? signal ?? 'unknown'))).then(async (how) => {
    await pg?.drop();
    return how;
  });
  const gateway: GatewayProcess = {
    child,
    url: `http://127.0.0.1:${port}`,
    port,
    databaseUrl: fullEnv.DATABASE_URL || undefined,
    output: () => output,
    exited,
    kill: (signal = 'SIGTERM') => child.kill(signal),
  };
  if (options.waitHealthy ?? true) {
    const deadline = Date.now() + 60_000;
    let done = false;
    void exited.then(() => (done = true));
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
