/** An optional timestamp as the API writes it: ISO 8601 in UTC, or null. */
export function isoOrNull(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}
