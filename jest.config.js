// Three tiers: unit specs beside the code, integration specs against a real
// database, e2e specs that boot the whole app over HTTP. SWC transpiles (with decorator metadata,
// which NestJS and class-validator need); `npm test` type-checks with tsc first.
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
// natively (require(esm)), but Jest's module loader does so only on Node 24.9+, so for tests SWC
// turns every package that declares "type": "module" into CommonJS. The list is read from
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
// Dashboard tests drive Debian's Chromium (test/browser/). Without it they are left out locally,
// with a note; in CI (CI=true) they stay in, and their setup fails loudly rather than pass silently.
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const browserProject = { ...common, displayName: 'browser', testMatch: ['<rootDir>/test/browser/**/*.spec.ts'], globalSetup: '<rootDir>/test/browser/global-setup.js' };
const runBrowser = fs.existsSync(CHROMIUM) || process.env.CI === 'true';
if (!runBrowser) console.warn(`jest: browser tests left out: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
module.exports = {
  testTimeout: 60000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    webProject,
    { ...common, displayName: 'integration', testMatch: ['<rootDir>/test/integration/**/*.spec.ts', '<rootDir>/test/providers/**/*.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'] },
    ...(runBrowser ? [browserProject] : []),
  ],
};
