import { findInputProblems, MAX_JSON_DEPTH } from './input-limits';

describe('findInputProblems', () => {
  const nest = (levels: number): unknown => (levels === 0 ? 'x' : [nest(levels - 1)]);

  it('accepts ordinary bodies, and tab, CR and LF in a description', () => {
    expect(findInputProblems({ name: 'Loja da Ana', description: 'linha 1\r\n\tlinha 2', items: [{ description: 'a\nb' }], n: 1, ok: true, none: null })).toEqual([]);
  });

  it('names every field holding a control character, nested ones by their path', () => {
    expect(findInputProblems({ a: 'x\u0000', b: { c: ['ok', 'y\u007f'] }, description: 'z\u0007', d: 'tab\there' })).toEqual([
      { field: 'a', message: 'a must not contain control characters' },
      { field: 'b.c[1]', message: 'b.c[1] must not contain control characters' },
      { field: 'description', message: 'description must not contain control characters other than tab, CR and LF' },
      { field: 'd', message: 'd must not contain control characters' },
    ]);
  });

  it('refuses unpaired surrogates and bad field names, but not emoji', () => {
    expect(findInputProblems({ a: 'ok 😀', b: 'x\ud800' })).toEqual([{ field: 'b', message: 'b must be valid Unicode text' }]);
    expect(findInputProblems({ data: { 'k\u0000': 1 } })).toEqual([{ field: 'data', message: 'data has a field name with control characters or invalid Unicode' }]);
  });

  it(`allows ${MAX_JSON_DEPTH} levels of nesting and refuses more, naming the top-level field`, () => {
    // The body is level 1.
    expect(findInputProblems({ a: nest(MAX_JSON_DEPTH - 1) })).toEqual([]);
    expect(findInputProblems({ a: nest(MAX_JSON_DEPTH) })).toEqual([{ field: 'a', message: `a is nested deeper than ${MAX_JSON_DEPTH} levels` }]);
    expect(findInputProblems(nest(MAX_JSON_DEPTH + 5))).toEqual([{ field: 'body', message: `body is nested deeper than ${MAX_JSON_DEPTH} levels` }]);
  });

  it('reports at most 20 problems, and names a query by its parameters', () => {
    expect(findInputProblems(Array.from({ length: 500 }, () => '\u0000'))).toHaveLength(20);
    expect(findInputProblems({ q: 'a\u0000' }, 'query')).toEqual([{ field: 'q', message: 'q must not contain control characters' }]);
    expect(findInputProblems(undefined)).toEqual([]);
  });
});
