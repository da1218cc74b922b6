import { BRAZIL_CALENDAR, BrazilCalendar } from './brazil-calendar';

const businessDays = (dates: string[]) => dates.filter((date) => BRAZIL_CALENDAR.isBusinessDay(date));

describe('BRAZIL_CALENDAR', () => {
  it('knows 2026’s national holidays, Carnival and Corpus Christi', () => {
    const holidays2026 = [
      '2026-01-01', // Confraternização Universal
      '2026-02-16', // Carnival Monday
      '2026-02-17', // Carnival Tuesday
      '2026-04-03', // Good Friday
      '2026-04-21', // Tiradentes
      '2026-05-01', // Labour Day
      '2026-06-04', // Corpus Christi
      '2026-09-07', // Independence
      '2026-10-12', // Nossa Senhora Aparecida
      '2026-11-02', // Finados
      '2026-11-20', // Consciência Negra (national since 2024)
      '2026-12-25', // Christmas
    ];
    expect(businessDays(holidays2026)).toEqual([]);
  });

  it('knows 2027’s moving holidays', () => {
    // Carnival, Good Friday and Corpus Christi follow Easter (28 March 2027).
    expect(businessDays(['2027-02-08', '2027-02-09', '2027-03-26', '2027-04-21', '2027-05-27', '2027-11-02', '2027-11-15'])).toEqual([]);
  });

  it('keeps Ash Wednesday, Christmas Eve, New Year’s Eve and the days around holidays as business days', () => {
    const open = ['2026-02-18', '2026-12-24', '2026-12-31', '2026-04-20', '2026-04-22', '2027-02-10', '2027-05-28'];
    expect(businessDays(open)).toEqual(open);
  });

  it('excludes weekends', () => {
    expect(businessDays(['2026-04-18', '2026-04-19', '2027-01-02', '2027-01-03'])).toEqual([]);
    expect(businessDays(['2026-04-17', '2027-01-04'])).toEqual(['2026-04-17', '2027-01-04']);
  });

  it('works a year’s holidays out once', () => {
    const calendar = new BrazilCalendar();
    const first = calendar.holidaysOf(2026);
    expect(calendar.holidaysOf(2026)).toBe(first);
    expect(first.has('2026-04-21')).toBe(true);
  });
});
