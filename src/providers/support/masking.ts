/**
 * A payer's document as the gateway may show it: never whole.
 *
 * - CPF (11 digits): the six middle digits stay, as Brazil's public registers print a CPF
 *   (`123.456.789-09` → `***.456.789-**`): the first three and the two check digits go.
 * - CNPJ (14 characters, digits or, from 2026, letters): the same rule, middle only: the first two
 *   and the two check digits go (`12.345.678/0001-95` → `**.345.678/0001-**`).
 * - Anything else: `***`, nothing of it kept.
 *
 * Punctuation in the input is ignored.
 */
export function maskDocument(document: string): string {
  const plain = document.replace(/[.\-/\s]/g, '').toUpperCase();
  if (/^\d{11}$/.test(plain)) return `***.${plain.slice(3, 6)}.${plain.slice(6, 9)}-**`;
  if (/^[0-9A-Z]{12}\d{2}$/.test(plain)) return `**.${plain.slice(2, 5)}.${plain.slice(5, 8)}/${plain.slice(8, 12)}-**`;
  return '***';
}
