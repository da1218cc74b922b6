import { AppError } from '../errors/app-error';

/**
 * Opaque keyset cursors for lists ordered by (created_at DESC, id DESC): stable under inserts,
 * unlike offsets, and each page is one index range scan. The position keeps created_at to the
 * microsecond, timestamptz's precision: a cursor rounded to a JavaScript Date's milliseconds
 * would skip rows created within the same millisecond as a page's last row, which is common
 * under load.
 */
export interface CursorPosition {
  /** created_at in whole microseconds since the epoch, as text (int8). */
  createdUs: string;
  id: string;
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** SQL selecting a timestamptz column as the cursor's exact microseconds (select it `AS created_us`). */
export function microsecondsSql(column: string): string {
  return `(extract(epoch FROM ${column}) * 1000000)::bigint::text`;
}

/** SQL condition "after the cursor" in (created_at DESC, id DESC) order, given the two parameter placeholders. */
export function afterCursorSql(createdAtColumn: string, idColumn: string, createdUsParam: string, idParam: string): string {
  return `(${createdAtColumn}, ${idColumn}) < (timestamptz 'epoch' + ${createdUsParam}::bigint * interval '1 microsecond', ${idParam})`;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`${position.createdUs}|${position.id}`, 'utf8').toString('base64url');
}

const CURSOR_SHAPE = /^(\d{1,17})\|([A-Za-z0-9_]{1,64})$/;

export function decodeCursor(cursor: string): CursorPosition {
  const match = CURSOR_SHAPE.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw AppError.validation([{ field: 'cursor', message: 'cursor is not a cursor this API returned' }]);
  return { createdUs: match[1]!, id: match[2]! };
}

/** The page of `limit` rows out of `limit + 1` fetched, and the cursor to the next one. */
export function toPage<R extends { created_us: string; id: string }, T>(rows: R[], limit: number, view: (row: R) => T): Page<T> {
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return { items: page.map(view), next_cursor: rows.length > limit && last ? encodeCursor({ createdUs: last.created_us, id: last.id }) : null };
}
