import { createHmac } from 'node:crypto';
import { SANDBOX_SIGNATURE_TOLERANCE_SECONDS, signSandboxPayload, verifySandboxSignature } from './sandbox-signature';

const SECRET = 'whsec_unit_test';
const BODY = Buffer.from('{"event":"payment.confirmed","id":"evt_sbx_1","data":{"id":"sbx_1","amount":10.5}}');
const NOW = 1_800_000_000;

/** The sandbox scheme (docs/api.md, The sandbox signature scheme) computed here by hand, not by the code under test. */
const v1 = (secret: string, t: number, body: Buffer) =>
  createHmac('sha256', secret)
    .update(Buffer.concat([Buffer.from(`${t}.`), body]))
    .digest('hex');

describe('sandbox webhook signature', () => {
  it('signs as the sandbox scheme says: t=<seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>', () => {
    expect(signSandboxPayload(SECRET, BODY, NOW + 0.9)).toBe(`t=${NOW},v1=${v1(SECRET, NOW, BODY)}`);
  });

  it('accepts a good signature, within the tolerance either way', () => {
    const header = `t=${NOW},v1=${v1(SECRET, NOW, BODY)}`;
    expect(verifySandboxSignature(header, BODY, SECRET, NOW)).toBe(true);
    expect(verifySandboxSignature(header, BODY, SECRET, NOW + SANDBOX_SIGNATURE_TOLERANCE_SECONDS)).toBe(true);
    expect(verifySandboxSignature(header, BODY, SECRET, NOW - SANDBOX_SIGNATURE_TOLERANCE_SECONDS)).toBe(true);
  });

  it('refuses a stale or future timestamp (more than 300 s away)', () => {
    const header = `t=${NOW},v1=${v1(SECRET, NOW, BODY)}`;
    expect(verifySandboxSignature(header, BODY, SECRET, NOW + 301)).toBe(false);
    expect(verifySandboxSignature(header, BODY, SECRET, NOW - 301)).toBe(false);
  });

  it('refuses another secret, another body, or a timestamp the signature was not made for', () => {
    expect(verifySandboxSignature(`t=${NOW},v1=${v1('other', NOW, BODY)}`, BODY, SECRET, NOW)).toBe(false);
    expect(verifySandboxSignature(`t=${NOW},v1=${v1(SECRET, NOW, BODY)}`, Buffer.concat([BODY, Buffer.from(' ')]), SECRET, NOW)).toBe(false);
    expect(verifySandboxSignature(`t=${NOW + 1},v1=${v1(SECRET, NOW, BODY)}`, BODY, SECRET, NOW)).toBe(false);
  });

  it('checks the raw bytes, so a body re-serialised differently fails', () => {
    const reserialised = Buffer.from(JSON.stringify(JSON.parse(BODY.toString()), null, 1));
    expect(verifySandboxSignature(signSandboxPayload(SECRET, BODY, NOW), reserialised, SECRET, NOW)).toBe(false);
  });

  it.each([
    ['missing', undefined],
    ['repeated (array)', [`t=${NOW},v1=${v1(SECRET, NOW, BODY)}`]],
    ['empty', ''],
    ['without a timestamp', `v1=${v1(SECRET, NOW, BODY)}`],
    ['without v1', `t=${NOW}`],
    ['with two timestamps', `t=${NOW + 5000},t=${NOW},v1=${v1(SECRET, NOW, BODY)}`],
    ['with a non-numeric timestamp', `t=now,v1=${v1(SECRET, NOW, BODY)}`],
    ['with a truncated v1', `t=${NOW},v1=${v1(SECRET, NOW, BODY).slice(0, 63)}`],
    ['with a v0 only', `t=${NOW},v0=${v1(SECRET, NOW, BODY)}`],
  ])('refuses a header that is %s', (_label, header) => {
    expect(verifySandboxSignature(header, BODY, SECRET, NOW)).toBe(false);
  });

  it('accepts any of several v1 signatures (secret rotation), with spaces around parts', () => {
    const header = `t=${NOW}, v1=${v1('old-secret', NOW, BODY)}, v1=${v1(SECRET, NOW, BODY)}`;
    expect(verifySandboxSignature(header, BODY, SECRET, NOW)).toBe(true);
    expect(verifySandboxSignature(header, BODY, 'old-secret', NOW)).toBe(true);
    expect(verifySandboxSignature(header, BODY, 'third', NOW)).toBe(false);
  });
});
