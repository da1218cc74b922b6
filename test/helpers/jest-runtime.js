// Jest's module runtime (jest-runtime), with three changes that concern only how modules are
// loaded, never what they do. Only Jest's runtime changes; the gateway itself never runs through here.
//
// 1. A package that ships only ES modules and that jest.config.js has SWC turn into CommonJS is
//    loaded as that CommonJS, not as an ES module. On Node 24.9+ Jest loads such packages (NestJS
//    and a few others) natively as ES modules, and Node keeps every ES module a test file loaded for
//    as long as the worker lives, with everything it references, the booted app included: a
//    worker's heap grew by about 30 MB a file, past 1 GB by the end of a run, and garbage collection
//    took longer and longer. As CommonJS they go with the test file's module registry, as our own
//    sources do. (On older Node, Jest always took the CommonJS way: see the transform in jest.config.js.)
//
// Every test file gets a fresh module registry, so a worker loads the same few thousand modules
// (NestJS, TypeORM, Fastify, the gateway) once per file: about a second of CPU each time, most of
// it spent reading the same sources and compiling the same code again. What does not depend on the
// test file is now kept for the worker's life (the files do not change during a run; in watch mode,
// where they do, nothing is kept):
// 2. the source of each file the runtime reads (Jest keeps them per test file);
// 3. V8's code cache of each compiled module: the first file that loads a module compiles it and
//    keeps the cache, later files hand it to V8, which then skips parsing and compiling that code.
//    V8 checks that a cache matches its source and ignores one that does not; the module runs the same.
//
// This reaches into jest-runtime's internals (its `_resolution`, `fileCache` and `executor`
// objects); if a later Jest renames them, each change falls back to Jest's own behaviour rather
// than failing.
const { compileFunction } = require('node:vm');
const Runtime = require('jest-runtime').default;

/** Sources by path and V8 code caches by path, for this worker's life. */
const sources = new Map();
const buffers = new Map();
const codeCaches = new Map();

class TestRuntime extends Runtime {
  constructor(config, environment, resolver, transformer, cacheFS, coverageOptions, testPath, globalConfig) {
    super(config, environment, resolver, transformer, cacheFS, coverageOptions, testPath, globalConfig);
    this.#loadTransformedPackagesAsCommonJs(config);
    if (globalConfig?.watch || globalConfig?.watchAll) return;
    this.#shareSources(cacheFS);
    this.#cacheCompiledCode();
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
