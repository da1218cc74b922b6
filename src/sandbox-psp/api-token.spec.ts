import { presentsApiToken } from './api-token';

const TOKEN = 'sbx_0123456789abcdef';
const presenting = (authorization?: string) => presentsApiToken({ headers: authorization === undefined ? {} : { authorization } }, TOKEN);

describe('presentsApiToken', () => {
  it('accepts the token as a bearer credential, the scheme in any case and spaces around it', () => {
    expect(presenting(`Bearer ${TOKEN}`)).toBe(true);
    expect(presenting(`bearer   ${TOKEN} `)).toBe(true);
  });

  it('refuses another token, another scheme, an empty one and none', () => {
    expect(presenting(`Bearer ${TOKEN}x`)).toBe(false);
    expect(presenting(`Basic ${TOKEN}`)).toBe(false);
    expect(presenting(TOKEN)).toBe(false);
    expect(presenting('Bearer ')).toBe(false);
    expect(presenting()).toBe(false);
  });
});
