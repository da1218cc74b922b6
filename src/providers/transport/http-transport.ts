import { httpsRequest } from '../http/https-request';
import { MtlsAgentPool } from '../http/mtls-agent';
import { type OutboundAnswer, type OutboundRequest, OutboundTransport } from './transport';

/**
 * Interim: the OutboundTransport contract on the hand-written HTTPS client, until the transport on
 * @nestjs/axios replaces it. PSP calls only (mTLS agent per channel key).
 */
export class HttpTransport extends OutboundTransport {
  private readonly agents = new MtlsAgentPool();

  async send(request: OutboundRequest): Promise<OutboundAnswer> {
    const { channel } = request;
    if (!channel.tls) throw new TypeError('HttpTransport: only mTLS channels are supported');
    const agent = this.agents.agentFor(`${channel.key}|${channel.lane ?? 'payments'}`, channel.tls);
    const body = typeof request.body === 'string' || request.body === undefined ? request.body : request.body.toString('utf8');
    return httpsRequest({
      label: request.label,
      method: request.method,
      url: request.url,
      headers: request.headers,
      body,
      agent,
      timeoutMs: request.timeoutMs,
      maxResponseBytes: request.maxResponseBytes,
    });
  }

  close(): void {
    this.agents.destroy();
  }
}
