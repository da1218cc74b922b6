// What `@electric-sql/pglite` resolves to in Jest's medium, e2e and browser projects (see pglite-snapshot.js).
module.exports = require('./pglite-snapshot').pgliteModule();
