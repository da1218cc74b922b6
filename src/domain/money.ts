/**
 * Money is integer centavos inside the gateway; the API speaks decimal reais.
 * Integers keep sums and comparisons exact (0.1 + 0.2 is not 0.3 in floating point). Conversion
 * goes through the number's shortest decimal text, never through float arithmetic.
 */
const DECIMAL = /^(\d+)(?:\.(\d{1,2}))?$/;

/** Centavos for an amount in reais with at most two decimals, or undefined if it has more or is not finite. */
export function reaisToCents(amount: number): number | undefined {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0) return undefined;
  const match = DECIMAL.exec(String(amount));
  if (!match) return undefined;
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : undefined;
}

/** Reais as a JSON number: 1050 → 10.5. Exact for any safe integer of centavos. */
export function centsToReais(cents: number): number {
  return Number(`${Math.trunc(cents / 100)}.${String(Math.abs(cents % 100)).padStart(2, '0')}`);
}

/** Reais as the fixed two-decimal text the Pix standards use: 1050 → "10.50". */
export function centsToDecimalString(cents: number): string {
  return `${Math.trunc(cents / 100)}.${String(Math.abs(cents % 100)).padStart(2, '0')}`;
}

/** TypeORM transformer for `bigint` centavo columns (pg returns int8 as a string). */
export const bigintCents = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};
