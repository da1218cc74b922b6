import { connect, Socket } from 'node:net';
import { http } from '../helpers/http';
import { startTestApp, TestApp } from '../helpers/test-app';

/** Resolves with how long the server took to close `socket`; rejects if it is still open at the deadline. */
function closedWithin(socket: Socket, deadlineMs: number): Promise<number> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${deadlineMs} ms`));
    }, deadlineMs);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

function openSocket(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => resolve(socket));
    socket.on('error', reject);
  });
}

describe('slow clients: header and body deadlines (HTTP)', () => {
  describe('with short deadlines', () => {
    let app: TestApp;
    let url: string;
    beforeAll(async () => {
      app = await startTestApp({ timeouts: { headersMs: 1_000, requestMs: 2_000, checkEveryMs: 200 } });
      url = app.url;
    });
    afterAll(() => app.close());

    it('closes a connection whose headers stall', async () => {
      const socket = await openSocket(url);
      socket.write('GET /health HTTP/1.1\r\nHost: loc');
      const elapsed = await closedWithin(socket, 5_000);
      expect(elapsed).toBeGreaterThanOrEqual(900);
    });

    it('closes a connection whose body stalls, even while bytes keep trickling in', async () => {
      const socket = await openSocket(url);
      socket.write('POST /webhooks/sandbox HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
      // One byte every 300 ms: never idle long, but the body is not complete by the deadline.
      const drip = setInterval(() => socket.writable && socket.write(' '), 300);
      try {
        const elapsed = await closedWithin(socket, 6_000);
        expect(elapsed).toBeGreaterThanOrEqual(1_500);
      } finally {
        clearInterval(drip);
      }
    });

    it('still serves a prompt request', async () => {
      expect((await http(url, 'GET', '/health')).status).toBe(200);
    });
  });
});
