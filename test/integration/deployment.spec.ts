import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * The container files are part of the security surface: what goes into the image, who runs it,
 * and which settings a `docker compose up` starts with. No Docker engine runs in CI, so their
 * rules are checked on the files themselves.
 */
const ROOT = join(__dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const SECRETS = ['POSTGRES_PASSWORD', 'SECRETS_KEY', 'ADMIN_API_TOKEN', 'ADMIN_PASSWORD', 'METRICS_TOKEN', 'SANDBOX_WEBHOOK_SECRET'];

describe('docker-compose.yml', () => {
  const compose = read('docker-compose.yml');
  const gateway = compose.slice(compose.indexOf('\n  gateway:'));

  it('runs the gateway under NODE_ENV=production with the sandbox off unless asked for', () => {
    expect(gateway).toMatch(/^\s+NODE_ENV: production$/m);
    expect(gateway).toMatch(/^\s+SANDBOX_ENABLED: \$\{SANDBOX_ENABLED:-false\}$/m);
    expect(gateway).toMatch(/^\s+PUBLIC_BASE_URL: \$\{PUBLIC_BASE_URL:\?/m);
  });

  it('takes every secret from the environment or .env, with no value written in the file', () => {
    for (const name of SECRETS) {
      const uses = [...compose.matchAll(new RegExp(`\\$\\{${name}(:[-?][^}]*)?\\}`, 'g'))].map((m) => m[1] ?? '');
      expect({ name, used: uses.length > 0 }).toEqual({ name, used: true });
      // Required (`:?`) or empty when unset (`:-`): never a default value.
      for (const use of uses) expect({ name, use }).toEqual({ name, use: expect.stringMatching(/^(:\?.*|:-)$/) });
      expect(compose).not.toMatch(new RegExp(`^\\s+${name}: (?!\\$\\{)`, 'm'));
    }
  });
});

describe('the image', () => {
  it('runs the gateway with the Node flags `npm start` passes', () => {
    const startFlags = (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start.split(' ').filter((word) => word.startsWith('--'));
    const cmd = JSON.parse(/^CMD (\[.*\])$/m.exec(read('Dockerfile'))![1]!) as string[];
    expect(startFlags).toEqual(['--max-semi-space-size=32']);
    expect(cmd).toEqual(['node', ...startFlags, 'dist/src/main.js']);
  });

  it('runs as a non-root user on the Node LTS that package.json supports', () => {
    const dockerfile = read('Dockerfile');
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtime).toMatch(/^FROM node:24-/m);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime.indexOf('USER node')).toBeLessThan(runtime.indexOf('CMD '));
    expect(dockerfile).toMatch(/npm ci /);
    expect(JSON.parse(read('package.json')).engines.node).toMatch(/>=24\.|\^24\./);
  });

  it('leaves environment files, local data, keys and certificates out of the build context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((line) => line.trim());
    for (const pattern of ['.env*', 'data', '*.pem', '*.key', '*.crt', '*.p12', '*.pfx']) expect(ignored).toContain(pattern);
  });
});

describe('telemetry', () => {
  it("keeps swagger-ui-dist's install-time reporter (@scarf/scarf) from phoning home, whatever the environment", async () => {
    // Run the reporter as npm would after installing it, with no opt-out in the environment: only
    // package.json's scarfSettings stops it (otherwise it tries to reach scarf.sh).
    //
    // The reporter reads the dependency tree from `npm ls` and gives it 3 s; on a machine busy with
    // the rest of the suite it runs out of time and stops before reading any setting. So `npm ls`
    // runs here first, unhurried, and the reporter's `npm` is a stand-in that prints that same tree.
    const tree = await run('npm', ['ls', '@scarf/scarf', '--json', '--long'], { cwd: ROOT });
    expect(JSON.parse(tree.stdout)).toMatchObject({ name: 'pix-gateway' });
    const bin = mkdtempSync(join(tmpdir(), 'scarf-npm-'));
    try {
      writeFileSync(join(bin, 'tree.json'), tree.stdout);
      writeFileSync(join(bin, 'npm'), `#!/bin/sh\nexec cat '${join(bin, 'tree.json')}'\n`, { mode: 0o755 });
      const env: NodeJS.ProcessEnv = { ...process.env, INIT_CWD: ROOT, SCARF_VERBOSE: 'true', PATH: `${bin}${delimiter}${process.env.PATH ?? ''}` };
      for (const name of ['SCARF_ANALYTICS', 'SCARF_NO_ANALYTICS', 'DO_NOT_TRACK']) delete env[name];
      const report = await run(process.execPath, ['report.js'], { cwd: join(ROOT, 'node_modules/@scarf/scarf'), env });
      const output = report.stdout + report.stderr;
      expect(output).toContain('Scarf has been disabled via a package.json');
      expect(output).not.toContain('scarf.sh');
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});

/** Runs a command to its end (whatever its exit code) and gives what it printed. */
function run(file: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { ...options, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 }, (_error, stdout, stderr) => resolve({ stdout, stderr }));
  });
}
