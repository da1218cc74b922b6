import { redactLogLine, serializeError } from './redact';

const line = (fields: Record<string, unknown>) => JSON.stringify({ level: 30, time: 1763889128000, pid: 4242, ...fields });

describe('redactLogLine', () => {
  it.each([
    ['a bare CPF', '12345678909'],
    ['a formatted CPF', '123.456.789-09'],
    ['a bare CNPJ', '11222333000181'],
    ['a formatted CNPJ', '11.222.333/0001-81'],
    ['a bare alphanumeric CNPJ', '12ABC34501DE35'],
    ['a formatted alphanumeric CNPJ', '12.ABC.345/01DE-35'],
    ['a lower-case alphanumeric CNPJ', '12.abc.345/01de-35'],
  ])('removes %s from any field and from messages', (_name, document) => {
    const out = redactLogLine(line({ msg: `payer ${document} refused`, payer: { document }, nested: [{ doc: document }] }));
    expect(out).not.toContain(document);
    expect(out.replace(/\D/g, '')).not.toContain(document.replace(/\D/g, ''));
    expect(JSON.parse(out).payer.document).toBe('[redacted]');
  });

  it('removes a document written as a JSON number and keeps the line valid JSON', () => {
    const out = redactLogLine('{"level":30,"doc":12345678909,"list":[11222333000181]}');
    expect(JSON.parse(out)).toEqual({ level: 30, doc: '[redacted]', list: ['[redacted]'] });
  });

  it('removes a document at the start of a new line inside a message', () => {
    expect(redactLogLine(line({ msg: 'rows:\n12345678909\tAna' }))).not.toContain('12345678909');
  });

  it('leaves timestamps, ids, durations and amounts alone', () => {
    const fields = {
      request_id: '3f2c1a4e-1234-4abc-8def-123456789012',
      payment_id: 'pay_01JD3K4M5N6P7Q8R9S0T1V2W3X',
      duration_ms: 12.345678,
      amount_cents: 1050,
      at: '2026-11-23T09:12:08.123Z',
      // Shaped like an alphanumeric CNPJ, but its check digits are wrong (12ABC34501DE35's are right).
      token: '12ABC34501DE36',
    };
    const input = line(fields);
    expect(redactLogLine(input)).toBe(input);
  });

  it('removes credentials from query strings', () => {
    const out = redactLogLine(line({ msg: 'GET /v1/payments?access_token=abc123&page=2&api_key=xyz789', url: '/x?secret=s1' }));
    expect(out).not.toMatch(/abc123|xyz789|s1"/);
    expect(out).toContain('page=2');
  });

  it('removes merchant keys, bearer tokens, signing secrets and PEM blocks', () => {
    const key = 'mk_live_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwq1Zx0Ck7b3E=';
    const pem = '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----';
    const privateKey = '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC';
    const out = redactLogLine(
      line({ msg: `key ${key} failed`, headers: { authorization: 'Bearer s3cr3t-admin-token' }, err: { message: `sig ${secret}` }, cert: pem, key: privateKey }),
    );
    for (const leaked of [key, 'AbCdEfGhIjKlMnOpQrStUvWxYz012345', secret, 's3cr3t-admin-token', 'MIIBszCCAVmgAwIBAgIU', 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC']) {
      expect(out).not.toContain(leaked);
    }
    expect(() => JSON.parse(out)).not.toThrow();
  });
});

describe('serializeError', () => {
  it('keeps the message and the statement but drops the values it ran with', () => {
    const error = Object.assign(new Error('insert failed'), {
      query: 'INSERT INTO payments (recipient_document) VALUES ($1)',
      parameters: ['12345678909', 'Ana Souza'],
      driverError: Object.assign(new Error('insert failed'), { detail: 'Key (recipient_document)=(12345678909) already exists.' }),
    });
    const serialized = serializeError(error) as Record<string, unknown>;
    expect(serialized).toMatchObject({ message: 'insert failed', query: 'INSERT INTO payments (recipient_document) VALUES ($1)', parameters: '[redacted]' });
    expect(JSON.stringify(serialized)).not.toContain('Ana Souza');
    expect(JSON.stringify(serialized)).not.toContain('12345678909');
  });
});
