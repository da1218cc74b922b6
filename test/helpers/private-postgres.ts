// A PostgreSQL server of a spec's own, which it stops and starts: the outage a shared test server
// cannot give without disturbing every other spec. It runs the cluster binaries of the machine
// (Debian's /usr/lib/postgresql/<version>/bin, or PG_BIN); a spec skips itself when there are none.
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './test-env';

const run = promisify(execFile);

/** The directory holding initdb and pg_ctl (PG_BIN, else the newest Debian cluster version), or undefined. */
export function postgresBinaries(): string | undefined {
  const candidates = process.env.PG_BIN
    ? [process.env.PG_BIN]
    : existsSync('/usr/lib/postgresql')
      ? readdirSync('/usr/lib/postgresql')
          .sort((a, b) => Number(b) - Number(a))
          .map((version) => `/usr/lib/postgresql/${version}/bin`)
      : [];
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')));
}

/**
 * Why a private server cannot run here, or undefined when it can. PostgreSQL refuses to run as root:
 * as root the binaries run as the `postgres` account through runuser, which must then exist.
 */
export function privatePostgresUnavailable(): string | undefined {
  if (!postgresBinaries()) return 'no PostgreSQL server binaries (initdb, pg_ctl) on this machine; set PG_BIN';
  if (userInfo().uid === 0 && !postgresAccount()) return 'running as root, and there is no postgres account to run the server as';
  return undefined;
}

function postgresAccount(): { uid: number; gid: number } | undefined {
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    return undefined;
  }
}

/** A cluster in a temporary directory, on a free loopback port, trusting local connections. */
export class PrivatePostgres {
  private constructor(
    private readonly bin: string,
    private readonly dir: string,
    readonly port: number,
  ) {}

  /** postgres://postgres@127.0.0.1:<port>/postgres */
  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /** Creates the cluster (initdb) and starts it. */
  static async create(): Promise<PrivatePostgres> {
    const bin = postgresBinaries();
    if (!bin) throw new Error(privatePostgresUnavailable());
    const dir = mkdtempSync(join(tmpdir(), 'gw-pg-'));
    const account = userInfo().uid === 0 ? postgresAccount() : undefined;
    if (account) chownSync(dir, account.uid, account.gid);
    const server = new PrivatePostgres(bin, dir, await freePort());
    // Durability is not what these specs test: no fsync, so initdb and every commit cost no disk flush.
    await server.pg('initdb', ['-D', server.data, '-U', 'postgres', '-A', 'trust', '--no-sync', '--no-instructions']);
    await server.start();
    return server;
  }

  private get data(): string {
    return join(this.dir, 'data');
  }

  /** Starts the server and waits until it accepts connections. */
  async start(): Promise<void> {
    const options = `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    await this.pg('pg_ctl', ['-D', this.data, '-l', join(this.dir, 'server.log'), '-o', options, '-w', '-t', '30', 'start']);
  }

  /** Stops it as an operator would for maintenance (`-m fast`): sessions are terminated (57P01), new connections refused. */
  async stop(): Promise<void> {
    await this.pg('pg_ctl', ['-D', this.data, '-m', 'fast', '-w', '-t', '30', 'stop']);
  }

  /** Stops the server if it runs, and deletes the cluster. */
  async destroy(): Promise<void> {
    await this.pg('pg_ctl', ['-D', this.data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async pg(program: string, args: string[]): Promise<void> {
    const path = join(this.bin, program);
    const [file, argv] = userInfo().uid === 0 ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
    await run(file, argv, { cwd: this.dir, env: { ...process.env, LC_ALL: 'C' } });
  }
}
