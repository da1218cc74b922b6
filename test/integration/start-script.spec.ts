import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildExists } = require('../../scripts/start.js') as { buildExists: (root: string) => boolean };

const HOUR = 3600_000;

describe('npm start', () => {
  let root: string;
  const write = (file: string, ageMs: number) => {
    const full = join(root, file);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, '');
    const at = new Date(Date.now() - ageMs);
    for (let path = full; path.startsWith(`${root}/`); path = dirname(path)) utimesSync(path, at, at);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'start-script-'));
    write('src/main.ts', 3 * HOUR);
    write('web/src/App.tsx', 3 * HOUR);
    write('package.json', 3 * HOUR);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('runs the start script, which builds only when there is no build; the build is nest build and the dashboard', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe('node --max-semi-space-size=32 scripts/start.js');
    expect(pkg.scripts.build).toBe('nest build && npm run build:web');
    expect(pkg.scripts['start:dev']).toBe('nest start --watch');
  });

  it('runs an existing build as it is, even when sources changed after it (npm run build or start:dev rebuild)', () => {
    write('dist/src/main.js', 2 * HOUR);
    write('dist/web/index.html', 2 * HOUR);
    expect(buildExists(root)).toBe(true);
    for (const file of ['src/payments/new-file.ts', 'web/src/App.tsx', 'package.json', 'tsconfig.json']) {
      write(file, 0);
      expect({ file, exists: buildExists(root) }).toEqual({ file, exists: true });
    }
  });

  it('builds when there is no build, or part of its output is gone', () => {
    expect(buildExists(root)).toBe(false);
    write('dist/src/main.js', 2 * HOUR);
    expect(buildExists(root)).toBe(false);
    write('dist/web/index.html', 2 * HOUR);
    expect(buildExists(root)).toBe(true);
    rmSync(join(root, 'dist/src/main.js'));
    expect(buildExists(root)).toBe(false);
  });
});
