import type { ProviderDescriptor } from '../types';

/**
 * Whether a provider offers due-date charges and batches of them, as its catalogue entry declares
 * (`GET /admin/api/providers`, docs/due-charges.md), with the page that says so: routing skips an
 * account without due-date charges for a payment with `due`, and a batch goes to a provider without
 * batches as one create per charge.
 */

function hostOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return url;
  }
}

/** A declaration's source: a PSP's public page as a link, a page of this repository as its path. */
export function SourceLink({ source }: { source: string }) {
  if (source.startsWith('https://')) {
    return (
      <a href={source} target="_blank" rel="noreferrer" title={source}>
        {hostOf(source)}
      </a>
    );
  }
  return <span className="mono small">{source}</span>;
}

/** The two rows of a provider's field list: due-date charges, and batches. Nothing while the catalogue is loading. */
export function DueCapabilityRows({ provider }: { provider: ProviderDescriptor | undefined }) {
  if (!provider) return null;
  const { due_charges: due, charge_batches: batches } = provider.capabilities;
  return (
    <>
      <dt>Due-date charges</dt>
      <dd className="prose" data-testid="capability-due-charges">
        {due ? (
          <>
            Offered{' '}
            <span className="muted small">
              (stated at <SourceLink source={due.source} />)
            </span>
          </>
        ) : (
          <span className="muted">Not offered: payments with a due date are routed to other accounts.</span>
        )}
      </dd>
      <dt>Batches</dt>
      <dd className="prose" data-testid="capability-charge-batches">
        {batches ? (
          <>
            Up to {batches.max_charges.toLocaleString('en')} charges a request{' '}
            <span className="muted small">
              (stated at <SourceLink source={batches.source} />)
            </span>
          </>
        ) : due ? (
          <span className="muted">Not offered: a batch is sent as one create per charge.</span>
        ) : (
          <span className="muted">Not offered.</span>
        )}
      </dd>
    </>
  );
}
