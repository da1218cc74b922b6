#!/usr/bin/env node
// Every package the code imports is declared in package.json, and every declared package is used.
// Packages that src/ loads at run time (outside *.spec.ts) belong in `dependencies`, because the
// Docker image keeps only those; everything else is a devDependency.
// Usage: `npm run deps:check` (exit 1 and a list of problems when something is off).
const fs = require('node:fs');
const path = require('node:path');
const { builtinModules } = require('node:module');

const ROOT = path.resolve(__dirname, '..');
const SCANNED = ['src', 'test', 'bench', 'web', 'migrations', 'scripts'];
const EXTRA_FILES = ['jest.config.js', 'eslint.config.mjs'];
// Declared but never imported by name, with the reason they are needed.
const TOOLING = {
  pg: 'the PostgreSQL driver TypeORM loads by name at run time',
  // One TypeScript for every tool (docs/architecture.md, "The stack").
  typescript: 'tsc type-checks; typescript-eslint, openapi-typescript and the Nest CLI load its API',
  '@nestjs/cli': 'nest build and nest start --watch (npm run build, start:dev)',
  '@swc/cli': 'the Nest CLI compiles through it (the SWC builder, nest-cli.json)',
  jest: 'the test runner',
  prettier: 'formats the code (npm run format; npm run lint checks it)',
  '@swc/core': 'SWC compiles the gateway (nest build) and the specs for Jest (@swc/jest)',
  'openapi-typescript': 'generates web/src/api-types.ts (npm run api:types)',
  '@stoplight/spectral-cli': 'lints the OpenAPI document (test/integration/openapi-lint.spec.ts runs its CLI)',
  '@redocly/cli': 'lints the OpenAPI document (test/integration/openapi-lint.spec.ts runs its CLI)',
};
// Static imports and re-exports, side-effect imports, dynamic imports and require calls.
// Production dependencies that src/ does not load itself: another dependency loads them by name.
const LOADED_BY_OTHERS = {
  pg: 'TypeORM',
  'pino-http': 'nestjs-pino (a peer dependency; src/ imports only its types)',
  rxjs: '@nestjs/common and @nestjs/core (a peer dependency of both)',
};
const IMPORT = /(?:^[ \t]*(?:import|export)\b[^;'"]*?\bfrom\s*|^[ \t]*import\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]([^'"./\s][^'"\s]*)['"]/gm;

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function sourceFiles(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(ts|tsx|js|mjs|cjs)$/.test(entry.name) ? [full] : [];
  });
}

function findProblems(root = ROOT) {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const deps = pkg.dependencies ?? {};
  const devDeps = pkg.devDependencies ?? {};
  const builtins = new Set(builtinModules);
  /** package name -> is it loaded at run time by src/ */
  const used = new Map();
  const files = [...SCANNED.flatMap((d) => sourceFiles(path.join(root, d))), ...EXTRA_FILES.map((f) => path.join(root, f))];
  for (const file of files) {
    if (!fs.existsSync(file)) continue;
    const rel = path.relative(root, file);
    const runtime = rel.startsWith(`src${path.sep}`) && !rel.endsWith('.spec.ts');
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(IMPORT)) {
      if (match[1].startsWith('node:')) continue;
      const name = packageName(match[1]);
      if (builtins.has(name)) continue;
      // `import type` is erased by the compiler: it needs the package's types, not the package.
      const typeOnly = /^\s*import\s+type\s/.test(match[0]);
      used.set(name, (used.get(name) ?? false) || (runtime && !typeOnly));
    }
  }
  const problems = [];
  for (const [name, runtime] of [...used].sort()) {
    if (!deps[name] && !devDeps[name]) problems.push(`${name}: imported but not declared`);
    else if (runtime && !deps[name]) problems.push(`${name}: loaded by src/ at run time, so it belongs in dependencies`);
  }
  for (const name of Object.keys(deps)) {
    if (used.get(name) === false && !LOADED_BY_OTHERS[name]) {
      problems.push(`${name}: in dependencies, but src/ does not load it at run time (a devDependency?)`);
    }
  }
  for (const name of Object.keys({ ...deps, ...devDeps })) {
    if (used.has(name) || TOOLING[name] || LOADED_BY_OTHERS[name]) continue;
    if (name.startsWith('@types/')) {
      const typed = name.slice('@types/'.length).replace(/^(.+)__(.+)$/, '@$1/$2');
      if (typed === 'node' || typed === 'jest' || used.has(typed)) continue;
      problems.push(`${name}: types for ${typed}, which nothing imports`);
    } else if (name === '@swc/jest' && fs.readFileSync(path.join(root, 'jest.config.js'), 'utf8').includes("'@swc/jest'")) {
      continue;
    } else {
      problems.push(`${name}: declared but nothing imports it`);
    }
  }
  return problems;
}

module.exports = { findProblems };

if (require.main === module) {
  const problems = findProblems();
  for (const problem of problems) console.error(problem);
  process.exit(problems.length ? 1 : 0);
}
