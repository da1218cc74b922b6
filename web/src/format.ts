const money = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateTimeSeconds = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'medium' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const shortDay = new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric' });

export const formatMoney = (reais: number): string => money.format(reais);
export const formatDate = (iso: string | null | undefined): string => (iso ? dateTime.format(new Date(iso)) : '—');
export const formatDateOnly = (iso: string | null | undefined): string => (iso ? dateOnly.format(new Date(iso)) : '—');
export const formatDateSeconds = (iso: string | null | undefined): string => (iso ? dateTimeSeconds.format(new Date(iso)) : '—');
export const formatDay = (iso: string): string => shortDay.format(new Date(iso));
export const formatPercent = (ratio: number | null): string => (ratio === null ? '—' : `${(ratio * 100).toFixed(ratio > 0 && ratio < 0.01 ? 2 : 1)}%`);

/** CPF as 123.456.789-09, CNPJ as 12.345.678/0001-95. */
export function formatDocument(digits: string): string {
  if (/^\d{11}$/.test(digits)) return digits.replace(/(\d{3})(\d{3})(\d{3})(\d{2})/, '$1.$2.$3-$4');
  // A CNPJ: 12 letters or digits (letters since July 2026), then 2 check digits.
  if (/^[0-9A-Z]{12}\d{2}$/.test(digits)) return digits.replace(/(\w{2})(\w{3})(\w{3})(\w{4})(\d{2})/, '$1.$2.$3/$4-$5');
  return digits;
}

/** "in 5 min", "3 h ago": for delivery retry times. */
export function relative(iso: string): string {
  const seconds = Math.round((new Date(iso).getTime() - Date.now()) / 1000);
  const abs = Math.abs(seconds);
  // The unit is chosen by the rounded count, so a time 59.5 minutes away reads "1 h", never "60 min".
  const minutes = Math.round(abs / 60);
  const hours = Math.round(abs / 3600);
  const text = abs < 60 ? `${abs} s` : minutes < 60 ? `${minutes} min` : hours < 24 ? `${hours} h` : `${Math.round(abs / 86400)} d`;
  return seconds >= 0 ? `in ${text}` : `${text} ago`;
}

/** Local midnight of the day `date` is in. */
export function localMidnight(date = new Date()): Date {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate());
}

/** Decimal reais to integer centavos: sums of amounts are made in centavos, never in floating reais. */
export const toCents = (reais: number): number => Math.round(reais * 100);

/**
 * An amount an operator typed, as decimal reais: "3,50", "3.50", "R$ 1.234,56" or "1234.5". Undefined
 * for anything else, or more than two decimals (the API would refuse it).
 */
export function parseReais(text: string): number | undefined {
  let value = text.replace(/R\$|\s/g, '');
  // With a comma, it is the decimal mark and dots group thousands (pt-BR); without, a dot is the decimal mark.
  if (value.includes(',')) {
    if (!/^\d{1,3}(\.\d{3})*(,\d{1,2})?$|^\d+(,\d{1,2})?$/.test(value)) return undefined;
    value = value.replace(/\./g, '').replace(',', '.');
  } else if (!/^\d+(\.\d{1,2})?$/.test(value)) return undefined;
  return Number(value);
}
