import { screen, within } from '@testing-library/react';

/** The text of each cell of each body row of the table (named `name`, if given), as the operator reads it. */
export function tableRows(name?: string | RegExp): string[][] {
  const rows = within(screen.getByRole('table', name === undefined ? {} : { name }))
    .getAllByRole('row')
    .slice(1);
  return rows.map((row) =>
    within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent ?? ''),
  );
}

/** Opens the dashboard at `path` (the pages read their filters and cursors from the URL). */
export function visit(path: string): void {
  history.replaceState(null, '', path);
}
