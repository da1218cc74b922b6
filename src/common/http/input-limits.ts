import type { FieldError } from '../errors/app-error';

/** Deepest nesting of objects and arrays a request body may have (the body itself is level 1). */
export const MAX_JSON_DEPTH = 32;

/** Most field problems reported for one request; a hostile body could otherwise name thousands. */
const MAX_PROBLEMS = 20;

/**
 * Fields whose text may span lines: tab, CR and LF are allowed there, and nowhere else. PEM
 * certificates and keys (provider account credentials) are lines of base64 by definition.
 */
export const MULTILINE_FIELDS: ReadonlySet<string> = new Set(['description', 'certificate_pem', 'private_key_pem', 'ca_pem']);

// U+0000–U+001F and U+007F. PostgreSQL's text and jsonb cannot hold NUL at all, and the others have
// no business in names, ids or keys; they are refused at the door rather than failing (or being
// stored) further in.
const CONTROL = /[\x00-\x1f\x7f]/;
const CONTROL_BUT_WHITESPACE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;
/** The same rules as JSON Schema patterns, for the API document: text of one line, text of several. */
export const TEXT_PATTERN = '^[^\\u0000-\\u001F\\u007F]*$';
/** Text the gateway trims before it checks its length: at least one character that is not white space. */
export const NON_BLANK_TEXT_PATTERN = '^[^\\u0000-\\u001F\\u007F]*[^\\u0000-\\u001F\\u007F\\s][^\\u0000-\\u001F\\u007F]*$';
export const MULTILINE_TEXT_PATTERN = '^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F]*$';
/** An unpaired surrogate (in `u` mode a pair is one code point and does not match). */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * What is wrong with a parsed request body or query, before any handler sees it: nesting deeper
 * than MAX_JSON_DEPTH, control characters in any string or field name, and text that is not valid
 * Unicode (an unpaired surrogate, which `\ud800` in JSON produces and jsonb refuses). One entry per
 * bad field, named by its path (`data.id`, `items[2]`); empty when the input is fine.
 */
export function findInputProblems(value: unknown, root = 'body'): FieldError[] {
  const problems: FieldError[] = [];
  visit(value, '', 1, root, problems);
  return problems;
}

function visit(value: unknown, path: string, depth: number, root: string, problems: FieldError[]): void {
  if (problems.length >= MAX_PROBLEMS) return;
  if (typeof value === 'string') {
    const problem = textProblem(value, lastName(path));
    if (problem) problems.push({ field: path || root, message: `${path || root} ${problem}` });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (depth > MAX_JSON_DEPTH) {
    // Named by the top-level field it sits in: the full path of a 40-level array says nothing more.
    const field = topLevel(path) || root;
    problems.push({ field, message: `${field} is nested deeper than ${MAX_JSON_DEPTH} levels` });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => visit(item, `${path}[${index}]`, depth + 1, root, problems));
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    if (CONTROL.test(key) || LONE_SURROGATE.test(key)) {
      const field = path || root;
      problems.push({ field, message: `${field} has a field name with control characters or invalid Unicode` });
      if (problems.length >= MAX_PROBLEMS) return;
      continue;
    }
    visit(item, path ? `${path}.${key}` : key, depth + 1, root, problems);
  }
}

function textProblem(text: string, name: string): string | null {
  const forbidden = MULTILINE_FIELDS.has(name) ? CONTROL_BUT_WHITESPACE : CONTROL;
  if (forbidden.test(text)) {
    return MULTILINE_FIELDS.has(name) ? 'must not contain control characters other than tab, CR and LF' : 'must not contain control characters';
  }
  if (LONE_SURROGATE.test(text)) return 'must be valid Unicode text';
  return null;
}

/** `data.items[2].name` → `name`; `tags[0]` → `tags`. */
function lastName(path: string): string {
  const withoutIndexes = path.replace(/(\[\d+\])+$/, '');
  return withoutIndexes.slice(withoutIndexes.lastIndexOf('.') + 1);
}

function topLevel(path: string): string {
  return /^[^.[]*/.exec(path)![0];
}
