import { HttpService } from '@nestjs/axios';
import { loadConfig } from '../../src/config/load-config';
import { SandboxProvider } from '../../src/providers/sandbox/sandbox.provider';
import { startSandboxServer } from '../../src/providers/sandbox/server/standalone';
import { type ContractFailureMode, type ProviderFake, providerContract } from './provider-contract';

const TIMEOUT_MS = 300;

/** The sandbox PSP started alone on a free port, as `npm run sandbox` runs it, and the adapter pointed at it. */
async function startSandboxFake(webhookSecret: string | undefined): Promise<ProviderFake> {
  const sandbox = await startSandboxServer({ port: 0, webhookSecret, logLevel: 'silent' });
  const auth = { authorization: `Bearer ${sandbox.apiToken}` };
  // The adapter is given the sandbox's token as SANDBOX_API_TOKEN, as an operator would.
  const { config } = loadConfig(
    {
      NODE_ENV: 'test',
      DATA_DIR: ':memory:',
      SANDBOX_BASE_URL: sandbox.url,
      SANDBOX_API_TOKEN: sandbox.apiToken,
      SANDBOX_WEBHOOK_SECRET: webhookSecret,
      UPSTREAM_TIMEOUT_MS: String(TIMEOUT_MS),
    },
    { persistGenerated: false },
  );
  const provider = new SandboxProvider(new HttpService(), config);
  const post = async (path: string, body: unknown, expected: number) => {
    const res = await fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth }, body: JSON.stringify(body) });
    if (res.status !== expected) throw new Error(`sandbox ${path} answered ${res.status}: ${await res.text()}`);
  };
  let stopped = false;
  return {
    provider,
    signs: webhookSecret !== undefined,
    simulate: (charge, type) => post(`/charges/${charge.providerPaymentId}/simulate`, { event: type }, 202),
    injectFailure: (mode: ContractFailureMode, operation, count = 1) => post('/_control/failures', { mode, operation, count }, 204),
    clearFailures: async () => {
      if (!stopped) await fetch(`${sandbox.url}/_control/failures`, { method: 'DELETE', headers: auth });
    },
    stop: async () => {
      stopped = true;
      await sandbox.close();
    },
    close: async () => {
      provider.onApplicationShutdown();
      if (!stopped) await sandbox.close();
    },
  };
}

providerContract('sandbox, signed events', () => startSandboxFake('whsec_contract_test_secret'));
providerContract('sandbox, unsigned events (no SANDBOX_WEBHOOK_SECRET)', () => startSandboxFake(undefined));
