// Jest's module runtime (jest-runtime), with one change: a package that ships only ES modules and
// that jest.config.js has SWC turn into CommonJS is loaded as that CommonJS, not as an ES module.
//
// Why: on Node 24.9+ Jest loads such packages (NestJS and a few others) natively as ES modules, and
// Node keeps every ES module a test file loaded for as long as the worker lives, with everything it
// references, the booted app included: a worker's heap grew by about 30 MB a file, past 1 GB by the
// end of a run, and garbage collection took longer and longer. As CommonJS they go with the test
// file's module registry, as our own sources do. (On older Node, Jest always took the CommonJS way:
// see the transform in jest.config.js.) Only Jest's runtime changes; the gateway itself never runs
// through here.
//
// It reaches into jest-runtime's internals (its `_resolution` object); if a later Jest renames them,
// this falls back to Jest's own behaviour rather than failing.
const Runtime = require('jest-runtime').default;

class TestRuntime extends Runtime {
  constructor(config, ...rest) {
    super(config, ...rest);
    const resolution = this._resolution;
    if (!resolution || typeof resolution.shouldLoadAsEsm !== 'function') return;
    const ignored = (config.transformIgnorePatterns ?? []).map((pattern) => new RegExp(pattern));
    const shouldLoadAsEsm = resolution.shouldLoadAsEsm.bind(resolution);
    // A .js file under node_modules that the transform does not skip comes out of SWC as CommonJS.
    resolution.shouldLoadAsEsm = (path) => (path.includes('/node_modules/') && path.endsWith('.js') && !ignored.some((re) => re.test(path)) ? false : shouldLoadAsEsm(path));
  }
}

module.exports = TestRuntime;
