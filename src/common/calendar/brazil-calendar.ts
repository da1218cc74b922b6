import type Holidays from 'date-holidays';
import type { BusinessCalendar } from '../../domain/due-charge';

/*
 * Brazil's business days for due-date charges: not a Saturday, a Sunday, nor a day the banks close
 * nationwide. Holidays come from date-holidays' dataset (offline, no network at run time), not a
 * hand-kept list: its `public` holidays (the national ones, Good Friday and, from 2024, 20 November
 * included) and its `bank` ones, Carnival Monday and Tuesday and Corpus Christi. Those two are
 * optional days off by federal law but not business days in the financial market's national calendar
 * (ANBIMA, https://www.anbima.com.br/feriados/feriados.asp) nor for the banks (FEBRABAN: no banking on
 * Carnival Monday and Tuesday, https://valor.globo.com/financas/noticia/2022/02/18/bancos-nao-terao-expediente-durante-feriado-do-carnaval.ghtml;
 * bills due on Corpus Christi paid the next business day without surcharge,
 * https://jc.ne10.uol.com.br/dinheiro/2024/05/30/os-bancos-abrem-no-dia-31-de-maio-de-2024-saiba-se-e-feriado-bancario.html),
 * and the Pix rule that interest does not run on a non-business day is the banking law's
 * (https://github.com/bacen/pix-api/issues/109). Ash Wednesday and 24 and 31 December are business
 * days (the dataset's `optional`; the BCB's own example counts 2020-12-31 as payable, `calendario.validadeAposVencimento`
 * in https://github.com/bacen/pix-api/blob/1f1b568f6adf5b55a6268efbaf62802a14b01941/openapi.yaml).
 * State and municipal holidays are not counted: the gateway does not know the payer's town.
 */

const NON_BUSINESS_TYPES: ReadonlySet<string> = new Set(['public', 'bank']);

/**
 * date-holidays, loaded on the first question: it brings every country's rules and the calendars
 * they need (about 30 MB of a process's memory), which a gateway that never sees a due-date charge
 * should not carry. Synchronous, as a payment's view is.
 */
function brazilHolidays(): Holidays {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a synchronous load on first use (see above); import() would make every view async
  const HolidaysOf = require('date-holidays') as typeof Holidays;
  return new HolidaysOf('BR', { types: ['public', 'bank'] });
}

export class BrazilCalendar implements BusinessCalendar {
  private holidays: Holidays | undefined;
  /** Holidays by year, worked out once each: a payment read asks for a few days at a time. */
  private readonly years = new Map<number, ReadonlySet<string>>();

  /** Whether `date` (`YYYY-MM-DD`) is a business day. */
  isBusinessDay(date: string): boolean {
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6) return false;
    return !this.holidaysOf(Number(date.slice(0, 4))).has(date);
  }

  /** The year's national and bank holidays, as `YYYY-MM-DD`. */
  holidaysOf(year: number): ReadonlySet<string> {
    let days = this.years.get(year);
    if (!days) {
      days = new Set(
        (this.holidays ??= brazilHolidays())
          .getHolidays(year)
          .filter((holiday) => NON_BUSINESS_TYPES.has(holiday.type))
          .map((holiday) => holiday.date.slice(0, 10)),
      );
      this.years.set(year, days);
    }
    return days;
  }
}

export const BRAZIL_CALENDAR: BusinessCalendar = new BrazilCalendar();
