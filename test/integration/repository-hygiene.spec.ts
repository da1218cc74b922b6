import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The repository documents itself: code and tests explain their reasons in their own words, or
 * point into docs/. A comment citing a document that lives outside the repository (a contract, a
 * developers' guide, a design note on someone's disk) sends the next engineer to a file they do not
 * have, so none may come back.
 */
const ROOT = join(__dirname, '../..');
const SCANNED = ['src', 'test', 'migrations', 'bench', 'web/src', 'jest.config.js'];

// Built from parts so that this file does not match its own patterns.
const dot = '\\.';
const OUTSIDE_DOCUMENTS = new RegExp(
  [
    `contract${dot}md`,
    `DEVELOPERS${dot}md`,
    `SANDBOX_API${dot}md`,
    ['shared', 'spec'].join('\\/'),
    ['shared', 'design'].join('\\/'),
    ['gateway', 'spec'].join('-'),
    ['contract', 'section'].join('\\s+'),
    ['spec', 'section'].join('\\s+'),
    // The word spec or contract followed by a number: a numbered section of a document that is not here.
    `\\b(?:spec|contract)\\s+\\d`,
  ].join('|'),
  'i',
);

/** Tracked files, and new ones not yet committed (but not ignored ones such as node_modules or dist). */
function scannedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', ...SCANNED], { cwd: ROOT, encoding: 'utf8' });
  return [...new Set(out.split('\0').filter(Boolean))];
}

describe('repository hygiene', () => {
  it('finds the files it is meant to scan', () => {
    const files = scannedFiles();
    expect(files).toContain('src/app.ts');
    expect(files).toContain('jest.config.js');
    expect(files.some((file) => file.startsWith('migrations/'))).toBe(true);
    expect(files.some((file) => file.startsWith('test/e2e/'))).toBe(true);
  });

  it('recognises a citation of an outside document', () => {
    const cite = (words: string[]) => words.join(' ');
    expect(cite(['see', 'contract', 'section', '3'])).toMatch(OUTSIDE_DOCUMENTS);
    expect(cite(['(spec', '7)'])).toMatch(OUTSIDE_DOCUMENTS);
    expect(['DEVELOPERS', 'md'].join('.')).toMatch(OUTSIDE_DOCUMENTS);
    expect(['shared', 'design', 'embedded-database.md'].join('/')).toMatch(OUTSIDE_DOCUMENTS);
    expect('see docs/api.md, Idempotency').not.toMatch(OUTSIDE_DOCUMENTS);
    expect('the provider contract suite in test/providers').not.toMatch(OUTSIDE_DOCUMENTS);
  });

  it('has no file under src/, test/, migrations/, bench/ or web/src/ that cites a document outside the repository', () => {
    const citations: string[] = [];
    for (const file of scannedFiles()) {
      let text: string;
      try {
        text = readFileSync(join(ROOT, file), 'utf8');
      } catch {
        continue; // listed by git but deleted in the working tree
      }
      if (text.includes('\0')) continue; // binary
      text.split('\n').forEach((line, index) => {
        if (OUTSIDE_DOCUMENTS.test(line)) citations.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    expect(citations).toEqual([]);
  });
});

/**
 * Persistence lives in repositories (docs/architecture.md, Persistence): each table's queries in its
 * `*.repository.ts`, the data source's plumbing in src/database/. A service, controller or job that
 * writes SQL, or reaches for TypeORM's query APIs, puts a table's rules where nobody looks for them.
 * Services may still open a transaction and hand it to repository methods.
 */
describe('persistence layering', () => {
  const SQL_OUTSIDE_REPOSITORIES =
    /\bsqlRows\(|\bsqlEntities\(|\.query\(|createQueryBuilder\(|getRepository\(|\b(?:SELECT\s+[\w*(]|INSERT\s+INTO|DELETE\s+FROM|UPDATE\s+\w+\s+SET)\b/;
  const sourceFiles = () => scannedFiles().filter((file) => file.startsWith('src/') && file.endsWith('.ts') && !file.endsWith('.spec.ts'));

  it('recognises SQL and query APIs', () => {
    expect("await this.dataSource.query('SELECT 1')").toMatch(SQL_OUTSIDE_REPOSITORIES);
    expect('`UPDATE payments SET status = $2`').toMatch(SQL_OUTSIDE_REPOSITORIES);
    expect('await this.payments.lockForProviderEvent(tx, provider, ref)').not.toMatch(SQL_OUTSIDE_REPOSITORIES);
  });

  it('keeps SQL in repositories and src/database/', () => {
    const offending = sourceFiles()
      .filter((file) => !file.endsWith('.repository.ts') && !file.startsWith('src/database/'))
      .flatMap((file) =>
        readFileSync(join(ROOT, file), 'utf8')
          .split('\n')
          .map((line, index) => ({ line, at: `${file}:${index + 1}` }))
          .filter(({ line }) => SQL_OUTSIDE_REPOSITORIES.test(line) && !/^\s*(\/\/|\*)/.test(line))
          .map(({ at, line }) => `${at}: ${line.trim()}`),
      );
    expect(offending).toEqual([]);
  });

  it('keeps src/database/ beneath the features: it imports only config and common', () => {
    const upward = sourceFiles()
      .filter((file) => file.startsWith('src/database/'))
      .flatMap((file) =>
        [...readFileSync(join(ROOT, file), 'utf8').matchAll(/from '(\.\.\/[^']+)'/g)]
          .map((match) => match[1]!)
          .filter((path) => !/^\.\.\/(config|common)\//.test(path) && !path.startsWith('../../migrations'))
          .map((path) => `${file} imports ${path}`),
      );
    expect(upward).toEqual([]);
  });
});
