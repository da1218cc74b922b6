import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/load-config';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { apiDocument } = require('../../scripts/api-types.js') as { apiDocument: (create: typeof createApp, load: typeof loadConfig) => Promise<unknown> };

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const bin = (name: string) => join(ROOT, 'node_modules', '.bin', name);

/** The warnings docs/api.md justifies, by rule id: its "Lint warnings kept" list. */
function justifiedWarnings(): string[] {
  const text = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
  const section = /### Lint warnings kept\n([\s\S]*?)(\n#|$)/.exec(text)?.[1] ?? '';
  return [...section.matchAll(/^- `([a-z0-9$.-]+)`/gm)].map((match) => match[1]!);
}

interface Finding {
  tool: string;
  rule: string;
  severity: 'error' | 'warning';
  where: string;
  message: string;
}

async function spectral(file: string): Promise<Finding[]> {
  // Spectral exits non-zero when it finds errors; its JSON is on stdout either way.
  const { stdout } = await run(bin('spectral'), ['lint', file, '-r', join(ROOT, '.spectral.yaml'), '-f', 'json', '-q', '--fail-severity', 'hint'], { maxBuffer: 1 << 26 }).catch(
    (error: { stdout: string }) => error,
  );
  const results = JSON.parse(stdout || '[]') as { code: string; severity: number; path: string[]; message: string }[];
  return results
    .filter((result) => result.severity <= 1)
    .map((result) => ({ tool: 'spectral', rule: result.code, severity: result.severity === 0 ? 'error' : 'warning', where: result.path.join('.'), message: result.message }));
}

async function redocly(file: string): Promise<Finding[]> {
  const { stdout } = await run(bin('redocly'), ['lint', file, '--config', join(ROOT, 'redocly.yaml'), '--format', 'json'], { maxBuffer: 1 << 26 }).catch(
    (error: { stdout: string }) => error,
  );
  const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as { problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[] };
  return report.problems.map((problem) => ({
    tool: 'redocly',
    rule: problem.ruleId,
    severity: problem.severity === 'error' ? 'error' : 'warning',
    where: problem.location[0]?.pointer ?? '',
    message: problem.message,
  }));
}

/** The served document, linted as a merchant's tools would lint it: Spectral's spectral:oas, Redocly's recommended. */
describe('The OpenAPI document under Spectral and Redocly', () => {
  let findings: Finding[];
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  beforeAll(async () => {
    const file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(await apiDocument(createApp, loadConfig)));
    findings = [...(await spectral(file)), ...(await redocly(file))];
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('has no error', () => {
    expect(findings.filter((finding) => finding.severity === 'error')).toEqual([]);
  });

  it('has no warning that docs/api.md does not justify', () => {
    const justified = new Set(justifiedWarnings());
    expect(findings.filter((finding) => finding.severity === 'warning' && !justified.has(finding.rule))).toEqual([]);
  });
});
