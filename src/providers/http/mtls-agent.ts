import { createHash } from 'node:crypto';
import type { MtlsMaterial } from '../transport/transport';
import { Agent } from 'node:https';
import { rootCertificates } from 'node:tls';

export type { MtlsMaterial } from '../transport/transport';

export interface MtlsAgentOptions {
  /** Sockets per account and PSP host; a PSP throttles per client well before this. */
  maxSockets?: number;
  /** Idle kept-alive sockets close after this (PSPs drop idle connections themselves after about a minute). */
  idleTimeoutMs?: number;
}

/**
 * The version of an account's TLS material: a digest of the certificate, key and CA. Two loads of
 * the same credentials share an agent; new credentials for the account get a new one.
 */
export function mtlsFingerprint(material: MtlsMaterial): string {
  const hash = createHash('sha256');
  for (const part of [material.certificatePem, material.privateKeyPem, material.caPem ?? '']) {
    hash.update(String(part.length)).update(':').update(part);
  }
  return hash.digest('base64url').slice(0, 22);
}

/**
 * One `https.Agent` per account (and version of its credentials): the account's certificate on
 * every connection, keep-alive so a call does not pay a TLS handshake, and the system CAs plus
 * the account's extra CA. Agents of replaced credentials are dropped: their idle sockets close
 * on the idle timeout, calls in flight finish on them.
 */
export class MtlsAgentPool {
  private readonly agents = new Map<string, { version: string; agent: Agent }>();
  private readonly maxSockets: number;
  private readonly idleTimeoutMs: number;

  constructor(options: MtlsAgentOptions = {}) {
    this.maxSockets = options.maxSockets ?? 16;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 30_000;
  }

  /** The account's agent for this version of its material, made on first use. */
  agentFor(accountId: string, material: MtlsMaterial): Agent {
    const version = mtlsFingerprint(material);
    const known = this.agents.get(accountId);
    if (known?.version === version) return known.agent;
    const agent = new Agent({
      keepAlive: true,
      maxSockets: this.maxSockets,
      maxFreeSockets: this.maxSockets,
      // On a free socket: how long it may stay idle. Node destroys it when this fires.
      timeout: this.idleTimeoutMs,
      scheduling: 'lifo',
      cert: material.certificatePem,
      key: material.privateKeyPem,
      // `ca` replaces Node's trust store, so the public roots go in with the extra CA.
      ca: material.caPem ? [...rootCertificates, material.caPem] : undefined,
      minVersion: 'TLSv1.2',
      rejectUnauthorized: true,
    });
    this.agents.set(accountId, { version, agent });
    return agent;
  }

  /** How many accounts have an agent (for tests and the report of a pool's size). */
  get size(): number {
    return this.agents.size;
  }

  /** Closes every socket of every agent (shutdown). */
  destroy(): void {
    for (const { agent } of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}
