import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { testPki } from '../../../testing/certificates';
import type { Account } from '../../provider-adapter';
import { type PixApiCredentials, parsePixApiCredentials } from '../credentials';
import { PixApiAdapter } from '../pix-api.adapter';
import { PIX_API_ADAPTERS, PIX_API_PROFILES } from '../pix-api-adapters';
import type { PixApiProfile, RequestContext } from '../profile';
import { BB } from './bb';
import { EFI } from './efi';
import { INTER } from './inter';
import { ITAU } from './itau';
import { SANTANDER } from './santander';
import { SICOOB } from './sicoob';
import { SICREDI } from './sicredi';

const pki = testPki();
const NOW = new Date();

function credentials(profile: PixApiProfile, extra: Record<string, unknown> = {}): PixApiCredentials {
  const extras: Record<string, unknown> = { app_key: 'app-key-1', conta_corrente: '1234567', skip_mtls_checking: true };
  const own = Object.fromEntries(profile.extras.map((field) => [field.name, extras[field.name]]));
  return parsePixApiCredentials(
    { client_id: 'client-1', client_secret: 'secret-1', certificate_pem: pki.client.cert, private_key_pem: pki.client.key, ca_pem: pki.ca.cert, ...own, ...extra },
    profile,
    NOW,
  );
}

const context = (profile: PixApiProfile, environment: 'sandbox' | 'production', operation: RequestContext['operation'] = 'read charge'): RequestContext => ({
  operation,
  environment,
  credentials: credentials(profile),
});

describe('the registry', () => {
  it('lists pix-api and the seven banks, each once, each an adapter of its profile', () => {
    expect(PIX_API_PROFILES.map((profile) => profile.name)).toEqual(['pix-api', 'efi', 'sicoob', 'bb', 'itau', 'inter', 'santander', 'sicredi']);
    expect(PIX_API_ADAPTERS.map((adapter) => adapter.name)).toEqual(PIX_API_PROFILES.map((profile) => profile.name));
    expect(PIX_API_ADAPTERS.every((adapter) => adapter.capabilities.txid === 'gateway' && adapter.capabilities.partialRefund)).toBe(true);
  });

  it.each(PIX_API_PROFILES.map((profile) => [profile.name, profile] as const))('%s: https hosts, and a token URL wherever there is an API host', (_, profile) => {
    for (const environment of ['sandbox', 'production'] as const) {
      const api = profile.apiBase[environment];
      const token = profile.tokenUrl[environment];
      expect(api === null).toBe(token === null);
      for (const url of [api, token]) if (url !== null) expect(new URL(url).protocol).toBe('https:');
    }
    expect(profile.copyPasteFields[0]).toBe('pixCopiaECola');
  });
});

describe('bank variations', () => {
  it('Banco do Brasil: the application key as gw-dev-app-key in homologation, gw-app-key in production', () => {
    expect(BB.query!(context(BB, 'sandbox'))).toEqual({ 'gw-dev-app-key': 'app-key-1' });
    expect(BB.query!(context(BB, 'production'))).toEqual({ 'gw-app-key': 'app-key-1' });
    expect(BB.answers.createCharge).toBe(200);
  });

  it('Sicoob: the client_id header on every call, the BR Code as brcode, no secret', () => {
    expect(SICOOB.headers!(context(SICOOB, 'production'))).toEqual({ client_id: 'client-1' });
    expect(SICOOB.copyPasteFields).toEqual(['pixCopiaECola', 'brcode']);
    expect(SICOOB.token.clientAuth).toBe('client-id');
  });

  it('Inter: x-conta-corrente only when given; phone keys without "+" in /webhook/{chave}', () => {
    expect(INTER.headers!(context(INTER, 'production'))).toEqual({ 'x-conta-corrente': '1234567' });
    const without = { ...context(INTER, 'production'), credentials: credentials(INTER, { conta_corrente: undefined }) };
    expect(INTER.headers!(without)).toEqual({});
    expect(INTER.webhookKey!('+5511999999999')).toBe('5511999999999');
    expect(INTER.webhookKey!('recebedor@example.com')).toBe('recebedor@example.com');
  });

  it('Efí: x-skip-mtls-checking on the webhook registration only when the account asks', () => {
    expect(EFI.webhookHeaders!(credentials(EFI))).toEqual({ 'x-skip-mtls-checking': 'true' });
    expect(EFI.webhookHeaders!(credentials(EFI, { skip_mtls_checking: false }))).toEqual({});
  });

  it('Itaú: a new x-correlationID on every call', () => {
    const first = ITAU.headers!(context(ITAU, 'production'))['x-correlationID'];
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(ITAU.headers!(context(ITAU, 'production'))['x-correlationID']).not.toBe(first);
  });

  it('Santander: PATCH /cob/{txid} on /api/v2, the rest on /api/v1', () => {
    const base = SANTANDER.apiBase.production!;
    expect(SANTANDER.routeBase!('cancel charge', base)).toBe('https://trust-pix.santander.com.br/api/v2');
    expect(SANTANDER.routeBase!('create charge', base)).toBe(base);
  });

  it('Sicredi: cob/{txid} on /api/v3, the rest on /api/v2', () => {
    const base = SICREDI.apiBase.sandbox!;
    for (const operation of ['create charge', 'read charge', 'cancel charge'] as const) expect(SICREDI.routeBase!(operation, base)).toBe('https://api-pix-h.sicredi.com.br/api/v3');
    for (const operation of ['read pix', 'refund', 'register webhook', 'list charges'] as const) expect(SICREDI.routeBase!(operation, base)).toBe(base);
  });
});

