import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeOnce } from '../helpers/test-env';

/**
 * The container files are part of the security surface: what goes into the image, who runs it,
 * and which settings a `docker compose up` starts with. No Docker engine runs in CI, so their
 * rules are checked on the files themselves.
 */
const ROOT = join(__dirname, '../..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const SECRETS = ['POSTGRES_PASSWORD', 'SECRETS_KEY', 'ADMIN_API_TOKEN', 'ADMIN_PASSWORD', 'METRICS_TOKEN', 'SANDBOX_WEBHOOK_SECRET'];

describeOnce('docker-compose.yml', () => {
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

describeOnce('the image', () => {
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

describeOnce('telemetry', () => {
  it("keeps swagger-ui-dist's install-time reporter (@scarf/scarf) from phoning home, whatever the environment", async () => {
    // Run the reporter as npm would after installing it, with no opt-out in the environment: only
    // package.json's scarfSettings stops it (otherwise it tries to reach scarf.sh).
    const env: NodeJS.ProcessEnv = { ...process.env, INIT_CWD: ROOT, SCARF_VERBOSE: 'true' };
    for (const name of ['SCARF_ANALYTICS', 'SCARF_NO_ANALYTICS', 'DO_NOT_TRACK']) delete env[name];
    const report = () =>
      new Promise<string>((resolve) => {
        execFile(process.execPath, ['report.js'], { cwd: join(ROOT, 'node_modules/@scarf/scarf'), env, timeout: 30_000 }, (_error, stdout, stderr) => resolve(stdout + stderr));
      });
    // The reporter gives `npm ls` 3 s to describe the tree; on a busy machine (the suite runs files
    // side by side) it can run out, and the reporter stops there before reading any setting: run it again.
    let output = await report();
    for (let attempt = 2; attempt <= 6 && output.includes('Scarf received an error from npm -ls'); attempt++) output = await report();
    expect(output).toContain('Scarf has been disabled via a package.json');
    expect(output).not.toContain('scarf.sh');
  });
});
