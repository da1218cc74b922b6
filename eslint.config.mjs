// @ts-check
// `npm run lint` runs ESLint (this file, with typescript-eslint's type-checked rules) with no warning
// allowed, then `prettier --check`. Layout is Prettier's alone (.prettierrc.json): eslint-config-prettier,
// last, turns off every rule that would disagree with it. The base is the recommended and stylistic
// type-checked sets as published; each change below says why.
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import prettier from 'eslint-config-prettier/flat';
import fs from 'node:fs';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

// How src/ is cut (docs/architecture.md, "Layout"): base layers, then feature folders.
// - A base layer imports only from its own folder and the base layers below it (folders in one
//   layer do not import each other).
// - A feature folder is a vertical slice (its API, rules, tables, callbacks, reconciliation and
//   admin routes). It imports any base layer and only the features it names here; a new feature is
//   one more entry, not a new rung.
// - The bootstrap (app.ts, api-document.ts, app.module.ts, main.ts, cluster.ts, banner.ts) composes everything and
//   nothing imports it. import-x/no-cycle, below, keeps every import graph acyclic.
const BASE_LAYERS = [['domain'], ['config'], ['common'], ['database'], ['auth'], ['providers'], ['metrics'], ['merchants', 'idempotency'], ['deliveries']];
const FEATURES = {
  payments: [],
  recurrences: ['payments'],
  // Batches of due-date charges: each item is a payment made through the payments feature.
  'payment-batches': ['payments'],
  // Reusable payment links: each payment a payer opens is made through the payments feature.
  'payment-links': ['payments'],
  // The public pages a payer sees (a payment's, a recurrence's authorization, a payment link's).
  checkout: ['payments', 'recurrences', 'payment-links'],
  webhooks: ['payments'],
  dashboard: ['payments'],
  health: [],
  // The simulated PSP: a product of its own, mounted by the bootstrap; it uses no gateway feature.
  'sandbox-psp': [],
};
const BOOTSTRAP = ['./src/app.ts', './src/api-document.ts', './src/api-webhooks.ts', './src/app.module.ts', './src/main.ts', './src/cluster.ts', './src/banner.ts'];
const featureFolders = Object.keys(FEATURES);
const layerZones = [
  ...BASE_LAYERS.flatMap((layer, rank) =>
    layer.map((folder) => ({
      target: `./src/${folder}`,
      from: [...BASE_LAYERS.slice(rank + 1).flat(), ...layer.filter((other) => other !== folder), ...featureFolders].map((above) => `./src/${above}`).concat(BOOTSTRAP),
      message: `src/${folder} is a base layer: it imports only from the base layers below it (docs/architecture.md, "Layout"); move what both need down instead.`,
    })),
  ),
  ...Object.entries(FEATURES).map(([feature, uses]) => ({
    target: `./src/${feature}`,
    from: featureFolders
      .filter((other) => other !== feature && !uses.includes(other))
      .map((other) => `./src/${other}`)
      .concat(BOOTSTRAP),
    message: `src/${feature} is a feature: it imports the base layers and only the features it names in FEATURES (eslint.config.mjs; docs/architecture.md, "Layout").`,
  })),
];
// The simulated PSP speaks only the vocabulary below the gateway's (domain, common): it is a PSP,
// not a part of the gateway, and runs alone (npm run sandbox).
layerZones.push({
  target: './src/sandbox-psp',
  from: BASE_LAYERS.flat()
    .filter((folder) => folder !== 'domain' && folder !== 'common')
    .map((folder) => `./src/${folder}`),
  message: 'src/sandbox-psp imports only src/domain and src/common: it is a PSP of its own (docs/sandbox.md).',
});
// A spec beside the code may use the simulated PSP as a fixture (its BR Codes, say); production code may not.
const specZones = layerZones.map((zone) => ({ ...zone, from: zone.from.filter((from) => from !== './src/sandbox-psp') }));
// Every folder of src/ is placed: a new one must be named above before it lints.
const placedFolders = new Set([...BASE_LAYERS.flat(), ...featureFolders, 'testing']);
const unplaced = fs
  .readdirSync(new URL('./src', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !placedFolders.has(entry.name))
  .map((entry) => `src/${entry.name}`);
if (unplaced.length > 0) throw new Error(`${unplaced.join(', ')}: place it in eslint.config.mjs's BASE_LAYERS or FEATURES (docs/architecture.md, "Layout")`);

// src/ stands alone: test/ may import from src/, never the reverse, so src/ builds, lints and its unit
// specs run without test/ (what specs in both need lives in src/testing).
const testZone = { target: './src', from: './test', message: 'src/ does not import from test/: move what both need to src/testing.' };
const testingZone = { target: './src', from: './src/testing', message: 'src/testing is for specs only (it is not built): production code does not import it.' };

export default defineConfig(
  // Built or generated: web/src/api-types.ts is written by `npm run api:types` and sdk/src/generated/ by
  // `npm run sdk:generate`, both from the OpenAPI document; sdk/dist/ is the SDK's build.
  globalIgnores(['dist/', 'coverage/', 'data/', 'test-artifacts/', 'web/src/api-types.ts', 'sdk/src/generated/', 'sdk/dist/']),

  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  tseslint.configs.stylisticTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // Each file is type-checked with the tsconfig.json nearest to it: the root one (src, test,
        // bench, migrations) or web/tsconfig.json (the dashboard, with the DOM's types).
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    // An eslint-disable comment that no longer disables anything fails the lint, so none outlives its reason.
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `||` on strings is deliberate where it appears: an empty setting is an absent one
      // (`env.HOST?.trim() || '0.0.0.0'`), which `??` would keep. Other types still want `??`.
      '@typescript-eslint/prefer-nullish-coalescing': ['error', { ignorePrimitives: { string: true } }],
      // A name that starts with `_` is unused on purpose (a field left out of a rest copy, a
      // parameter a signature requires).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // Passing on what a callback threw (or an `any` error from a callback API) unchanged is not
      // inventing a non-Error rejection; rejecting with a literal still fails.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // `async` without `await` is how a function here says it returns a promise, and the contracts
      // it implements need one: a Fastify hook or plugin with no `done` callback, an axios adapter, a
      // PaymentProvider method. Dropping `async` would change what they return, or what a throw does.
      '@typescript-eslint/require-await': 'off',
      // Control characters are what the input limits refuse (docs/architecture.md, "Every request";
      // the log redaction and the webhook URL policy too): every such regular expression here names
      // them on purpose, as \x escapes.
      'no-control-regex': 'off',
    },
  },

  // The dashboard's component specs and their helpers are type-checked by web/tsconfig.spec.json
  // (jsdom and Jest's types), which the project service does not find by itself.
  {
    files: ['web/src/**/*.spec.ts', 'web/src/**/*.spec.tsx', 'web/test/**/*.ts'],
    languageOptions: { parserOptions: { projectService: false, project: ['./web/tsconfig.spec.json'], tsconfigRootDir: import.meta.dirname } },
  },

  // Specs and test helpers read HTTP and log output as `any` (`res.body`, `inject().json()`,
  // `JSON.parse`) and Jest's asymmetric matchers (`expect.any(String)`) are typed `any`: the
  // expectations are what checks their shape, and typing each body again would restate
  // the API's views in every spec.
  {
    files: ['test/**/*.ts', 'web/test/**/*.ts', '**/*.spec.ts', '**/*.spec.tsx'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },

  // The JavaScript files (scripts/, jest.config.js, the Vite config, the browser tests' setup) are in
  // no tsconfig: ESLint's recommended rules without type information.
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.js'],
    // A CommonJS file's top level is its module function's scope, not the global one.
    languageOptions: { sourceType: 'commonjs', parserOptions: { ecmaFeatures: { globalReturn: true } } },
    // CommonJS loads its modules with require().
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },

  // Imports point down only (the layers above) and never in a circle, so each layer can be read,
  // tested and changed knowing only what is beneath it. Resolved by import-x's own resolver: the
  // source imports by relative path without extension, which is all it has to follow.
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/extensions': ['.ts'], 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })] },
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...specZones, testZone] }] },
  },
  // What src/testing holds (fake clock, test PKI...) is for specs only and is left out of the build
  // (tsconfig.build.json): production code that imported it would not start.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts', 'src/testing/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: [...layerZones, testZone, testingZone] }] },
  },
  // Nothing imports a spec, so no spec can be on a circle: following a spec's imports back to it
  // would only spend the lint's time.
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.spec.ts'],
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },

  prettier,
);
