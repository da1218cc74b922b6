#!/usr/bin/env node
// `npm start`: runs the built gateway, building first only when there is no build (`npm run build`
// after a change; `npm run start:dev` rebuilds on every change). The gateway runs in this process,
// so SIGTERM and SIGINT reach its own graceful shutdown (with WORKERS > 1 this process is the cluster
// primary, which has its workers shut down; they run dist/src/main.js themselves, not this script).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
/** What the gateway needs from the build: its code and the dashboard it serves. */
const OUTPUTS = ['dist/src/main.js', 'dist/web/index.html'];

/** Whether `root` has a build to run. */
function buildExists(root = ROOT) {
  return OUTPUTS.every((output) => fs.existsSync(path.join(root, output)));
}

module.exports = { buildExists, OUTPUTS };

if (require.main === module) {
  if (!buildExists()) {
    console.log('npm start: there is no build; building');
    const npm = process.env.npm_execpath;
    // Under npm, npm_execpath is npm's own CLI script; run it with this Node.
    if (npm) execFileSync(process.execPath, [npm, 'run', 'build'], { cwd: ROOT, stdio: 'inherit' });
    else execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
  }
  require(path.join(ROOT, 'dist', 'src', 'main.js'));
}
