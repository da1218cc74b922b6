import { isValidCnpj, isValidCpf, isValidCpfOrCnpj, normaliseDocument } from './brazilian-document';

describe('CPF / CNPJ', () => {
  it.each(['12345678909', '52998224725', '11144477735'])('accepts the valid CPF %s', (cpf) => expect(isValidCpf(cpf)).toBe(true));
  it.each(['12345678900', '52998224724', '11111111111', '1234567890', '1234567890a'])('refuses the CPF %s', (cpf) => expect(isValidCpf(cpf)).toBe(false));
  it.each(['11222333000181', '45723174000110'])('accepts the valid CNPJ %s', (cnpj) => expect(isValidCnpj(cnpj)).toBe(true));
  it.each(['11222333000182', '00000000000000', '1122233300018'])('refuses the CNPJ %s', (cnpj) => expect(isValidCnpj(cnpj)).toBe(false));

  describe('alphanumeric CNPJ (letters in the first 12 characters since July 2026)', () => {
    // Each character counts its ASCII code minus 48 (A=17 … Z=42), weights as for numeric CNPJs.
    // 12ABC34501DE35, the Receita Federal's own example, by hand:
    //   1st: 1·5+2·4+17·3+18·2+19·9+3·8+4·7+5·6+0·5+1·4+20·3+21·2 = 459; 459 mod 11 = 8 → 11−8 = 3
    //   2nd: 1·6+2·5+17·4+18·3+19·2+3·9+4·8+5·7+0·6+1·5+20·4+21·3+3·2 = 424; 424 mod 11 = 6 → 11−6 = 5
    // A1B2C3D4E5F668:
    //   1st: 17·5+1·4+18·3+2·2+19·9+3·8+20·7+4·6+21·5+5·4+22·3+6·2 = 709; 709 mod 11 = 5 → 6
    //   2nd: 17·6+1·5+18·4+2·3+19·2+3·9+20·8+4·7+21·6+5·5+22·4+6·3+6·2 = 707; 707 mod 11 = 3 → 8
    it.each(['12ABC34501DE35', 'A1B2C3D4E5F668'])('accepts the valid CNPJ %s', (cnpj) => expect(isValidCnpj(cnpj)).toBe(true));

    it.each([
      ['a wrong second check digit', '12ABC34501DE36'],
      ['a wrong first check digit', '12ABC34501DE45'],
      ['swapped check digits', '12ABC34501DE53'],
      ['a letter as a check digit', '12ABC34501DEA5'],
      ['lower-case letters (callers normalise first)', '12abc34501de35'],
      ['a character outside [0-9A-Z]', '12ABC3450_DE35'],
      ['13 characters', '2ABC34501DE35'],
    ])('refuses %s (%s)', (_why, cnpj) => expect(isValidCnpj(cnpj)).toBe(false));

    it('keeps the check digits of numeric CNPJs (a digit counts its own value)', () => {
      expect(isValidCnpj('11222333000181')).toBe(true);
    });

    it('accepts one written with punctuation or in lower case, and normalises it to upper case', () => {
      for (const written of ['12.ABC.345/01DE-35', '12.abc.345/01de-35', '12ABC34501DE35', ' 12 ABC 345 01DE 35 ']) {
        expect(isValidCpfOrCnpj(written)).toBe(true);
        expect(normaliseDocument(written)).toBe('12ABC34501DE35');
      }
    });

    it('refuses letters in a CPF and characters no document has', () => {
      expect(isValidCpfOrCnpj('123.A56.789-09')).toBe(false);
      expect(isValidCpfOrCnpj('12.ABC.345/01DE-36')).toBe(false);
      expect(isValidCpfOrCnpj('12.ÁBC.345/01DE-35')).toBe(false);
      expect(isValidCpfOrCnpj('12_ABC_345_01DE_35')).toBe(false);
    });
  });

  it('accepts punctuation and strips it', () => {
    expect(isValidCpfOrCnpj('123.456.789-09')).toBe(true);
    expect(isValidCpfOrCnpj('11.222.333/0001-81')).toBe(true);
    expect(normaliseDocument('11.222.333/0001-81')).toBe('11222333000181');
  });

  it('refuses other characters, other lengths and non-strings', () => {
    expect(isValidCpfOrCnpj('123a456.789-09')).toBe(false);
    expect(isValidCpfOrCnpj('123456789091')).toBe(false);
    expect(isValidCpfOrCnpj(12345678909)).toBe(false);
  });
});
