#!/usr/bin/env node
// `npm start`: builds only when the build is missing or older than its inputs, then runs the gateway
// in this process (so SIGTERM and SIGINT reach its own graceful shutdown). A current build starts in
// about a second instead of waiting for tsc and Vite. `node scripts/start.js --stamp` only records
// that the build is current (`npm run build` ends with it).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
/** What the build reads: the TypeScript (tsconfig.build.json), the dashboard, and the settings of both. */
const INPUTS = ['src', 'migrations', 'bench', 'web', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];
/** What the gateway needs from the build. */
const OUTPUTS = ['dist/src/main.js', 'dist/web/index.html'];
const STAMP = 'dist/.build-stamp';

/** The latest modification time (ms) of a file or of any file under a folder; 0 when absent. */
function newestMtime(file) {
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(file)) {
    if (entry === 'node_modules') continue;
    newest = Math.max(newest, newestMtime(path.join(file, entry)));
  }
  return newest;
}

/** Whether `root` has a build that is newer than every input of it. */
function buildIsCurrent(root = ROOT) {
  if (!OUTPUTS.every((output) => fs.existsSync(path.join(root, output)))) return false;
  const stamp = newestMtime(path.join(root, STAMP));
  if (stamp === 0) return false;
  return INPUTS.every((input) => newestMtime(path.join(root, input)) <= stamp);
}

/** Records that the build in `root` is current as of `at` (when the build started, so edits made during it still count). */
function stamp(root = ROOT, at = new Date()) {
  const file = path.join(root, STAMP);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${at.toISOString()}\n`);
  fs.utimesSync(file, at, at);
}

module.exports = { buildIsCurrent, stamp, INPUTS, OUTPUTS, STAMP };

if (require.main === module) {
  if (process.argv.includes('--stamp')) {
    stamp();
  } else {
    if (!buildIsCurrent()) {
      console.log('npm start: the build is missing or older than the sources; building');
      const started = new Date();
      const npm = process.env.npm_execpath;
      // Under npm, npm_execpath is npm's own CLI script; run it with this Node.
      if (npm) execFileSync(process.execPath, [npm, 'run', 'build'], { cwd: ROOT, stdio: 'inherit' });
      else execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' });
      stamp(ROOT, started);
    }
    require(path.join(ROOT, 'dist', 'src', 'main.js'));
  }
}
