import { createHash } from 'node:crypto';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { Channel, MtlsMaterial } from './transport';

export interface AgentPoolOptions {
  /** Sockets per channel, lane and host unless the channel says otherwise; a PSP throttles per client well before this. */
  maxSockets?: number;
  /** Idle kept-alive sockets of mutual-TLS channels close after this (PSPs drop idle connections themselves after about a minute). */
  mtlsIdleTimeoutMs?: number;
  /**
   * Idle kept-alive sockets of plain channels (merchants, the simulated PSP) close after this. Under the
   * 5 s idle timeout of Node's own HTTP server, a common merchant stack, so a reused socket is rarely
   * one the server is closing.
   */
  plainIdleTimeoutMs?: number;
}

/**
 * The version of an account's TLS material: a digest of the certificate, key and CA. Two loads of
 * the same credentials share an agent; new credentials for the account get a new one.
 */
export function mtlsFingerprint(material: MtlsMaterial): string {
  // Asked on every call of the account: the same parsed credentials are hashed once.
  const known = fingerprints.get(material);
  if (known !== undefined) return known;
  const hash = createHash('sha256');
  for (const part of [material.certificatePem, material.privateKeyPem, material.caPem ?? '']) {
    hash.update(String(part.length)).update(':').update(part);
  }
  const fingerprint = hash.digest('base64url').slice(0, 22);
  fingerprints.set(material, fingerprint);
  return fingerprint;
}
const fingerprints = new WeakMap<MtlsMaterial, string>();

type AnyAgent = HttpAgent | HttpsAgent;

/**
 * One agent per channel key, lane, scheme and version of the channel's TLS material, made on first
 * use. Separate agents are separate sockets: a lane never waits for a socket another lane holds.
 * Keep-alive, so a call does not pay a TCP or TLS handshake; LIFO, so the warmest socket is reused
 * and the others time out. An agent of replaced credentials is dropped: calls in flight finish on
 * it, and its idle sockets close on the idle timeout.
 */
export class AgentPool {
  private readonly agents = new Map<string, { version: string; agent: AnyAgent }>();
  private readonly maxSockets: number;
  private readonly mtlsIdleTimeoutMs: number;
  private readonly plainIdleTimeoutMs: number;

  constructor(options: AgentPoolOptions = {}) {
    this.maxSockets = options.maxSockets ?? 16;
    this.mtlsIdleTimeoutMs = options.mtlsIdleTimeoutMs ?? 30_000;
    this.plainIdleTimeoutMs = options.plainIdleTimeoutMs ?? 4_000;
  }

  /** The agent `channel` uses for a URL of `protocol` (`http:` or `https:`). */
  agentFor(channel: Channel, protocol: string): AnyAgent {
    const tls = channel.tls ?? null;
    if (tls && protocol !== 'https:') throw new TypeError('a mutual-TLS channel only speaks https');
    const key = `${channel.key}|${channel.lane ?? 'payments'}|${protocol}`;
    const maxSockets = channel.maxSockets ?? this.maxSockets;
    const version = `${tls ? mtlsFingerprint(tls) : 'plain'}|${maxSockets}`;
    const known = this.agents.get(key);
    if (known?.version === version) return known.agent;
    const shared = {
      keepAlive: true,
      maxSockets,
      maxFreeSockets: maxSockets,
      // On a free socket: how long it may stay idle. Node destroys it when this fires.
      timeout: tls ? this.mtlsIdleTimeoutMs : this.plainIdleTimeoutMs,
      scheduling: 'lifo' as const,
    };
    const agent =
      protocol === 'https:'
        ? new HttpsAgent({
            ...shared,
            minVersion: 'TLSv1.2',
            rejectUnauthorized: true,
            ...(tls
              ? {
                  cert: tls.certificatePem,
                  key: tls.privateKeyPem,
                  // `ca` replaces Node's trust store, so the public roots go in with the extra CA.
                  ca: tls.caPem ? [...rootCertificates, tls.caPem] : undefined,
                }
              : {}),
          })
        : new HttpAgent(shared);
    this.agents.set(key, { version, agent });
    return agent;
  }

  /** How many agents exist (for tests). */
  get size(): number {
    return this.agents.size;
  }

  /** Closes every socket of every agent (shutdown). */
  destroy(): void {
    for (const { agent } of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
