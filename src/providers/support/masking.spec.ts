import { maskDocument } from './masking';

describe('maskDocument', () => {
  it('keeps the six middle digits of a CPF, as public registers print it', () => {
    expect(maskDocument('12345678909')).toBe('***.456.789-**');
    expect(maskDocument('123.456.789-09')).toBe('***.456.789-**');
  });

  it('keeps the middle of a CNPJ: not its first two digits, not its check digits', () => {
    expect(maskDocument('12345678000195')).toBe('**.345.678/0001-**');
    expect(maskDocument('12.345.678/0001-95')).toBe('**.345.678/0001-**');
  });

  it('masks an alphanumeric CNPJ the same way', () => {
    expect(maskDocument('12ABC34501DE35')).toBe('**.ABC.345/01DE-**');
    expect(maskDocument('12.abc.345/01de-35')).toBe('**.ABC.345/01DE-**');
  });

  it('keeps nothing of anything else', () => {
    expect(maskDocument('1234')).toBe('***');
    expect(maskDocument('')).toBe('***');
    expect(maskDocument('not a document')).toBe('***');
  });

  it('never shows a CPF or CNPJ whole', () => {
    for (const document of ['98765432100', '11222333000181', '12ABC34501DE35']) expect(maskDocument(document).replace(/[^0-9A-Z]/g, '')).not.toBe(document);
  });
});