/** A PSP that records the token request and answers the health check's list, over mTLS. */
describe('token requests on the wire, per profile', () => {
  interface Seen {
    path: string;
    query: Record<string, string>;
    headers: Record<string, string | string[] | undefined>;
    body: string;
    clientCertificate: string | undefined;
  }
  let server: Server;
  let origin: string;
  const seen: Seen[] = [];

  beforeAll(async () => {
    server = createServer({ key: pki.server.key, cert: pki.server.cert, ca: [pki.ca.cert], requestCert: true, rejectUnauthorized: true }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', origin);
        const peer = (req.socket as unknown as { getPeerCertificate(): { subject?: { CN?: string } } }).getPeerCertificate();
        seen.push({
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          clientCertificate: peer.subject?.CN,
        });
        if (url.pathname === '/token') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"tok-1","token_type":"Bearer","expires_in":300}');
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"parametros":{},"cobs":[]}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const basic = `Basic ${Buffer.from('client-1:secret-1').toString('base64')}`;
  const scope = 'cob.read cob.write pix.read pix.write webhook.read webhook.write';
  const cases: [PixApiProfile, { authorization?: string; contentType: string; body: Record<string, string>; query: Record<string, string> }][] = [
    [PIX_API_PROFILES[0]!, { authorization: basic, contentType: 'application/x-www-form-urlencoded', body: { grant_type: 'client_credentials', scope }, query: {} }],
    [EFI, { authorization: basic, contentType: 'application/json', body: { grant_type: 'client_credentials' }, query: {} }],
    [SICOOB, { contentType: 'application/x-www-form-urlencoded', body: { grant_type: 'client_credentials', scope, client_id: 'client-1' }, query: {} }],
    [BB, { authorization: basic, contentType: 'application/x-www-form-urlencoded', body: { grant_type: 'client_credentials', scope }, query: {} }],
    [ITAU, { contentType: 'application/x-www-form-urlencoded', body: { grant_type: 'client_credentials', client_id: 'client-1', client_secret: 'secret-1' }, query: {} }],
    [INTER, { contentType: 'application/x-www-form-urlencoded', body: { grant_type: 'client_credentials', scope, client_id: 'client-1', client_secret: 'secret-1' }, query: {} }],
    [SANTANDER, { contentType: 'application/x-www-form-urlencoded', body: { client_id: 'client-1', client_secret: 'secret-1' }, query: { grant_type: 'client_credentials' } }],
    [SICREDI, { authorization: basic, contentType: 'application/x-www-form-urlencoded', body: { grant_type: 'client_credentials', scope }, query: {} }],
  ];

  it.each(cases.map(([profile, expected]) => [profile.name, profile, expected] as const))('%s', async (_, profile, expected) => {
    seen.length = 0;
    const adapter = new PixApiAdapter(profile);
    const account: Account<PixApiCredentials> = {
      id: 'pa_1',
      provider: profile.name,
      environment: 'production',
      baseUrl: `${origin}/api`,
      tokenUrl: `${origin}/token`,
      pixKey: 'recebedor@example.com',
      credentials: credentials(profile),
    };
    try {
      await expect(adapter.check(account)).resolves.toMatchObject({ ok: true });
    } finally {
      adapter.close();
    }
    const [token, call] = seen;
    expect(token!.path).toBe('/token');
    expect(token!.clientCertificate).toBe('pix-gateway-client');
    expect(token!.headers.authorization).toBe(expected.authorization);
    expect(token!.headers['content-type']).toBe(expected.contentType);
    const body = expected.contentType === 'application/json' ? JSON.parse(token!.body) : Object.fromEntries(new URLSearchParams(token!.body));
    expect(body).toEqual(expected.body);
    expect(token!.query).toEqual(expected.query);
    // The API call: the token, the certificate, the profile's own headers and query.
    expect(call!.path).toBe('/api/cob');
    expect(call!.clientCertificate).toBe('pix-gateway-client');
    expect(call!.headers.authorization).toBe('Bearer tok-1');
    expect(call!.query).toMatchObject({
      inicio: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      fim: expect.stringMatching(/Z$/),
      ...profile.query?.(context(profile, 'production')),
    });
    for (const name of Object.keys(profile.headers?.(context(profile, 'production')) ?? {})) expect(call!.headers[name.toLowerCase()]).toEqual(expect.any(String));
  });
});
