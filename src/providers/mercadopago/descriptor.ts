import type { ProviderCapabilities } from '../provider-adapter';
import type { ProviderDescriptor } from '../provider-descriptor';
import { MERCADO_PAGO_API } from './flows/api-call';

/** Mercado Pago as the catalogue shows it: one host for test and production credentials, an access token and the notifications' secret. */
export function mercadoPagoDescriptor(capabilities: ProviderCapabilities): ProviderDescriptor {
  return {
    name: 'mercadopago',
    label: 'Mercado Pago',
    environments: [
      { name: 'sandbox', baseUrl: MERCADO_PAGO_API, tokenUrl: null },
      { name: 'production', baseUrl: MERCADO_PAGO_API, tokenUrl: null },
    ],
    settings: [{ name: 'base_url', label: 'API base URL', requiredIn: [], help: `Leave empty for Mercado Pago's own (${MERCADO_PAGO_API}).` }],
    credentials: [
      {
        name: 'access_token',
        label: 'Access token',
        kind: 'secret',
        required: true,
        help: 'Your integrations → your application → Production credentials (APP_USR-…) or Test credentials (TEST-…).',
      },
      {
        name: 'webhook_secret',
        label: 'Webhook secret signature',
        kind: 'secret',
        required: true,
        help: "Your integrations → your application → Webhooks → Configure notifications: paste this account's webhook URL there, save, and copy the secret signature shown.",
      },
      {
        name: 'ca_pem',
        label: 'CA certificates (PEM)',
        kind: 'pem',
        pem: 'certificates',
        required: false,
        help: 'Only when base_url is a host whose certificate a private CA signed (a test double, a proxy).',
      },
    ],
    oneOf: [],
    capabilities,
  };
}
