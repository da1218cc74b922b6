import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describeOnce } from '../helpers/test-env';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildIsCurrent, stamp } = require('../../scripts/start.js') as {
  buildIsCurrent: (root: string) => boolean;
  stamp: (root: string, at?: Date) => void;
};

const HOUR = 3600_000;

describeOnce('npm start', () => {
  let root: string;
  const write = (file: string, ageMs: number) => {
    const full = join(root, file);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, '');
    const at = new Date(Date.now() - ageMs);
    // A folder's time changes when a file is added to it, so the folders get the file's age too.
    for (let path = full; path.startsWith(`${root}/`); path = dirname(path)) utimesSync(path, at, at);
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'start-script-'));
    write('src/main.ts', 3 * HOUR);
    write('web/src/App.tsx', 3 * HOUR);
    write('package.json', 3 * HOUR);
    write('dist/src/main.js', 2 * HOUR);
    write('dist/web/index.html', 2 * HOUR);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('runs the start script, which decides whether to build, instead of always building', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toBe('node scripts/start.js');
    expect(pkg.scripts.build).toMatch(/node scripts\/start\.js --stamp$/);
  });

  it('does not rebuild a build newer than every source', () => {
    stamp(root, new Date(Date.now() - HOUR));
    expect(buildIsCurrent(root)).toBe(true);
  });

  it('rebuilds when a file of the gateway or of the dashboard, or the package, changed after the build', () => {
    stamp(root, new Date(Date.now() - HOUR));
    for (const file of ['src/payments/new-file.ts', 'web/src/App.tsx', 'package.json', 'tsconfig.json']) {
      write(file, 0);
      expect({ file, current: buildIsCurrent(root) }).toEqual({ file, current: false });
      write(file, 3 * HOUR);
    }
    expect(buildIsCurrent(root)).toBe(true);
  });

  it('builds when there is no record of a build, or its output is gone', () => {
    expect(buildIsCurrent(root)).toBe(false);
    stamp(root, new Date(Date.now() - HOUR));
    rmSync(join(root, 'dist/web/index.html'));
    expect(buildIsCurrent(root)).toBe(false);
  });
});
