// Jest's node environment for the specs that boot the app or its database (jest.config.js). Jest
// loads this file once per worker, outside the test files' module registries, so what it keeps
// lives for the whole worker: here, PostgreSQL's compiled WebAssembly (pglite-snapshot.js), and the
// environment itself.
//
// One environment (one global object, one VM context) serves every test file a worker runs whose
// project loads modules the same way (the integration, e2e and browser projects, on either
// database), so that the modules those files load can be kept from one file to the next
// (`keepsModules`, change 4 in jest-runtime.js): modules loaded in one context and used from another
// would each see the other's Object, Array and Error as foreign. Jest sets the globals a file needs
// (describe, expect, console) on it before each file; what a file may have changed on it is put
// back: process.env as the environment was made (a project's setup file sets TEST_DB again),
// process.exit, and Jest's test timeout. TEST_ISOLATE_MODULES=1 gives each file its own, as Jest does.
//
// It also makes sure a test file that has ended leaves nothing behind in the worker:
// - Every app starts prom-client's default collectors (src/metrics/gateway-metrics.ts): a
//   PerformanceObserver for garbage collections and an event-loop delay monitor that samples every
//   10 ms. prom-client gives no way to stop them, since a process normally has one app for its whole
//   life; in a worker they would outlive their test file, all firing, and hold it in memory. The
//   ones a file started are stopped when it ends.
// - Node carries the async context into whatever a test starts (timers, sockets, the monitor
//   above), and Jest's context holds the running test or hook, whose function holds the whole test
//   file (its app, its modules). Whatever outlives the file, down to a pooled HTTP parser or a
//   keep-alive socket, would keep all of that alive (heap snapshots of a worker showed each finished
//   file's app still there). Once the file has ended, its tests' and hooks' functions are let go, so
//   what stays holds only Jest's small records of them.
const { TestEnvironment } = require('jest-environment-node');
const perfHooks = require('node:perf_hooks');
const { keepWasmCompiled } = require('./pglite-snapshot');

/** Collectors started by the running test file (a worker runs one file at a time). */
let started;
const { observe } = perfHooks.PerformanceObserver.prototype;
perfHooks.PerformanceObserver.prototype.observe = function observeAndTrack(...args) {
  started?.add(() => this.disconnect());
  return observe.apply(this, args);
};
const { monitorEventLoopDelay } = perfHooks;
perfHooks.monitorEventLoopDelay = function monitorAndTrack(...args) {
  const histogram = monitorEventLoopDelay.apply(this, args);
  started?.add(() => histogram.disable());
  return histogram;
};

/** The environment kept for each way of loading modules (see above), for this worker's life. */
const kept = new Map();
const ISOLATE = process.env.TEST_ISOLATE_MODULES === '1';
/** What, in a project's configuration, decides how modules load; projects that agree share one environment. */
const moduleLoading = (c) =>
  JSON.stringify([
    c.rootDir,
    c.transform,
    c.transformIgnorePatterns,
    c.moduleNameMapper,
    c.moduleFileExtensions,
    c.moduleDirectories,
    c.modulePaths,
    c.resolver,
    c.testEnvironmentOptions,
    c.globals,
  ]);
const TEST_TIMEOUT = Symbol.for('TEST_TIMEOUT_SYMBOL'); // where jest.setTimeout() writes

class GatewayTestEnvironment extends TestEnvironment {
  #stops = new Set();
  #exit;
  #env;

  constructor(config, context) {
    const watching = config.globalConfig.watch || config.globalConfig.watchAll;
    const key = moduleLoading(config.projectConfig);
    const reused = ISOLATE || watching ? undefined : kept.get(key);
    if (reused) {
      reused.#beginFile();
      return reused;
    }
    super(config, context);
    keepWasmCompiled();
    started = this.#stops;
    if (ISOLATE || watching) return;
    this.keepsModules = true;
    this.#exit = this.global.process.exit;
    this.#env = { ...this.global.process.env };
    kept.set(key, this);
  }

  #beginFile() {
    started = this.#stops;
    this.global.process.exit = this.#exit;
    delete this.global[TEST_TIMEOUT];
    const env = this.global.process.env;
    for (const name of Object.keys(env)) if (!(name in this.#env)) delete env[name];
    Object.assign(env, this.#env);
  }

  async teardown() {
    for (const stop of this.#stops) stop();
    this.#stops.clear();
    if (started === this.#stops) started = undefined;
    releaseTestFunctions(this.global);
    // A kept environment stays set up for the worker's next file.
    if (!this.keepsModules) await super.teardown();
  }
}

/** Lets go of the functions of every test and hook in Jest's state for this file (see above). */
function releaseTestFunctions(global) {
  if (!global) return;
  const symbol = Object.getOwnPropertySymbols(global).find((s) => s.description === 'JEST_STATE_SYMBOL');
  const state = symbol && global[symbol];
  const visit = (block) => {
    for (const hook of block?.hooks ?? []) hook.fn = undefined;
    for (const child of block?.children ?? []) {
      if (child.type === 'describeBlock') visit(child);
      else child.fn = undefined;
    }
  };
  visit(state?.rootDescribeBlock);
}

module.exports = GatewayTestEnvironment;
