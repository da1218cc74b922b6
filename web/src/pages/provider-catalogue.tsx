import { api } from '../api';
import type { AccountEnvironment, ProviderDescriptor } from '../types';
import { useLoad } from '../ui';

/**
 * The catalogue the gateway serves (`GET /admin/api/providers`, docs/providers.md) and what pages read
 * in it: each provider says which environments, hosts, settings and credential fields it has.
 * Nothing here knows a PSP.
 */
export function useCatalogue() {
  return useLoad(() => api<ProviderDescriptor[]>('GET', '/providers'), []);
}

export function findProvider(catalogue: readonly ProviderDescriptor[] | undefined, name: string): ProviderDescriptor | undefined {
  return catalogue?.find((provider) => provider.name === name);
}

/** The provider's label, or its name while the catalogue is loading or does not list it. */
export function providerLabel(catalogue: readonly ProviderDescriptor[] | undefined, name: string): string {
  return findProvider(catalogue, name)?.label ?? name;
}

/** Whether the provider's accounts present a client certificate (a Pix API PSP's mTLS), which their summary then describes. */
export function takesCertificate(provider: ProviderDescriptor): boolean {
  return provider.credentials.some((field) => field.kind === 'pem' || field.kind === 'pkcs12');
}

/** The providers a merchant without accounts can be charged through: the choices of its `provider`, undefined while the catalogue loads. */
export function builtInProviders(catalogue: readonly ProviderDescriptor[] | undefined): { name: string; label: string }[] | undefined {
  return catalogue?.filter((provider) => provider.built_in).map(({ name, label }) => ({ name, label }));
}

export const ENVIRONMENT_LABELS: Record<AccountEnvironment, string> = { sandbox: 'Sandbox', production: 'Production' };
export const ENVIRONMENTS = Object.keys(ENVIRONMENT_LABELS) as AccountEnvironment[];

/**
 * Which environment an account (or a payment made through one) is in: homologation stands out from
 * real money, and an outlined badge does not read as a status beside one.
 */
export function EnvironmentBadge({ environment }: { environment: AccountEnvironment }) {
  return (
    <span className={`badge badge-env badge-env-${environment}`} title={environment === 'sandbox' ? "The PSP's homologation host: test credentials, no real money" : 'Real money'}>
      {environment}
    </span>
  );
}
