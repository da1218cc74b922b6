/** How long a refund stays in process at the simulated PSP before it settles by itself, unless configured otherwise: long enough to see it pending. */
export const DEFAULT_SANDBOX_REFUND_DELAY_MS = 1_500;
const MAX_REFUND_DELAY_MS = 24 * 3600 * 1000;

/**
 * SANDBOX_REFUND_DELAY_MS: a whole number of milliseconds up to a day, or `manual` (null: only when
 * told). Read by the gateway when it serves the simulated PSP (sandbox-settings.ts) and by the PSP
 * run alone (src/sandbox-psp/standalone.ts).
 */
export function parseRefundDelay(raw: string | undefined, problems: string[]): number | null {
  const value = raw?.trim().toLowerCase();
  if (!value) return DEFAULT_SANDBOX_REFUND_DELAY_MS;
  if (value === 'manual') return null;
  if (/^\d+$/.test(value) && Number(value) <= MAX_REFUND_DELAY_MS) return Number(value);
  problems.push(`SANDBOX_REFUND_DELAY_MS must be a whole number of milliseconds up to ${MAX_REFUND_DELAY_MS}, or "manual".`);
  return DEFAULT_SANDBOX_REFUND_DELAY_MS;
}
