import type { Messages } from './i18n';

const money = new Map<string, Intl.NumberFormat>();
const days = new Map<string, Intl.DateTimeFormat>();

/** Centavos as the payer's language writes reais: `R$ 1.234,56`, `R$1,234.56`. */
export function formatMoney(cents: number, m: Messages): string {
  let format = money.get(m.locale);
  if (!format) money.set(m.locale, (format = new Intl.NumberFormat(m.locale, { style: 'currency', currency: 'BRL' })));
  return format.format(cents / 100);
}

/** A calendar day (`YYYY-MM-DD`) in words: `10 de dezembro de 2026`, `December 10, 2026`. */
export function formatDay(day: string, m: Messages): string {
  let format = days.get(m.locale);
  if (!format) days.set(m.locale, (format = new Intl.DateTimeFormat(m.locale, { dateStyle: 'long', timeZone: 'UTC' })));
  return format.format(new Date(`${day}T12:00:00Z`));
}

/**
 * A payer's name as a public page may show it: the first name and the initial of the last, `Ana
 * S.`, so a forwarded link does not show whom it charges in full.
 */
export function maskName(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '';
  const first = words[0]!;
  if (words.length === 1) return first;
  const last = [...words[words.length - 1]!][0]!;
  return `${first} ${last.toUpperCase()}.`;
}

/** What is left until an instant, as the timer shows it: `59:07`, `1:02:03`, or `0:00` once past. */
export function formatTimeLeft(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const [h, min, s] = [Math.floor(total / 3600), Math.floor((total % 3600) / 60), total % 60];
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(min)}:${two(s)}` : `${min}:${two(s)}`;
}
