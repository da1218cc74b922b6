import { formatDateOnly } from '../format';
import type { ProviderAccountCheck } from '../types';
import { Badge } from '../ui';

/** How an account stands, each on one line of its list row or page: its certificate's end of validity, and a check's outcome. */

const DAY_MS = 86_400_000;
export const EXPIRY_WARNING_DAYS = 30;

/** Days until `iso` (negative once past), and whether that calls for a warning: within 30 days, or past. */
export function certificateExpiry(iso: string, now = Date.now()): { days: number; state: 'ok' | 'soon' | 'expired' } {
  const left = new Date(iso).getTime() - now;
  const days = Math.floor(left / DAY_MS);
  return { days, state: left <= 0 ? 'expired' : left <= EXPIRY_WARNING_DAYS * DAY_MS ? 'soon' : 'ok' };
}

/** The certificate's end of validity, with a warning badge when it is near or past. */
export function CertificateExpiry({ iso }: { iso: string | null }) {
  if (!iso) return <span className="muted">—</span>;
  const { days, state } = certificateExpiry(iso);
  return (
    <span className="cert-expiry">
      <span>{formatDateOnly(iso)}</span> {state === 'expired' && <Badge value="failed" label="expired" />}
      {state === 'soon' && <Badge value="pending" label={days === 0 ? 'expires today' : `expires in ${days} day${days === 1 ? '' : 's'}`} />}
    </span>
  );
}

/** A check's outcome on one line: whether it worked, how long it took, and what the PSP said. */
export function CheckResult({ result }: { result: ProviderAccountCheck }) {
  return (
    <span className="check-result">
      <Badge value={result.ok ? 'active' : 'failed'} label={result.ok ? 'ok' : 'failed'} /> <span className="muted small">{result.latency_ms} ms</span>
      {result.detail && <span className="check-detail small">{result.detail}</span>}
    </span>
  );
}
