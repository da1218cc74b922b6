import { request as httpRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import axios from 'axios';
import { pinnedLookup, resolveDeliveryTarget } from '../../src/common/net/webhook-url-policy';

/** The delivery target's pinned address, used by real sockets (the URL rules themselves are unit specs beside the code). */
describe('pinnedLookup', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) => res.end(`host=${req.headers.host}`));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers both lookup shapes Node uses', () => {
    const lookup = pinnedLookup({ address: '93.184.216.34', family: 4 });
    const one = jest.fn();
    const all = jest.fn();
    lookup('anything.example', { family: 0 }, one);
    lookup('anything.example', { all: true }, all);
    expect(one).toHaveBeenCalledWith(null, '93.184.216.34', 4);
    expect(all).toHaveBeenCalledWith(null, [{ address: '93.184.216.34', family: 4 }]);
  });

  it('makes a real http request connect to the pinned address while keeping the Host header', async () => {
    const body = await new Promise<string>((resolve, reject) => {
      const req = httpRequest(`http://merchant.example:${port}/h`, { lookup: pinnedLookup({ address: '127.0.0.1', family: 4 }) }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(text));
      });
      req.on('error', reject);
      req.end();
    });
    expect(body).toBe(`host=merchant.example:${port}`);
  });

  it("works as axios's lookup option, the way the delivery worker calls merchants", async () => {
    const target = await resolveDeliveryTarget(`http://merchant.example:${port}/h`, { allowPrivate: true, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
    const res = await axios.get(target.url.href, { lookup: target.lookup, maxRedirects: 0, proxy: false });
    expect(res.data).toBe(`host=merchant.example:${port}`);
  });
});
