import { formatDate, formatDateSeconds, formatDay, formatDocument, formatMoney, formatPercent, localMidnight, parseReais, relative, toCents } from './format';

// Dates are shown in the operator's own locale and time zone, so these tests assert what holds in
// any of them rather than one locale's spelling.
describe('format', () => {
  it('shows amounts in reais the Brazilian way', () => {
    expect(formatMoney(10.5)).toBe('R$\u00a010,50');
    expect(formatMoney(1234567.89)).toBe('R$\u00a01.234.567,89');
    expect(formatMoney(0)).toBe('R$\u00a00,00');
  });

  it('reads an amount typed the Brazilian way or with a decimal point, and refuses anything else', () => {
    expect(['3,50', '3.50', '3,5', 'R$ 3,50', ' 7 ', '1.234,56', '1234,56', '1234.56'].map(parseReais)).toEqual([3.5, 3.5, 3.5, 3.5, 7, 1234.56, 1234.56, 1234.56]);
    // More than two decimals, a dot that may group thousands, signs, letters and nothing at all.
    expect(['3,505', '1.234', '-3', '3,50 reais', '', ',5', '12.34.56', '1,234.56'].map(parseReais)).toEqual(Array(8).fill(undefined));
  });

  it('sums amounts in centavos', () => {
    expect(toCents(10.5) - toCents(3.5) - toCents(0.1) - toCents(0.2)).toBe(670);
    expect(toCents(0.29)).toBe(29);
  });

  it('punctuates a CPF and a CNPJ, and leaves anything else as it is', () => {
    expect(formatDocument('12345678909')).toBe('123.456.789-09');
    expect(formatDocument('12345678000195')).toBe('12.345.678/0001-95');
    expect(formatDocument('12ABC34501DE35')).toBe('12.ABC.345/01DE-35');
    expect(formatDocument('1234')).toBe('1234');
  });

  it('shows a ratio as a percentage, with two decimals only below 1%', () => {
    expect(formatPercent(0.0244)).toBe('2.4%');
    expect(formatPercent(0.005)).toBe('0.50%');
    expect(formatPercent(0)).toBe('0.0%');
    expect(formatPercent(1)).toBe('100.0%');
    expect(formatPercent(null)).toBe('—');
  });

  it('shows a dash for a missing time', () => {
    for (const missing of [null, undefined, '']) {
      expect(formatDate(missing)).toBe('—');
      expect(formatDateSeconds(missing)).toBe('—');
    }
  });

  it('shows the year of a time, and seconds only in the detailed form', () => {
    const instant = new Date(2024, 4, 2, 13, 45, 10);
    const secondLater = new Date(instant.getTime() + 1000).toISOString();
    expect(formatDate(instant.toISOString())).toMatch(/2024/);
    expect(formatDate(secondLater)).toBe(formatDate(instant.toISOString()));
    expect(formatDateSeconds(secondLater)).not.toBe(formatDateSeconds(instant.toISOString()));
  });

  it('names the day of the month in a chart label', () => {
    expect(formatDay(new Date(2024, 4, 27, 12).toISOString())).toMatch(/27/);
  });

  describe('relative', () => {
    beforeEach(() => {
      jest.useFakeTimers({ now: new Date('2024-05-02T12:00:00.000Z') });
    });
    afterEach(() => {
      jest.useRealTimers();
    });

    it('says how far ahead or behind a time is, in the largest fitting unit', () => {
      expect(relative('2024-05-02T12:00:30.000Z')).toBe('in 30 s');
      expect(relative('2024-05-02T12:05:00.000Z')).toBe('in 5 min');
      expect(relative('2024-05-02T09:00:00.000Z')).toBe('3 h ago');
      expect(relative('2024-04-30T12:00:00.000Z')).toBe('2 d ago');
      expect(relative('2024-05-02T12:00:00.000Z')).toBe('in 0 s');
    });

    it('moves to the next unit when the count rounds up to it', () => {
      expect(relative('2024-05-02T12:59:29.000Z')).toBe('in 59 min');
      expect(relative('2024-05-02T12:59:59.000Z')).toBe('in 1 h');
      expect(relative('2024-05-02T13:00:00.000Z')).toBe('in 1 h');
      expect(relative('2024-05-01T12:00:01.000Z')).toBe('1 d ago');
    });
  });

  it('finds the local midnight that starts a day', () => {
    const midnight = localMidnight(new Date(2024, 4, 2, 15, 30, 12));
    expect(midnight).toEqual(new Date(2024, 4, 2));
  });
});
