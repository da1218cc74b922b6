import { createServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import axios from 'axios';
import { testPki } from '../../src/testing/certificates';
import { HttpTransport } from '../../src/providers/transport/http-transport';

const pki = testPki();
const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
};

// The transport never goes through a proxy the environment names: it would connect to an address
// nobody checked (src/providers/transport/http-transport.ts). Its adapter (node-http-adapter.ts)
// has no proxy support at all; these cases keep it so with every variable axios would read.
describe('HttpTransport with a proxy named in the environment', () => {
  let proxy: Server;
  let proxyUrl: string;
  let proxied: string[] = [];
  let plain: Server;
  let secure: Server;
  let transport: HttpTransport;
  const saved = { ...process.env };

  beforeAll(async () => {
    // A proxy that would forward nothing: it records what it was handed, a plain request or a CONNECT.
    proxy = createServer((req, res) => {
      proxied.push(`${req.method} ${req.url}`);
      res.writeHead(502).end();
    });
    proxy.on('connect', (req, socket) => {
      proxied.push(`CONNECT ${req.url}`);
      socket.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
    proxyUrl = `http://${await listen(proxy)}`;
    plain = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"direct":true}'));
    secure = createHttpsServer({ key: pki.server.key, cert: pki.server.cert, ca: [pki.ca.cert], requestCert: true }, (_req, res) => res.writeHead(200).end('{"direct":true}'));
    await Promise.all([listen(plain), listen(secure)]);
    transport = new HttpTransport();
  });
  afterEach(() => {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
    proxied = [];
  });
  afterAll(async () => {
    transport.close();
    await Promise.all([proxy, plain, secure].map((server) => new Promise((resolve) => server.close(resolve))));
  });

  const send = (url: string, tls = false) =>
    transport.send({
      label: 'Test: read',
      method: 'GET',
      url: new URL(url),
      channel: { key: 'proxy-spec', tls: tls ? { certificatePem: pki.client.cert, privateKeyPem: pki.client.key, caPem: pki.ca.cert } : null },
      timeoutMs: 2_000,
    });
  const origin = (server: Server, scheme: string) => `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;

  it('the proxy is real: axios left to itself sends through it', async () => {
    process.env.HTTP_PROXY = proxyUrl;
    const answer = await axios.get(`${origin(plain, 'http')}/`, { validateStatus: null });
    expect(answer.status).toBe(502);
    expect(proxied).toEqual([`GET ${origin(plain, 'http')}/`]);
  });

  it.each(['HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy', 'npm_config_proxy', 'npm_config_http_proxy'])('goes straight to an http server with %s set', async (name) => {
    process.env[name] = proxyUrl;
    expect(await send(`${origin(plain, 'http')}/`)).toMatchObject({ status: 200, text: '{"direct":true}' });
    expect(proxied).toEqual([]);
  });

  it.each(['HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'npm_config_https_proxy'])('goes straight to an https server with %s set', async (name) => {
    process.env[name] = proxyUrl;
    expect(await send(`${origin(secure, 'https')}/`, true)).toMatchObject({ status: 200, text: '{"direct":true}' });
    expect(proxied).toEqual([]);
  });
});
