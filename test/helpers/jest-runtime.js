// Jest's module runtime (jest-runtime), with four changes that concern only how modules are
// loaded, never what they do. Only Jest's runtime changes; the gateway itself never runs through here.
//
// 1. A package that ships only ES modules and that jest.config.js has SWC turn into CommonJS is
//    loaded as that CommonJS, not as an ES module. On Node 24.9+ Jest loads such packages (NestJS
//    and a few others) natively as ES modules, and Node keeps every ES module a test file loaded for
//    as long as the worker lives, with everything it references, the booted app included: a
//    worker's heap grew by about 30 MB a file, past 1 GB by the end of a run, and garbage collection
//    took longer and longer. As CommonJS they go with the module registry, as our own sources do.
//    (On older Node, Jest always took the CommonJS way: see the transform in jest.config.js.)
//
// Jest gives every test file a fresh module registry, so a worker would load the same few thousand
// modules (NestJS, TypeORM, Fastify, the gateway) once per file: about a second of CPU each time.
// What does not depend on the test file is kept for the worker's life instead (the files do not
// change during a run; in watch mode, where they do, nothing is kept):
// 2. the source of each file the runtime reads (Jest keeps them per test file);
// 3. V8's code cache of each compiled module: the first file that loads a module compiles it and
//    keeps the cache, later files hand it to V8, which then skips parsing and compiling that code.
//    V8 checks that a cache matches its source and ignores one that does not; the module runs the same.
// 4. for the specs that boot the app (their environment, node-environment.js, says so with
//    `keepsModules`), the loaded modules themselves: a later file's `require` of NestJS or of
//    `src/app` returns what an earlier file in the same worker loaded, as it would in one process.
//    Each file still boots its own app on its own database; only the modules, and module-level
//    state, are shared. The spec file itself and the project's setup files are loaded anew for each
//    file. The runtime of every file that loaded a kept module stays usable, since the module's
//    `require` goes through it (a lazy `require` inside NestJS, say). Mocks and spies a file made
//    are restored when it ends. Measured on a whole run with warm caches: 347 s of CPU instead of
//    479 s. TEST_ISOLATE_MODULES=1 turns this off, to tell whether a failure comes from it.
//
// This reaches into jest-runtime's internals (its `_resolution`, `fileCache`, `executor` and
// `registries` objects); if a later Jest renames them, each change falls back to Jest's own
// behaviour rather than failing.
const { compileFunction } = require('node:vm');
const Runtime = require('jest-runtime').default;

/** Sources by path and V8 code caches by path, for this worker's life. */
const sources = new Map();
const buffers = new Map();
const codeCaches = new Map();
/** The module registries kept for each kept environment (change 4). */
const keptRegistries = new WeakMap();

class TestRuntime extends Runtime {
  constructor(config, environment, resolver, transformer, cacheFS, coverageOptions, testPath, globalConfig) {
    super(config, environment, resolver, transformer, cacheFS, coverageOptions, testPath, globalConfig);
    this.#loadTransformedPackagesAsCommonJs(config);
    if (globalConfig?.watch || globalConfig?.watchAll) return;
    this.#shareSources(cacheFS);
    this.#cacheCompiledCode();
    if (environment.keepsModules) this.#keepModules(environment, config);
  }

  /** Set when this file's modules go to its environment's kept registry: what to drop at its end. */
  #kept;

  #keepModules(environment, config) {
    const registries = this.registries;
    if (!(registries?.moduleRegistry instanceof Map) || !(registries.esModuleRegistry instanceof Map)) return;
    let kept = keptRegistries.get(environment);
    if (!kept) keptRegistries.set(environment, (kept = { cjs: registries.moduleRegistry, esm: registries.esModuleRegistry }));
    registries.moduleRegistry = kept.cjs;
    registries.esModuleRegistry = kept.esm;
    // Run for each file (Jest requires them through the registry): the spec and the setup files.
    this.#kept = { registry: kept.cjs, perFile: [this._testPath, ...(config.setupFiles ?? []), ...(config.setupFilesAfterEnv ?? [])] };
  }

  teardown() {
    if (!this.#kept) return super.teardown();
    // Not Jest's teardown, which would empty the kept registry and make this runtime refuse the
    // lazy requires of the modules it loaded.
    this.restoreAllMocks();
    for (const path of this.#kept.perFile) this.#kept.registry.delete(path);
  }

  #loadTransformedPackagesAsCommonJs(config) {
    const resolution = this._resolution;
    if (!resolution || typeof resolution.shouldLoadAsEsm !== 'function') return;
    const ignored = (config.transformIgnorePatterns ?? []).map((pattern) => new RegExp(pattern));
    const shouldLoadAsEsm = resolution.shouldLoadAsEsm.bind(resolution);
    // A .js file under node_modules that the transform does not skip comes out of SWC as CommonJS.
    resolution.shouldLoadAsEsm = (path) => (path.includes('/node_modules/') && path.endsWith('.js') && !ignored.some((re) => re.test(path)) ? false : shouldLoadAsEsm(path));
  }

  #shareSources(cacheFS) {
    const fileCache = this.fileCache;
    if (!fileCache || !(fileCache.strings instanceof Map) || !(fileCache.buffers instanceof Map)) return;
    // The test file itself arrives already read (cacheFS); it joins the shared sources.
    for (const [path, source] of cacheFS ?? []) sources.set(path, source);
    fileCache.strings = sources;
    fileCache.buffers = buffers;
    // Jest empties a test file's cache when the file ends; these belong to the worker.
    fileCache.clear = () => undefined;
  }

  #cacheCompiledCode() {
    const executor = this.executor;
    const environment = this._environment;
    const resolution = this._resolution;
    if (!executor || typeof executor.compile !== 'function' || !Array.isArray(executor.injectedModuleParameters) || typeof executor.dynamicImport !== 'function') return;
    if (typeof environment?.getVmContext !== 'function' || typeof resolution?.isCoreModule !== 'function') return;
    const jestCompile = executor.compile.bind(executor);
    executor.compile = (source, filename) => {
      const context = environment.getVmContext();
      if (context == null || resolution.isCoreModule(filename)) return jestCompile(source, filename);
      const cached = codeCaches.get(filename);
      const cachedData = cached?.source === source ? cached.data : undefined;
      let compiled;
      try {
        compiled = compileFunction(source, executor.injectedModuleParameters, {
          filename,
          parsingContext: context,
          ...(cachedData ? { cachedData } : { produceCachedData: true }),
          // As Jest's own compile does: a dynamic import() from CommonJS goes through its ESM loader.
          importModuleDynamically: (specifier, _fn, attributes, phase) => executor.dynamicImport(specifier, filename, context, attributes, phase),
        });
      } catch {
        // A syntax error: Jest's compile reports it as Jest does.
        return jestCompile(source, filename);
      }
      // Copied into a Buffer of the worker's own: V8 hands the cache back as a Uint8Array of the test
      // file's realm, which would keep that file's whole context alive for the worker's life.
      if (!cachedData && compiled.cachedData) codeCaches.set(filename, { source, data: Buffer.from(compiled.cachedData) });
      return compiled;
    };
  }
}

module.exports = TestRuntime;
