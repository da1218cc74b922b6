import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/load-config';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { apiDocument } = require('../../scripts/api-types.js') as { apiDocument: (create: typeof createApp, load: typeof loadConfig) => Promise<unknown> };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { OUTPUT } = require('../../scripts/sdk-generate.js') as { OUTPUT: string };

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'sdk-generate.js');

/** Every file under `dir`, by its path relative to `dir`, with its text. */
function files(dir: string): Record<string, string> {
  const entries = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return Object.fromEntries(entries.map((entry) => [relative(dir, join(entry.parentPath, entry.name)), readFileSync(join(entry.parentPath, entry.name), 'utf8')]));
}

describe('sdk/src/generated', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('is what `npm run sdk:generate` generates from the current OpenAPI document', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sdk-generated-'));
    dirs.push(dir);
    writeFileSync(join(dir, 'document.json'), JSON.stringify(await apiDocument(createApp, loadConfig)));
    // The generator is an ES module the script loads itself: run as `npm run sdk:generate` runs it.
    await promisify(execFile)(process.execPath, [SCRIPT, '--document', join(dir, 'document.json'), '--out', join(dir, 'generated')]);
    // When this fails: run `npm run sdk:generate` and commit sdk/src/generated.
    expect(files(OUTPUT)).toEqual(files(join(dir, 'generated')));
  });
});
