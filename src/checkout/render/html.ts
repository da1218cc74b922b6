/** Markup already escaped: what `markup` builds, and the only thing it inserts without escaping. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for an element's content and for a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/**
 * A template of markup whose every interpolated value is escaped, unless it is Html already (a
 * nested template); arrays are joined, and null, undefined and false are left out. Nothing a
 * merchant or a payer typed can become markup on a page.
 */
export function markup(strings: TemplateStringsArray, ...values: Piece[]): Html {
  let out = strings[0]!;
  values.forEach((value, i) => (out += piece(value) + strings[i + 1]!));
  return new Html(out);
}

/** What a template may hold: markup, text and numbers, lists of them, and nothing (left out). */
export type Piece = Html | string | number | boolean | null | undefined | readonly Piece[];

function piece(value: Piece): string {
  if (value instanceof Html) return value.text;
  if (isList(value)) return value.map(piece).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

function isList(value: Piece): value is readonly Piece[] {
  return Array.isArray(value);
}
