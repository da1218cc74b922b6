import { Agent, ClientRequest, request } from 'node:http';
import { eventually } from '../helpers/eventually';
import { GatewayProcess, startGatewayProcess } from '../helpers/gateway-process';

/**
 * SIGTERM on the built gateway: idle keep-alive connections are closed at once, and a kept-alive
 * one once its request in flight is answered. Deliveries in flight: shutdown-restart.e2e-spec.ts.
 */
jest.setTimeout(120_000);

/** Resolves once the process has printed `text`. */
async function waitForOutput(gw: GatewayProcess, text: string): Promise<void> {
  await eventually(
    () => gw.output(),
    (output) => output.includes(text),
  );
}

describe('graceful shutdown', () => {
  it('closes idle keep-alive connections at once, and a kept-alive one as soon as its request in flight is answered', async () => {
    const gw = await startGatewayProcess({ SHUTDOWN_TIMEOUT_MS: '60000' });
    // Two agents, so the second request cannot reuse the first one's idle socket.
    const idleAgent = new Agent({ keepAlive: true });
    const agent = new Agent({ keepAlive: true });
    const closed = (req: ClientRequest) => new Promise<void>((resolve) => req.socket!.once('close', () => resolve()));
    // One socket has served a request and sits idle in the agent's pool.
    const idle = await new Promise<{ closed: Promise<void> }>((resolve, reject) => {
      const req = request(`${gw.url}/health`, { agent: idleAgent }, (res) => {
        res.resume();
        res.on('end', () => resolve({ closed: closed(req) }));
      });
      req.on('error', reject);
      req.end();
    });
    // The other has a request in flight: its body is still arriving when SIGTERM comes.
    const body = JSON.stringify({ amount: 10.5 });
    const inFlight = request(`${gw.url}/v1/payments/create`, { agent, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } });
    const answered = new Promise<{ status: number; connection?: string; closed: Promise<void> }>((resolve, reject) => {
      inFlight.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, closed: closed(inFlight) }));
      });
      inFlight.on('error', reject);
    });
    inFlight.write(body.slice(0, 5));
    await new Promise<void>((resolve) => inFlight.once('socket', (socket) => (socket.connecting ? socket.once('connect', () => resolve()) : resolve())));
    gw.kill('SIGTERM');
    await waitForOutput(gw, 'SIGTERM received');
    await idle.closed;
    inFlight.end(body.slice(5));
    const answer = await answered;
    expect(answer).toMatchObject({ status: 401, connection: 'close' });
    // Left open, that socket would keep the server waiting out the keep-alive timeout (72 s), past this test's limit.
    await answer.closed;
    expect(await gw.exited).toBe(0);
    agent.destroy();
    idleAgent.destroy();
    // Under the 72 s keep-alive timeout, so a server that waited it out still fails; room enough for
    // the process to boot on a machine busy with the rest of the suite (it once took 25 s).
  }, 60_000);
});
