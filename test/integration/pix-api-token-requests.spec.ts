import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { BB } from '../../src/providers/pix-api/banks/bb';
import { EFI } from '../../src/providers/pix-api/banks/efi';
import { INTER } from '../../src/providers/pix-api/banks/inter';
import { ITAU } from '../../src/providers/pix-api/banks/itau';
import { SANTANDER } from '../../src/providers/pix-api/banks/santander';
import { SICOOB } from '../../src/providers/pix-api/banks/sicoob';
import { SICREDI } from '../../src/providers/pix-api/banks/sicredi';
import type { PixApiCredentials } from '../../src/providers/pix-api/credentials';
import { PixApiAdapter } from '../../src/providers/pix-api/pix-api.adapter';
import { PIX_API_PROFILES } from '../../src/providers/pix-api/pix-api.registration';
import { CHARGE_BATCH_SCOPES, DUE_CHARGE_SCOPES, type PixApiProfile, RECURRING_SCOPES } from '../../src/providers/pix-api/profile';
import type { Account } from '../../src/providers/provider-adapter';
import { HttpTransport } from '../../src/providers/transport/http-transport';
import { testPki } from '../../src/testing/certificates';
import { pixApiCredentials as credentials, requestContext as context } from '../../src/testing/pix-api-credentials';

const pki = testPki();

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
  // A profile asks for the scopes of what it declares besides: Pix Automático, due-date charges, their batches.
  const dueScopes = [...DUE_CHARGE_SCOPES, ...CHARGE_BATCH_SCOPES].join(' ');
  const everyScope = `${scope} ${RECURRING_SCOPES.join(' ')} ${dueScopes}`;
  const cases: [PixApiProfile, { authorization?: string; contentType: string; body: Record<string, string>; query: Record<string, string> }][] = [
    // A profile that offers Pix Automático and due-date charges asks for their scopes too (and for none after an invalid_scope).
    [PIX_API_PROFILES[0]!, { authorization: basic, contentType: 'application/x-www-form-urlencoded', body: { grant_type: 'client_credentials', scope: everyScope }, query: {} }],
    [EFI, { authorization: basic, contentType: 'application/json', body: { grant_type: 'client_credentials' }, query: {} }],
    [SICOOB, { contentType: 'application/x-www-form-urlencoded', body: { grant_type: 'client_credentials', scope: `${scope} ${dueScopes}`, client_id: 'client-1' }, query: {} }],
    [BB, { authorization: basic, contentType: 'application/x-www-form-urlencoded', body: { grant_type: 'client_credentials', scope }, query: {} }],
    [ITAU, { contentType: 'application/x-www-form-urlencoded', body: { grant_type: 'client_credentials', client_id: 'client-1', client_secret: 'secret-1' }, query: {} }],
    [
      INTER,
      {
        contentType: 'application/x-www-form-urlencoded',
        body: { grant_type: 'client_credentials', scope: everyScope, client_id: 'client-1', client_secret: 'secret-1' },
        query: {},
      },
    ],
    [SANTANDER, { contentType: 'application/x-www-form-urlencoded', body: { client_id: 'client-1', client_secret: 'secret-1' }, query: { grant_type: 'client_credentials' } }],
    [SICREDI, { authorization: basic, contentType: 'application/x-www-form-urlencoded', body: { grant_type: 'client_credentials', scope }, query: {} }],
  ];

  it.each(cases.map(([profile, expected]) => [profile.name, profile, expected] as const))('%s', async (_, profile, expected) => {
    seen.length = 0;
    const transport = new HttpTransport();
    const adapter = new PixApiAdapter(transport, profile);
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
      transport.close();
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
