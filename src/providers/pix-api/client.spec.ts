import { testPki } from '../../testing/certificates';
import { FakeClock } from '../../testing/fake-clock';
import type { Account } from '../provider-adapter';
import { type OutboundAnswer, type OutboundRequest, OutboundTransport } from '../transport/transport';
import type { PixApiCredentials } from './credentials';
import { readCobCall } from './flows/read';
import { PixApiClient } from './client';
import { PIX_API } from './profile';

const pki = testPki();

/** A PSP in memory: tokens `t1`, `t2`… from its token URL; API answers from `answer` (200 by default). */
class ScriptedTransport extends OutboundTransport {
  readonly sent: OutboundRequest[] = [];
  tokens = 0;
  answer: (request: OutboundRequest) => OutboundAnswer = () => ({ status: 200, headers: {}, text: '{}' });

  async send(request: OutboundRequest): Promise<OutboundAnswer> {
    this.sent.push(request);
    if (request.url.pathname.endsWith('/token')) return { status: 200, headers: {}, text: JSON.stringify({ access_token: `t${++this.tokens}`, expires_in: 3600 }) };
    return this.answer(request);
  }

  close(): void {
    this.sent.length = 0;
  }
}

describe('PixApiClient', () => {
  const clock = new FakeClock();
  const credentials: PixApiCredentials = {
    clientId: 'client',
    clientSecret: 'secret',
    tls: { certificatePem: pki.client.cert, privateKeyPem: pki.client.key, caPem: null },
    extras: {},
    certificate: { subject: 'CN=test', expiresAt: '2030-01-01T00:00:00Z' },
  };
  const account: Account<PixApiCredentials> = {
    id: 'pa_1',
    provider: 'pix-api',
    environment: 'sandbox',
    baseUrl: 'https://psp.example/v2',
    tokenUrl: 'https://psp.example/oauth/token',
    pixKey: 'k',
    credentials,
  };
  const call = readCobCall('a'.repeat(26));
  let transport: ScriptedTransport;
  let client: PixApiClient;
  beforeEach(() => {
    transport = new ScriptedTransport();
    client = new PixApiClient(PIX_API, { clock, transport });
  });
  const bearer = (request: OutboundRequest | undefined) => request?.headers?.authorization;

  it('asks for a new token when the API host, the token URL, the client id, the secret or the certificate changes', async () => {
    await client.call(account, call, { timeoutMs: 1000 });
    await client.call(account, call, { timeoutMs: 1000 });
    expect(transport.tokens).toBe(1);
    const variants: Account<PixApiCredentials>[] = [
      { ...account, baseUrl: 'https://other.example/v2' },
      { ...account, tokenUrl: 'https://psp.example/oauth/v2/token' },
      { ...account, credentials: { ...credentials, clientId: 'client2' } },
      { ...account, credentials: { ...credentials, clientSecret: 'secret2' } },
      { ...account, credentials: { ...credentials, tls: { ...credentials.tls, certificatePem: pki.untrustedClient.cert, privateKeyPem: pki.untrustedClient.key } } },
    ];
    for (const [i, variant] of variants.entries()) {
      await client.call(variant, call, { timeoutMs: 1000 });
      expect(transport.tokens).toBe(i + 2);
    }
  });

  it('freshToken: a new token whatever is cached, which later calls then use', async () => {
    await client.call(account, call, { timeoutMs: 1000 });
    await client.call(account, call, { timeoutMs: 1000, freshToken: true });
    await client.call(account, call, { timeoutMs: 1000 });
    expect(transport.tokens).toBe(2);
    expect(bearer(transport.sent.at(-1))).toBe('Bearer t2');
  });

  it('refreshes once on a 401; a second 401 is the answer', async () => {
    transport.answer = () => ({ status: 401, headers: {}, text: '' });
    const answer = await client.call(account, call, { timeoutMs: 1000 });
    expect(answer.status).toBe(401);
    expect(transport.tokens).toBe(2);
    expect(transport.sent.filter((r) => !r.url.pathname.endsWith('/token')).map(bearer)).toEqual(['Bearer t1', 'Bearer t2']);
  });

  it('puts the lane and the signal on the channel; a 429 on one lane holds that lane only', async () => {
    transport.answer = (request) => (request.channel.lane === 'payments' ? { status: 429, headers: { 'retry-after': '5' }, text: '' } : { status: 200, headers: {}, text: '{}' });
    const signal = new AbortController().signal;
    expect((await client.call(account, call, { timeoutMs: 1000 })).status).toBe(429);
    await expect(client.call(account, call, { timeoutMs: 1000 })).rejects.toMatchObject({ upstreamStatus: 429 });
    expect((await client.call(account, call, { timeoutMs: 1000, lane: 'callbacks', signal })).status).toBe(200);
    const last = transport.sent.at(-1)!;
    expect(last.channel).toMatchObject({ key: 'pa_1', lane: 'callbacks', tls: credentials.tls });
    expect(last.signal).toBe(signal);
    clock.advance(5_000);
    expect((await client.call(account, call, { timeoutMs: 1000 })).status).toBe(429);
  });
});
