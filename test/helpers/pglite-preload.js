// Preloaded (node --require) into gateway processes that tests start: the built gateway's
// require('@electric-sql/pglite') then gets the class that starts from the snapshot (see pglite-snapshot.js).
const { pgliteModule, REAL_PATH } = require('./pglite-snapshot');

const real = require(REAL_PATH);
require.cache[REAL_PATH].exports = pgliteModule(real);
