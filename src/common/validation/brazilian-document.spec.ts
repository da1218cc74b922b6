import { isValidCnpj, isValidCpf, isValidCpfOrCnpj, normaliseDocument } from './brazilian-document';

describe('CPF / CNPJ', () => {
  it.each(['12345678909', '52998224725', '11144477735'])('accepts the valid CPF %s', (cpf) => expect(isValidCpf(cpf)).toBe(true));
  it.each(['12345678900', '52998224724', '11111111111', '1234567890', '1234567890a'])('refuses the CPF %s', (cpf) => expect(isValidCpf(cpf)).toBe(false));
  it.each(['11222333000181', '45723174000110'])('accepts the valid CNPJ %s', (cnpj) => expect(isValidCnpj(cnpj)).toBe(true));
  it.each(['11222333000182', '00000000000000', '1122233300018'])('refuses the CNPJ %s', (cnpj) => expect(isValidCnpj(cnpj)).toBe(false));

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
