import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * No import cycle in src/, type-only imports included (docs/architecture.md, Layout). ESLint's
 * import-x/no-cycle passes over `import type`, so this reads every relative import of every
 * production file, whatever its kind, and looks for a circle.
 */
const SRC = resolve(__dirname, '..', '..', 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'testing' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The relative specifiers a text imports from, whatever the kind (`import`, `import type`, `export … from`). */
function specifiersIn(text: string): string[] {
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]!);
}

/** The files of src/ a file imports by relative path. */
function importsOf(file: string): string[] {
  return specifiersIn(readFileSync(file, 'utf8'))
    .map((specifier) => resolve(dirname(file), specifier.replace(/\.js$/, '')))
    .map((base) => [`${base}.ts`, join(base, 'index.ts')].find((candidate) => existsSync(candidate)))
    .filter((found): found is string => found !== undefined);
}

/** Each circle found in an import graph, as the files on it, by depth-first search. */
function cyclesIn(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string): void => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push([...stack.slice(stack.indexOf(next)), next].map((path) => relative(SRC, path)));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('import cycles in src/', () => {
  it('finds none, type-only imports included', () => {
    const files = sourceFiles(SRC);
    expect(cyclesIn(new Map(files.map((file) => [file, importsOf(file)])))).toEqual([]);
  });

  it('reads type-only imports and re-exports as edges, and finds a circle made of them', () => {
    expect(specifiersIn("import type { A } from './a';\nexport type { B } from '../b';\nimport { C } from 'c';\n")).toEqual(['./a', '../b']);
    expect(
      cyclesIn(
        new Map([
          [`${SRC}/a.ts`, [`${SRC}/b.ts`]],
          [`${SRC}/b.ts`, [`${SRC}/a.ts`]],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts', 'a.ts']]);
  });
});
