// Tiers: unit specs beside the code, integration specs against a real database, e2e specs that
// boot the whole app over HTTP, browser specs that drive the dashboard. Integration and e2e run once
// per database (see `onPostgres` below). SWC transpiles (with decorator metadata, which NestJS and
// class-validator need); `npm test` type-checks with tsc first.
const transform = {
  '^.+\\.(t|j|mj)s$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
        keepClassNames: true,
      },
      module: { type: 'commonjs' },
    },
  ],
  // The dashboard's components (web/src): TSX with React's automatic runtime, as Vite builds them.
  '^.+\\.tsx$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic' } },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};
// NestJS 12 and some of its dependencies ship only ES modules. Node 20.19 loads them from CommonJS
// natively (require(esm)), but Jest's module loader does so only on Node 24.9+, and there it keeps
// them for the worker's lifetime (test/helpers/jest-runtime.js), so for tests SWC turns every
// package that declares "type": "module" into CommonJS, and Jest loads that. The list is read from
// node_modules, so a new ESM-only dependency needs no change here.
const fs = require('node:fs');
const path = require('node:path');
function esmPackages(root) {
  const names = [];
  const visit = (dir, scope) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      if (!scope && entry.name.startsWith('@')) {
        visit(path.join(dir, entry.name), entry.name);
        continue;
      }
      try {
        const pkg = JSON.parse(fs.readFileSync(path.join(dir, entry.name, 'package.json'), 'utf8'));
        if (pkg.type === 'module') names.push(scope ? `${scope}/${entry.name}` : entry.name);
      } catch {
        /* not a package */
      }
    }
  };
  visit(path.join(root, 'node_modules'));
  return names;
}
const escape = (name) => name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const ESM_ONLY = esmPackages(__dirname).map(escape);
const common = {
  transform,
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`, '/node_modules/@electric-sql/'],
  // On Node 24.9+ too, what SWC turned into CommonJS is loaded as CommonJS (see the file).
  runtime: '<rootDir>/test/helpers/jest-runtime.js',
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
};
// The dashboard's components, each rendered alone in jsdom against a fake of the admin API
// (web/test/fake-api.ts): unit tier, no server and no browser. `test:unit` runs them too.
const webProject = {
  ...common,
  displayName: 'web',
  testMatch: ['<rootDir>/web/src/**/*.spec.{ts,tsx}'],
  testEnvironment: '<rootDir>/web/test/jsdom-environment.js',
  setupFilesAfterEnv: ['<rootDir>/web/test/setup.ts'],
};
// Specs that boot the app: the embedded database starts from a snapshot of a fresh cluster instead
// of running initdb each time (test/helpers/pglite-snapshot.js), made once by the global setup, and
// each worker keeps its WebAssembly compiled, and the modules its files load, from one test file to
// the next (test/helpers/node-environment.js, test/helpers/jest-runtime.js).
const PGLITE_SNAPSHOT = { '^@electric-sql/pglite$': '<rootDir>/test/helpers/pglite-mapped.js' };
const EMBEDDED_DATABASE = { testEnvironment: '<rootDir>/test/helpers/node-environment.js', moduleNameMapper: PGLITE_SNAPSHOT };
const bootsApps = { ...common, ...EMBEDDED_DATABASE, globalSetup: '<rootDir>/test/helpers/global-setup.js' };
const integration = { ...bootsApps, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.spec.ts', '<rootDir>/test/providers/**/*.spec.ts'] };
const medium = { ...bootsApps, displayName: 'medium', testMatch: ['<rootDir>/test/medium/**/*.spec.ts'] };
const e2e = { ...bootsApps, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] };
// Every integration and e2e spec runs on the embedded database (projects `integration`, `e2e`) and,
// when TEST_DATABASE_URL is set, once more on PostgreSQL, the database production uses (projects
// `integration:postgres`, `e2e:postgres`, whose setup sets TEST_DB=postgres). Specs never loop over
// databases: the helpers in test/helpers/test-app.ts boot on testDatabase(), this project's one.
const POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
// A spec whose every top-level suite is describeOn('postgres', …) could only skip on the embedded
// database, and one whose every suite is describeOn('embedded', …) or describeOnce(…) only skip on
// PostgreSQL (test/helpers/test-env.ts). Loading the app to skip every test costs about a second of
// CPU a file, so the project where such a spec cannot run leaves it out. Read from the specs' own
// top-level calls, so there is no list to keep; a file named on the command line still skips there.
const SUITE_CALL = /^(describe|it|test)\w*\b.*$/gm;
function onlyOn(file) {
  const calls = fs.readFileSync(file, 'utf8').match(SUITE_CALL) ?? [];
  if (calls.length === 0) return undefined;
  if (calls.every((call) => call.startsWith("describeOn('postgres'"))) return 'postgres';
  if (calls.every((call) => call.startsWith("describeOn('embedded'") || call.startsWith('describeOnce('))) return 'embedded';
  return undefined;
}
const specDatabases = fs
  .readdirSync(path.join(__dirname, 'test'), { recursive: true })
  .filter((file) => /\.(e2e-)?spec\.ts$/.test(file))
  .map((file) => path.join(__dirname, 'test', file))
  .map((file) => ({ file, database: onlyOn(file) }));
const leaveOut = (database) => ['/node_modules/', ...specDatabases.filter((spec) => spec.database === database).map((spec) => `^${escape(spec.file)}$`)];
const onEmbedded = (project) => ({ ...project, testPathIgnorePatterns: leaveOut('postgres') });
const onPostgres = (project) => ({
  ...project,
  displayName: `${project.displayName}:postgres`,
  setupFiles: ['<rootDir>/test/helpers/on-postgres.js'],
  testPathIgnorePatterns: leaveOut('embedded'),
});
if (!POSTGRES) console.warn('jest: PostgreSQL projects left out: set TEST_DATABASE_URL=postgres://… to run integration and e2e specs on PostgreSQL too');
// Dashboard tests drive Debian's Chromium (test/browser/). Without it they are left out locally,
// with a note; in CI (CI=true) they stay in, and their setup fails loudly rather than pass silently.
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const browserProject = {
  ...common,
  displayName: 'browser',
  testMatch: ['<rootDir>/test/browser/**/*.spec.ts'],
  ...EMBEDDED_DATABASE,
  globalSetup: '<rootDir>/test/browser/global-setup.js',
};
const runBrowser = fs.existsSync(CHROMIUM) || process.env.CI === 'true';
if (!runBrowser) console.warn(`jest: browser tests left out: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
module.exports = {
  testTimeout: 60000,
  // Much of a spec's time is spent waiting (HTTP, databases, child processes, timers), so files run
  // side by side, more of them than there are cores (Jest's default is one fewer than the cores: a
  // single worker on a 2-core machine). Specs are independent: each app has its own database and port.
  // Each worker loads the app's modules once (test/helpers/jest-runtime.js), so a worker costs that
  // load: on the 2-core CI machine 3 workers kept both cores busy for less CPU than 4.
  maxWorkers: 3,
  // A worker's heap grows by about 25-30 MB a file: garbage that only V8's last-resort collection
  // frees (with one at the end of each file the heap stays flat, but that costs about what it saves),
  // and ordinary collections take longer as it grows. A worker whose heap passes this size after a
  // file is replaced by a fresh one, which loads the app's modules again. Measured before workers
  // kept modules: about 5% less CPU than never replacing workers; 250 MB, which replaces them more
  // often, cost more than either. Since, no worker of a whole run has reached it, and 1.5 GB made
  // no difference.
  workerIdleMemoryLimit: '500MB',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    webProject,
    onEmbedded(medium),
    ...(POSTGRES ? [onPostgres(medium)] : []),
    onEmbedded(integration),
    ...(POSTGRES ? [onPostgres(integration)] : []),
    onEmbedded(e2e),
    ...(POSTGRES ? [onPostgres(e2e)] : []),
    ...(runBrowser ? [browserProject] : []),
  ],
};
