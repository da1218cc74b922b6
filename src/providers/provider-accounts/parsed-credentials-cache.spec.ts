import { inspect } from 'node:util';
import { PARSED_CREDENTIALS_CAPACITY, ParsedCredentialsCache } from './parsed-credentials-cache';
import type { ProviderAccount } from './provider-account.entity';

const T0 = new Date('2026-01-15T12:00:00.000Z');
const EXPIRES = '2026-06-01T00:00:00.000Z';
const at = (iso: string) => new Date(iso);

/** The columns the cache compares, as a row read from the database would hold them. */
function row(id: string, overrides: Partial<ProviderAccount> = {}): ProviderAccount {
  return {
    id,
    name: 'Conta',
    provider: 'pix-api',
    environment: 'sandbox',
    baseUrl: 'https://psp.example.com',
    tokenUrl: null,
    pixKey: 'recebedor@example.com',
    active: true,
    receiverAccount: null,
    credentialsEnc: `v1.sealed-${id}`,
    credentialsSummary: {},
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

describe('ParsedCredentialsCache', () => {
  it('answers the same credentials for the same version of the row, read again', () => {
    const cache = new ParsedCredentialsCache();
    const credentials = { clientId: 'c1' };
    cache.set(row('pa_1'), credentials, T0, EXPIRES);
    expect(cache.get(row('pa_1'), T0)).toBe(credentials);
    expect(cache.get(row('pa_1', { name: 'renamed', active: false }), at('2026-03-01T00:00:00Z'))).toBe(credentials);
  });

  it.each<[string, Partial<ProviderAccount>]>([
    ['updated_at', { updatedAt: new Date(T0.getTime() + 1) }],
    ['the sealed credentials (a write in the same millisecond)', { credentialsEnc: 'v1.sealed-again' }],
    ['the provider', { provider: 'efi' }],
    ['the environment', { environment: 'production' }],
    ['base_url', { baseUrl: 'https://other.example.com' }],
    ['token_url', { tokenUrl: 'https://other.example.com/token' }],
    ['pix_key', { pixKey: null }],
  ])('misses, and forgets the entry, when the row differs in %s', (_what, change) => {
    const cache = new ParsedCredentialsCache();
    cache.set(row('pa_1'), { clientId: 'c1' }, T0, EXPIRES);
    expect(cache.get(row('pa_1', change), T0)).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.get(row('pa_1'), T0)).toBeUndefined();
  });

  it("misses from the certificate's expiry on, and before the parse (a clock set back)", () => {
    const cache = new ParsedCredentialsCache();
    cache.set(row('pa_1'), { clientId: 'c1' }, T0, EXPIRES);
    expect(cache.get(row('pa_1'), new Date(Date.parse(EXPIRES) - 1))).toEqual({ clientId: 'c1' });
    expect(cache.get(row('pa_1'), at(EXPIRES))).toBeUndefined();
    expect(cache.size).toBe(0);

    cache.set(row('pa_1'), { clientId: 'c1' }, T0, EXPIRES);
    expect(cache.get(row('pa_1'), new Date(T0.getTime() - 1))).toBeUndefined();
  });

  it('keeps credentials without a certificate until the row changes, and nothing when the expiry is not a date', () => {
    const cache = new ParsedCredentialsCache();
    cache.set(row('pa_1'), { clientId: 'c1' }, T0, undefined);
    expect(cache.get(row('pa_1'), at('2099-01-01T00:00:00Z'))).toEqual({ clientId: 'c1' });
    cache.set(row('pa_2'), { clientId: 'c2' }, T0, 'not a date');
    expect(cache.get(row('pa_2'), T0)).toBeUndefined();
    expect(cache.size).toBe(1);
  });

  it('holds at most its capacity, dropping the least recently used account first', () => {
    const cache = new ParsedCredentialsCache(3);
    for (const id of ['pa_1', 'pa_2', 'pa_3']) cache.set(row(id), { id }, T0, EXPIRES);
    expect(cache.get(row('pa_1'), T0)).toEqual({ id: 'pa_1' }); // pa_2 is now the oldest use
    cache.set(row('pa_4'), { id: 'pa_4' }, T0, EXPIRES);
    expect(cache.size).toBe(3);
    expect(cache.get(row('pa_2'), T0)).toBeUndefined();
    for (const id of ['pa_1', 'pa_3', 'pa_4']) expect(cache.get(row(id), T0)).toEqual({ id });

    for (let i = 5; i < 50; i++) cache.set(row(`pa_${i}`), { i }, T0, EXPIRES);
    expect(cache.size).toBe(3);
    expect(new ParsedCredentialsCache().capacity).toBe(PARSED_CREDENTIALS_CAPACITY);
  });

  it('a new version of an account takes its one place', () => {
    const cache = new ParsedCredentialsCache(2);
    cache.set(row('pa_1'), { v: 1 }, T0, EXPIRES);
    cache.set(row('pa_1', { credentialsEnc: 'v1.sealed-v2' }), { v: 2 }, T0, EXPIRES);
    expect(cache.size).toBe(1);
    expect(cache.get(row('pa_1', { credentialsEnc: 'v1.sealed-v2' }), T0)).toEqual({ v: 2 });
  });

  it('never prints or serialises the credentials it holds', () => {
    const cache = new ParsedCredentialsCache();
    cache.set(row('pa_1'), { clientSecret: 'very-secret-value' }, T0, EXPIRES);
    expect(JSON.stringify({ cache })).not.toContain('very-secret-value');
    expect(inspect(cache, { depth: 10, showHidden: true })).not.toContain('very-secret-value');
    expect(inspect({ service: { cache } }, { depth: 10 })).not.toContain('very-secret-value');
  });
});
