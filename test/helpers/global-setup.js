// Runs once before the medium, e2e and browser projects: the embedded database's snapshot (pglite-snapshot.js).
module.exports = async function globalSetup() {
  await require('./pglite-snapshot').ensureSnapshot();
};
