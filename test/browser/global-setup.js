// Runs once before the browser tests: Chromium must be there (in CI its absence is a failure, not
// a skip), the dashboard is built from the current web/ sources so the tests never drive a stale
// bundle, and the embedded database's snapshot exists (test/helpers/global-setup.js).
const { execFileSync } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');

module.exports = async function globalSetup() {
  await require('../helpers/global-setup')();
  const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    throw new Error(`Browser tests need Chromium at ${chromium}: install it (apt-get install -y chromium) or set CHROMIUM_PATH.`);
  }
  const root = join(__dirname, '..', '..');
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--config', join(root, 'web', 'vite.config.mjs')], {
    cwd: root,
    // Jest sets NODE_ENV=test, which would give React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
};
