import { CopyButton } from '../ui';

/**
 * A public page's address (a payment's checkout page, a recurrence's authorization page, a payment
 * link): read-only text that selects itself on focus, a copy button, and a link that opens it in
 * a new tab, as the payer would see it.
 */
export function PublicLink({ id, label, url, what }: { id: string; label: string; url: string; /** For the open link's accessible name: "the checkout page". */ what: string }) {
  return (
    <div className="public-link">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <div className="link-row">
        <input id={id} className="mono" readOnly value={url} onFocus={(e) => e.currentTarget.select()} />
        <div className="button-pair">
          <CopyButton text={url} label="Copy link" />
          <a className="btn btn-secondary" href={url} target="_blank" rel="noopener noreferrer" aria-label={`Open ${what} in a new tab`}>
            Open ↗
          </a>
        </div>
      </div>
    </div>
  );
}
