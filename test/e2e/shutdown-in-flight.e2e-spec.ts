import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startSandboxServer } from '../../src/sandbox-psp/standalone';
import { apiClients } from '../helpers/clients';
import { eventually } from '../helpers/eventually';
import { paymentBody } from '../helpers/factories';
import { tempDirs } from '../helpers/factories';
import { startGatewayProcess } from '../helpers/gateway-process';
import { describeOn } from '../helpers/test-env';

/** SIGTERM on the built gateway while a provider call is in flight: the request is answered, then the embedded database is closed. */
jest.setTimeout(180_000);

describeOn('embedded', 'closing the embedded database and its lock file is what it checks')('gateway process', () => {
  const tempDir = tempDirs('gw-proc-');

  it('on SIGTERM lets the request in flight finish, then closes the database and exits 0', async () => {
    // The provider: a standalone sandbox PSP behind a proxy that holds each create until released.
    const sandbox = await startSandboxServer({ logLevel: 'silent' });
    let release!: () => void;
    const released = new Promise<void>((resolveRelease) => (release = resolveRelease));
    let arrived!: () => void;
    const createArrived = new Promise<void>((resolveArrived) => (arrived = resolveArrived));
    const proxy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      const forward = async () => {
        if (req.method === 'POST' && req.url === '/charges') {
          arrived();
          await released;
        }
        try {
          const headers: Record<string, string> = {};
          for (const name of ['content-type', 'idempotency-key', 'authorization']) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
          const upstream = await fetch(`${sandbox.url}${req.url}`, { method: req.method, headers, body: req.method === 'GET' ? undefined : Buffer.concat(chunks) });
          res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' }).end(Buffer.from(await upstream.arrayBuffer()));
        } catch (error) {
          res.writeHead(599).end(String(error));
        }
      };
      req.on('end', () => void forward());
    });
    await new Promise<void>((resolveListen) => proxy.listen(0, '127.0.0.1', () => resolveListen()));
    const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    try {
      const dataDir = tempDir();
      const gw = await startGatewayProcess({ DATA_DIR: dataDir, SANDBOX_BASE_URL: proxyUrl, SANDBOX_API_TOKEN: sandbox.apiToken, LOG_LEVEL: 'info' });
      const api = apiClients(gw.url);
      const shop = await api.admin.newMerchant();
      const inFlight = api.merchant(shop.apiKey).POST('/v1/payments/create', { body: paymentBody(), params: { header: { 'Idempotency-Key': 'sigterm' } } });
      await createArrived;
      gw.kill('SIGTERM');
      // The gateway is closing while the provider still holds the call.
      await eventually(
        () => gw.output(),
        (output) => output.includes('SIGTERM received'),
      );
      release();
      const res = await inFlight;
      expect({ status: res.status, body: res.body }).toMatchObject({ status: 201 });
      expect(await gw.exited).toBe(0);
      expect(gw.output()).toContain('Embedded database closed');
      expect(existsSync(join(dataDir, 'gateway.lock'))).toBe(false);
    } finally {
      proxy.closeAllConnections();
      proxy.close();
      await sandbox.close();
    }
  });
});
