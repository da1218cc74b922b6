// A leaf of its own: both wire files read amounts, and sandbox-api.ts imports sandbox-due-api.ts's types.

const DECIMAL_AMOUNT = /^(\d{1,10})\.(\d{2})$/;

/** Centavos for a wire amount ("10.50"), or undefined when it is not a two-place decimal. */
export function wireAmountToCents(amount: string): number | undefined {
  const match = DECIMAL_AMOUNT.exec(amount);
  return match ? Number(match[1]) * 100 + Number(match[2]) : undefined;
}
