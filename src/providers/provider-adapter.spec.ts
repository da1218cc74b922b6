import { UpstreamError } from './provider-adapter';

describe('UpstreamError', () => {
  it('takes its fields by name, the cause included', () => {
    const cause = { code: 'ECONNRESET' };
    const error = new UpstreamError({ kind: 'http', message: 'HTTP 503', upstreamStatus: 503, providerCode: 'BUSY', providerMessage: 'try later', cause });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'UpstreamError', kind: 'http', message: 'HTTP 503', upstreamStatus: 503, providerCode: 'BUSY', providerMessage: 'try later' });
    expect(error.cause).toBe(cause);
    expect(error.ambiguous).toBe(true);
  });

  it('leaves what it was not given undefined, and has no cause unless given one', () => {
    const error = new UpstreamError({ kind: 'malformed', message: 'no txid' });
    expect(error).toMatchObject({ kind: 'malformed', upstreamStatus: undefined, providerCode: undefined, providerMessage: undefined });
    expect('cause' in error).toBe(false);
    expect(error.ambiguous).toBe(false);
  });
});
