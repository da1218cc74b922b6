// Test apps start the embedded database from a snapshot of a freshly initialised PGlite cluster
// instead of running initdb each time: initdb takes seconds of CPU per boot (most of an embedded
// app's start-up), loading the snapshot well under one. The snapshot is taken before any migration,
// so every boot still runs the gateway's migrations on an empty database. Production code is
// unchanged; only tests load PGlite through here (jest.config.js maps the package to
// pglite-mapped.js; gateway processes started by tests preload pglite-preload.js).
//
// Loading costs in proportion to the cluster's size and its shared memory, so the tests' cluster is
// a smaller one than a default initdb makes (CLUSTER below; none of it changes what SQL does): 1 MB
// WAL segments instead of 16 MB (the snapshot holds a whole segment), 16 MB of shared buffers
// instead of 128 MB (allocated and cleared on every boot; a test's data fits many times over), and
// no template0 (only CREATE DATABASE … TEMPLATE template0 reads it, which the gateway never runs).
// Together they take a boot from about 0.37 to 0.22 s of CPU.
const { createHash } = require('node:crypto');
const { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

const ROOT = join(__dirname, '..', '..');
// The package's CommonJS entry by path: inside Jest, requiring the package by name comes back here.
const PACKAGE = join(ROOT, 'node_modules', '@electric-sql', 'pglite');
const { version: VERSION, exports: EXPORTS } = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8'));
const REAL_PATH = join(PACKAGE, EXPORTS['.'].require.default);
const CLUSTER = {
  initdb: ['--wal-segsize=1'],
  sql: ["ALTER SYSTEM SET shared_buffers = '16MB'", "UPDATE pg_database SET datistemplate = false WHERE datname = 'template0'", 'DROP DATABASE template0'],
};
// Named after the PGlite version and the recipe above: a change to either makes a new snapshot.
const RECIPE = createHash('sha256').update(JSON.stringify(CLUSTER)).digest('hex').slice(0, 12);
const SNAPSHOT = join(ROOT, 'node_modules', '.cache', 'pix-gateway-tests', `pglite-${VERSION}-initdb-${RECIPE}.tar`);

/** Makes the snapshot once per PGlite version and recipe (Jest's globalSetup calls this before any test). */
async function ensureSnapshot() {
  if (existsSync(SNAPSHOT)) return;
  const { PGlite } = require(REAL_PATH);
  const pglite = new PGlite({ initDbStartParams: CLUSTER.initdb });
  await pglite.waitReady;
  for (const statement of CLUSTER.sql) await pglite.exec(statement);
  const tarball = await pglite.dumpDataDir('none');
  await pglite.close();
  mkdirSync(dirname(SNAPSHOT), { recursive: true });
  // Written aside and renamed, so a concurrent run never reads half a file.
  const partial = `${SNAPSHOT}.${process.pid}`;
  writeFileSync(partial, Buffer.from(await tarball.arrayBuffer()));
  renameSync(partial, SNAPSHOT);
}

/**
 * The snapshot as PGlite reads it (it only calls arrayBuffer()): a Blob of it would be read back in
 * 64 KiB chunks and joined, about 150 ms of CPU per boot for 23 MB. Here the file is read once per
 * module instance (in Jest, once per test file) and each boot gets a plain copy of its bytes (about
 * 50 ms of CPU in a test file, measured), so no boot can see another's changes.
 */
let snapshotBytes;
function snapshotTarball() {
  snapshotBytes ??= readFileSync(SNAPSHOT);
  const bytes = snapshotBytes;
  return { type: 'application/x-tar', size: bytes.length, arrayBuffer: async () => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) };
}

/** The PGlite module with its class starting new clusters from the snapshot (when there is one). */
function pgliteModule(real = require(REAL_PATH)) {
  class PGlite extends real.PGlite {
    constructor(dataDirOrOptions, options) {
      const opts = typeof dataDirOrOptions === 'string' ? { ...options, dataDir: dataDirOrOptions } : { ...dataDirOrOptions };
      const dir = opts.dataDir;
      const inMemory = !dir || dir.startsWith('memory://');
      // A data directory that already holds a cluster opens as it is (PGlite refuses to load over it).
      const fresh = inMemory || !existsSync(join(dir, 'PG_VERSION'));
      if (fresh && !opts.loadDataDir && existsSync(SNAPSHOT)) opts.loadDataDir = snapshotTarball();
      super(opts);
    }
  }
  return { ...real, PGlite };
}

module.exports = { ensureSnapshot, pgliteModule, REAL_PATH, SNAPSHOT };
