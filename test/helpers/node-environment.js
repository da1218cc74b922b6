// Jest's node environment for the specs that start the embedded database (jest.config.js). Jest
// loads this file once per worker, outside the test files' module registries, so what it keeps
// lives for the whole worker: here, PostgreSQL's compiled WebAssembly (pglite-snapshot.js).
const { TestEnvironment } = require('jest-environment-node');
const { keepWasmCompiled } = require('./pglite-snapshot');

class GatewayTestEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    keepWasmCompiled();
  }
}

module.exports = GatewayTestEnvironment;
