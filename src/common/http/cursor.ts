import { AppError } from '../errors/app-error';

/**
 * Opaque keyset cursors for lists ordered by (created_at DESC, id DESC): stable under inserts,
 * unlike offsets, and each page is one index range scan.
 */
export interface CursorPosition {
  createdAt: Date;
  id: string;
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(`${position.createdAt.toISOString()}|${position.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): CursorPosition {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(iso ?? '');
  if (!id || Number.isNaN(createdAt.getTime())) throw AppError.validation([{ field: 'cursor', message: 'cursor is not a cursor this API returned' }]);
  return { createdAt, id };
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}
