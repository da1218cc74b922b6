import type { ChangeEvent } from 'react';

/**
 * A list's merchant filter: every merchant by name, and "All merchants". A merchant id the list
 * was opened with (a link from elsewhere) but not among `merchants` is still offered, by its id.
 */
export function MerchantFilter({
  id,
  value,
  onChange,
  merchants,
}: {
  id: string;
  value: string;
  onChange: (event: ChangeEvent<HTMLSelectElement>) => void;
  merchants: readonly { id: string; name: string }[] | undefined;
}) {
  const known = (merchants ?? []).some((m) => m.id === value);
  return (
    <select id={id} value={value} onChange={onChange}>
      <option value="">All merchants</option>
      {value && !known && <option value={value}>{value}</option>}
      {(merchants ?? []).map((m) => (
        <option key={m.id} value={m.id}>
          {m.name}
        </option>
      ))}
    </select>
  );
}
