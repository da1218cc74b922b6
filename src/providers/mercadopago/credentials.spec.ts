import { testPki } from '../../testing/certificates';
import { NO_TRANSPORT } from '../../testing/no-transport';
import { type AccountSettings, CredentialsError } from '../provider-adapter';
import { MercadoPagoAdapter } from './mercadopago.adapter';

const settings: AccountSettings = { environment: 'production', baseUrl: null, tokenUrl: null, pixKey: null };
const adapter = new MercadoPagoAdapter(NO_TRANSPORT);
const field = (input: unknown, given: AccountSettings = settings): string => {
  try {
    adapter.parseCredentials(input, given);
  } catch (error) {
    if (error instanceof CredentialsError) return error.field;
    throw error;
  }
  return 'accepted';
};

describe('Mercado Pago credentials', () => {
  it('takes an access token and the webhook secret, and an optional CA', () => {
    expect(adapter.parseCredentials({ access_token: 'APP_USR-123-abc', webhook_secret: 'f'.repeat(64) }, settings)).toEqual({
      accessToken: 'APP_USR-123-abc',
      webhookSecret: 'f'.repeat(64),
      tls: null,
    });
    const ca = testPki().ca.cert;
    expect(adapter.parseCredentials({ access_token: 'TEST-123-abc', webhook_secret: 'secret-123', ca_pem: ca }, settings).tls).toEqual({
      certificatePem: '',
      privateKeyPem: '',
      caPem: ca,
    });
  });

  it('refuses what is missing, of the wrong shape, or not its own, naming the field and never echoing it', () => {
    expect(field({ webhook_secret: 'secret-123' })).toBe('credentials.access_token');
    expect(field({ access_token: 'APP_USR-1' })).toBe('credentials.webhook_secret');
    expect(field({ access_token: 'has a space', webhook_secret: 'secret-123' })).toBe('credentials.access_token');
    expect(field({ access_token: 'APP_USR-123', webhook_secret: 'secret-123', client_id: 'x' })).toBe('credentials.client_id');
    expect(field({ access_token: 'APP_USR-123', webhook_secret: 'secret-123', ca_pem: 'not a pem' })).toBe('credentials.ca_pem');
    expect(field('nope')).toBe('credentials');
    try {
      adapter.parseCredentials({ access_token: 'a b c d e f g h', webhook_secret: 'secret-123' }, settings);
    } catch (error) {
      expect((error as Error).message).not.toContain('a b c');
    }
  });

  it('takes no Pix key or token URL, and only an https base URL', () => {
    const good = { access_token: 'APP_USR-123', webhook_secret: 'secret-123' };
    expect(field(good, { ...settings, pixKey: 'chave@example.com' })).toBe('pix_key');
    expect(field(good, { ...settings, tokenUrl: 'https://x/token' })).toBe('token_url');
    expect(field(good, { ...settings, baseUrl: 'http://127.0.0.1:1' })).toBe('base_url');
    expect(field(good, { ...settings, baseUrl: 'https://127.0.0.1:1' })).toBe('accepted');
  });

  it('describes itself in the catalogue: both credentials secret, base_url optional with Mercado Pago as the default', () => {
    expect(adapter.descriptor.credentials.filter((f) => f.required).map((f) => [f.name, f.kind])).toEqual([
      ['access_token', 'secret'],
      ['webhook_secret', 'secret'],
    ]);
    expect(adapter.descriptor.settings.map((s) => s.name)).toEqual(['base_url']);
    expect(adapter.descriptor.environments.map((e) => e.baseUrl)).toEqual(['https://api.mercadopago.com', 'https://api.mercadopago.com']);
  });
});
