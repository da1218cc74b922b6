import type { ProviderDescriptor } from '../provider-descriptor';
import { MERCADO_PAGO_API } from './flows/api-call';

/**
 * Mercado Pago as the catalogue shows it: one host for test and production credentials, an access
 * token and the notifications' secret. It refunds whole or in part and cancels; its webhook is set
 * in its panel, not through the API; it chooses the Pix txid itself.
 */
export const MERCADO_PAGO_DESCRIPTOR: ProviderDescriptor = {
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
  capabilities: { refund: true, partialRefund: true, cancel: true, registerWebhook: false, txid: 'provider' },
};
