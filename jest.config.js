// The test tiers (docs/architecture.md, "Tests"), one Jest project each:
//   unit         src/**/*.spec.ts beside the code: no I/O.
//   web          the dashboard's components in jsdom against a fake admin API (web/test/).
//   medium       test/medium: repositories and services against a real database, no app booted.
//   integration  test/integration, test/providers: adapters against fake PSPs that are real
//                servers, processes, static checks (one boots the app for its OpenAPI document).
//   e2e          test/e2e: the whole app over HTTP.
//   sdk          sdk/test: the merchant SDK (sdk/) against the whole app over HTTP.
//   browser      test/browser: the dashboard in Debian's Chromium.
// medium and e2e run on the embedded database; with TEST_DATABASE_URL set, every medium spec and
// the e2e specs about storage (BOTH_DATABASES) run once more on PostgreSQL, in the `…:postgres`
// projects, whose setup file sets TEST_DB=postgres (test/helpers/test-env.ts, testDatabase()).
const fs = require('node:fs');

const swc = (parser, transform) => [
  '@swc/jest',
  // Decorator metadata is what NestJS's injection and class-validator read.
  { jsc: { parser, transform, target: 'es2022', keepClassNames: true }, module: { type: 'commonjs' } },
];
const common = {
  transform: {
    '^.+\\.(t|j|mj)s$': swc({ syntax: 'typescript', decorators: true }, { legacyDecorator: true, decoratorMetadata: true }),
    // The dashboard's components: TSX with React's automatic runtime, as Vite builds them.
    '^.+\\.tsx$': swc({ syntax: 'typescript', tsx: true }, { react: { runtime: 'automatic' } }),
  },
  // NestJS 12, content-disposition and cookie (@fastify/static's and light-my-request's) ship only
  // ES modules. Node 24's Jest loads them as such (the `jest` script's --experimental-vm-modules);
  // on Node 22, whose Jest cannot require an ES module, SWC turns them into CommonJS. The list is
  // what running every tier on Node 22 asked for.
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|content-disposition|cookie)/)'],
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'tsx', 'js', 'mjs', 'cjs', 'json'],
  // A dynamic import names the compiled file (`./embedded-database.js`, as Node's module resolution
  // asks of TypeScript); under Jest that file is the TypeScript source.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};
// Specs with a database start the embedded one from a snapshot of a fresh cluster made once per run
// instead of running initdb at each boot (test/helpers/pglite-snapshot.js).
const withDatabase = {
  ...common,
  moduleNameMapper: { ...common.moduleNameMapper, '^@electric-sql/pglite$': '<rootDir>/test/helpers/pglite-mapped.js' },
  globalSetup: '<rootDir>/test/helpers/global-setup.js',
};
const onPostgres = (project, testMatch = project.testMatch) => ({
  ...project,
  displayName: `${project.displayName}:postgres`,
  testMatch,
  setupFiles: ['<rootDir>/test/helpers/on-postgres.js'],
});

// The e2e specs about storage, locking, leases, races, crashes and several processes: they run on
// both databases. The others test HTTP behaviour that the database does not change, and run on the
// embedded one only.
const BOTH_DATABASES = [
  'auth-throttling-redis',
  'cluster',
  'crash-safety',
  'due-charges',
  'health',
  'homologation-accounts',
  'idempotency',
  'idempotency-two-processes',
  'logging',
  'mercadopago-payments',
  'money-interleavings',
  'paid-after-close',
  'payment-batches',
  'payment-links',
  'payments',
  'production',
  'reconciliation-intake',
  'recurrences',
  'pix-api-payments',
  'pix-api-recurrences',
  'recurring-charge-cycle',
  'refund-money',
  'refunds-mercadopago',
  'refunds-pix-api',
  'refunds-sandbox',
  'refunds-two-processes',
  'routing',
  'routing-two-processes',
  'sandbox-production',
  'shutdown',
  'shutdown-deadline',
  'shutdown-restart',
  'test-payments',
  'webhook-delivery-two-processes',
];
const medium = { ...withDatabase, displayName: 'medium', testMatch: ['<rootDir>/test/medium/**/*.spec.ts'] };
// Every e2e exchange is checked against the OpenAPI document the gateway serves (test/helpers/api-contract.ts).
const e2e = {
  ...withDatabase,
  displayName: 'e2e',
  testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/helpers/api-contract-setup.ts'],
};
// The merchant SDK (sdk/) driven against a booted gateway; its exchanges are checked against the document as e2e's are.
const sdk = { ...e2e, displayName: 'sdk', testMatch: ['<rootDir>/sdk/test/**/*.spec.ts'] };
const POSTGRES = Boolean(process.env.TEST_DATABASE_URL);
if (!POSTGRES) console.warn('jest: PostgreSQL projects left out: set TEST_DATABASE_URL=postgres://… to run the medium and storage e2e specs on PostgreSQL too');

// Without Chromium the browser tier is left out locally, with a note; in CI (CI=true) it stays in,
// and its setup fails loudly rather than pass silently.
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const BROWSER = fs.existsSync(CHROMIUM) || process.env.CI === 'true';
if (!BROWSER) console.warn(`jest: browser tests left out: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

module.exports = {
  testTimeout: 60000,
  // Much of an e2e spec's time is spent waiting (HTTP, databases, child processes), so files run
  // side by side, one more than the cores. The `jest` script (package.json) runs Node with
  // --liftoff-only: V8 compiles PGlite's WebAssembly with its baseline compiler alone, which cost
  // 19.9 s of CPU instead of 21.2 s for eight e2e files in one worker (measured 2026-11-26), and
  // with --experimental-vm-modules, which Jest needs to load ES modules.
  maxWorkers: 3,
  // A worker's heap grows by ~35 MB with every file that boots the app and is never given back: the
  // ES modules Jest loads through node:vm (NestJS 12 ships only those) stay reachable from Node's
  // module machinery after their file ends. By the end of a run each worker held ~2 GB. A worker
  // past 250 MB after a file is replaced by a fresh one: a full run went from 726 to 490 s
  // (docs/architecture.md, Tests).
  workerIdleMemoryLimit: '250MB',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'web',
      testMatch: ['<rootDir>/web/src/**/*.spec.{ts,tsx}'],
      testEnvironment: '<rootDir>/web/test/jsdom-environment.js',
      setupFilesAfterEnv: ['<rootDir>/web/test/setup.ts'],
    },
    medium,
    ...(POSTGRES ? [onPostgres(medium)] : []),
    { ...withDatabase, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.spec.ts', '<rootDir>/test/providers/**/*.spec.ts'] },
    e2e,
    ...(POSTGRES
      ? [
          onPostgres(
            e2e,
            BOTH_DATABASES.map((name) => `<rootDir>/test/e2e/${name}.e2e-spec.ts`),
          ),
        ]
      : []),
    sdk,
    ...(BROWSER ? [{ ...withDatabase, displayName: 'browser', testMatch: ['<rootDir>/test/browser/**/*.spec.ts'], globalSetup: '<rootDir>/test/browser/global-setup.js' }] : []),
  ],
};
