/** What every benchmark scenario shares: processes, load, figures, memory, and a scratch database. */
import { ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { AddressInfo, createServer as createNetServer } from 'node:net';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';

export const ROOT = resolve(__dirname, '../..');
export const DURATION = Number(process.env.BENCH_DURATION ?? 10);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** Requests answered in all. */
  total: number;
  /** CPU milliseconds the measured process spent per request, when a process was named. */
  cpuMs?: number;
  /** The measured process's largest resident memory seen during the run (sampled every 100 ms), in MB. */
  rssMb?: number;
}

export async function freePort(): Promise<number> {
  return new Promise((resolvePort) => {
    const server = createNetServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolvePort(port));
    });
  });
}

export function startProcess(script: string, env: Record<string, string>, root = ROOT, nodeFlags: string[] = []): ChildProcess {
  const child = spawn(process.execPath, [...nodeFlags, join(root, script)], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (code !== 0 && signal !== 'SIGTERM' && signal !== 'SIGKILL') console.error(`${script} exited with ${code ?? signal}`);
  });
  return child;
}

export async function waitFor(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up`);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

/** Runs autocannon; bounded by `amount` when given, otherwise by BENCH_DURATION. With `pid`, also the CPU that process spent per request. */
export async function load(options: autocannon.Options, pid?: number): Promise<Figures> {
  const bound = options.amount === undefined ? { duration: DURATION } : {};
  return measured(pid, async () => {
    const result = await new Promise<autocannon.Result>((done, fail) => {
      autocannon({ connections: CONNECTIONS, ...bound, ...options }, (error, res) => (error ? fail(error) : done(res)));
    });
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      non2xx: result.non2xx,
      errors: result.errors + result.timeouts,
      total: result.requests.total,
    };
  });
}

/**
 * POSTs `count` JSON bodies to `url` at `ratePerSecond`, evenly spaced (one every 2 ms at 500/s).
 * autocannon's rate is a budget per second that each connection spends at once and then waits out
 * (autocannon 9, lib/httpClient.js), so "500/s" arrived as a burst of 500 at the start of every
 * second, and a steady rate's latency measured the burst's queue. `bodyOf(i)` is called as request
 * i is sent. Latency counts from when a request was due, so a sender that falls behind does not
 * hide the wait (coordinated omission). `headersOf` adds headers for a body (a signature).
 */
export async function paced(
  url: string,
  count: number,
  ratePerSecond: number,
  bodyOf: (i: number) => string,
  pid?: number,
  headersOf: (body: string) => Record<string, string> = () => ({}),
): Promise<Figures> {
  const agent = new HttpAgent({ keepAlive: true, maxSockets: 512 });
  try {
    return await measured(
      pid,
      () =>
        new Promise<Omit<Figures, 'cpuMs' | 'rssMb'>>((done) => {
          if (count === 0) return done({ rps: 0, p50: NaN, p99: NaN, non2xx: 0, errors: 0, total: 0 });
          const latencies: number[] = [];
          let sent = 0;
          let answered = 0;
          let non2xx = 0;
          let errors = 0;
          const started = performance.now();
          const finish = () => {
            if (++answered < count) return;
            latencies.sort((a, b) => a - b);
            done({ rps: count / ((performance.now() - started) / 1000), p50: percentile(latencies, 50), p99: percentile(latencies, 99), non2xx, errors, total: count - errors });
          };
          const send = (i: number) => {
            const due = started + (i * 1000) / ratePerSecond;
            const body = bodyOf(i);
            const req = httpRequest(
              url,
              { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headersOf(body) } },
              (res) => {
                res.resume();
                res.on('end', () => {
                  if (res.statusCode! < 200 || res.statusCode! >= 300) non2xx++;
                  latencies.push(performance.now() - due);
                  finish();
                });
              },
            );
            req.on('error', () => {
              errors++;
              finish();
            });
            req.end(body);
          };
          const tick = setInterval(() => {
            const due = Math.min(count, Math.floor(((performance.now() - started) * ratePerSecond) / 1000) + 1);
            while (sent < due) send(sent++);
            if (sent >= count) clearInterval(tick);
          }, 1);
        }),
    );
  } finally {
    agent.destroy();
  }
}

/** The `p`th percentile of ascending `sorted` (NaN when empty). */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
}

/** Runs `work`, adding the CPU `pid` spent per request and its largest resident memory meanwhile. */
async function measured(pid: number | undefined, work: () => Promise<Omit<Figures, 'cpuMs' | 'rssMb'>>): Promise<Figures> {
  const cpuBefore = cpuSecondsOf(pid);
  let rssMb: number | undefined;
  const sampler = setInterval(() => {
    const now = memoryOf(pid)?.rssMb;
    if (now !== undefined) rssMb = Math.max(rssMb ?? 0, now);
  }, 100);
  const figures = await work().finally(() => clearInterval(sampler));
  const cpuMs = pid === undefined ? undefined : ((cpuSecondsOf(pid) - cpuBefore) * 1000) / Math.max(1, figures.total);
  return { ...figures, cpuMs, rssMb };
}

/** A process's resident memory now and at its peak, in MB (Linux /proc). */
export function memoryOf(pid: number | undefined): { rssMb: number; peakMb: number } | undefined {
  if (pid === undefined) return undefined;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/** The fields of /proc/<pid>/stat after the command's closing parenthesis (state is the first). */
function statFields(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  } catch {
    return undefined;
  }
}

/** The process and its children (a cluster primary's workers), by /proc. */
function processTree(pid: number): number[] {
  const children = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((child) => statFields(child)?.[1] === String(pid));
  return [pid, ...children];
}

/** CPU seconds (user + system) a process and its children have used so far (Linux /proc; clock ticks of 10 ms). */
export function cpuSecondsOf(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  // utime and stime are the 12th and 13th fields after the command.
  return processTree(pid).reduce((sum, p) => {
    const fields = statFields(p);
    return fields ? sum + (Number(fields[11]) + Number(fields[12])) / 100 : sum;
  }, 0);
}

/**
 * A database of its own on the PostgreSQL server of `url`, dropped afterwards, so that the benchmark
 * neither reads nor changes what is in the database it was pointed at.
 */
export async function scratchDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `pix_gateway_bench_${process.pid}_${Date.now()}`;
  const admin = new Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const scratch = new URL(url);
  scratch.pathname = `/${name}`;
  return {
    url: scratch.toString(),
    drop: async () => {
      const client = new Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Prints a table: the header once, then each row as it is measured. */
export class Table {
  private printed = false;
  constructor(private readonly columns: { title: string; width: number; right?: boolean }[]) {}

  row(cells: (string | number | undefined)[]): void {
    if (!this.printed) {
      this.printed = true;
      console.log(this.format(this.columns.map((c) => c.title)));
      console.log(this.columns.map((c) => '-'.repeat(c.width)).join('  '));
    }
    console.log(this.format(cells));
  }

  private format(cells: (string | number | undefined)[]): string {
    return this.columns
      .map((column, i) => {
        const cell = cells[i] === undefined ? '' : String(cells[i]);
        return column.right ? cell.padStart(column.width) : cell.padEnd(column.width);
      })
      .join('  ');
  }
}
