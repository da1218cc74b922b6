import { testPki } from '../../../test/fakes/certificates';
import { MtlsAgentPool, mtlsFingerprint } from './mtls-agent';

describe('MtlsAgentPool', () => {
  const pki = testPki();
  const material = { certificatePem: pki.client.cert, privateKeyPem: pki.client.key, caPem: pki.ca.cert };

  it('gives an account the same agent while its credentials stay the same', () => {
    const pool = new MtlsAgentPool();
    const agent = pool.agentFor('pa_1', material);
    expect(pool.agentFor('pa_1', { ...material })).toBe(agent);
    expect(agent.options).toMatchObject({ keepAlive: true, cert: pki.client.cert, key: pki.client.key, rejectUnauthorized: true, minVersion: 'TLSv1.2' });
    pool.destroy();
  });

  it('gives each account its own agent, and an account a new one when its credentials change', () => {
    const pool = new MtlsAgentPool();
    const first = pool.agentFor('pa_1', material);
    expect(pool.agentFor('pa_2', material)).not.toBe(first);
    const renewed = pool.agentFor('pa_1', { ...material, certificatePem: pki.expiredClient.cert, privateKeyPem: pki.expiredClient.key });
    expect(renewed).not.toBe(first);
    expect(pool.size).toBe(2);
    pool.destroy();
    expect(pool.size).toBe(0);
  });

  it('trusts the extra CA on top of the public roots, and only the public roots without one', () => {
    const pool = new MtlsAgentPool();
    const withCa = pool.agentFor('pa_1', material).options.ca as string[];
    expect(withCa).toContain(pki.ca.cert);
    expect(withCa.length).toBeGreaterThan(1);
    expect(pool.agentFor('pa_2', { ...material, caPem: null }).options.ca).toBeUndefined();
    pool.destroy();
  });

  it('versions material by a digest that changes with any part', () => {
    const base = mtlsFingerprint(material);
    expect(mtlsFingerprint({ ...material })).toBe(base);
    expect(mtlsFingerprint({ ...material, caPem: null })).not.toBe(base);
    expect(mtlsFingerprint({ ...material, privateKeyPem: pki.untrustedClient.key })).not.toBe(base);
    expect(base).not.toContain(pki.client.key.slice(40, 60));
  });
});
