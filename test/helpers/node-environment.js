// Jest's node environment for the specs that boot the app or its database (jest.config.js). Jest
// loads this file once per worker, outside the test files' module registries, so what it keeps
// lives for the whole worker: here, PostgreSQL's compiled WebAssembly (pglite-snapshot.js).
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

class GatewayTestEnvironment extends TestEnvironment {
  #stops = new Set();

  constructor(config, context) {
    super(config, context);
    keepWasmCompiled();
    started = this.#stops;
  }

  async teardown() {
    for (const stop of this.#stops) stop();
    this.#stops.clear();
    if (started === this.#stops) started = undefined;
    releaseTestFunctions(this.global);
    await super.teardown();
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
