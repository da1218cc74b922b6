import { type PixApiProfile, STANDARD_PROFILE } from '../profile';
import { BCB_LEAD_TIME } from './pix-automatico';

/**
 * Efí Bank (formerly Gerencianet). Its Pix API is the standard under `/v2`, with JSON token requests
 * and scopes chosen per application rather than per request.
 */
export const EFI: PixApiProfile = {
  ...STANDARD_PROFILE,
  name: 'efi',
  displayName: 'Efí',
  // Hosts, every route under /v2: https://github.com/efipay/sdk-node-apis-efi/blob/master/src/lib/constants.js (Efí's own SDK)
  apiBase: { production: 'https://pix.api.efipay.com.br/v2', sandbox: 'https://pix-h.api.efipay.com.br/v2' },
  // Token at /oauth/token of the same host, mTLS included ("inclusive na requisição de autorização"): https://dev.efipay.com.br/docs/api-pix/credenciais/
  tokenUrl: { production: 'https://pix.api.efipay.com.br/oauth/token', sandbox: 'https://pix-h.api.efipay.com.br/oauth/token' },
  // Basic client auth with a JSON body {"grant_type":"client_credentials"}; scopes are set on the application: https://dev.efipay.com.br/docs/api-pix/credenciais/
  token: { clientAuth: 'basic', encoding: 'json', scopes: null, grantTypeIn: 'body' },
  // Certificates come as a .p12 without a password (pkcs12_base64 alone): https://dev.efipay.com.br/docs/api-pix/credenciais/
  // `skip_mtls_checking`: register the webhook with x-skip-mtls-checking, for a receiver that cannot require Efí's client certificate: https://dev.efipay.com.br/docs/api-pix/webhooks/
  extras: [
    {
      name: 'skip_mtls_checking',
      kind: 'boolean',
      required: false,
      label: 'Register the webhook with x-skip-mtls-checking',
      help: "For a gateway behind a proxy that cannot ask for Efí's client certificate.",
    },
  ],
  // PUT /cob/{txid} and devolução answer 201; PUT /webhook/{chave} 201 (2023 build of the page): https://dev.efipay.com.br/docs/api-pix/webhooks/
  answers: { createCharge: 201, refund: 201, cancelCharge: 200, registerWebhook: 201 },
  // Pix Automático through this API: /v2/locrec, /v2/rec, /v2/solicrec, /v2/cobr (with /retentativa/:data), /v2/webhookrec, /v2/webhookcobr on the same host, the standard's scopes ("POST /v2/rec Requires authorization for the scope: rec.write"): https://dev.efipay.com.br/en/docs/api-pix/pix-automatico/ · https://github.com/efipay/sdk-node-apis-efi/blob/master/src/lib/constants.js
  // No lead time of Efí's own found on its page (read in part here): the Central Bank's 2 to 10 days (banks/pix-automatico.ts).
  recurring: { leadTime: BCB_LEAD_TIME, source: 'https://dev.efipay.com.br/en/docs/api-pix/pix-automatico/' },
  // Due-date charges through this API: PUT/PATCH/GET /v2/cobv/:txid, scope cobv.write ("Create Due Charge"): https://dev.efipay.com.br/en/docs/api-pix/cobrancas-com-vencimento/
  dueCharges: { source: 'https://dev.efipay.com.br/en/docs/api-pix/cobrancas-com-vencimento/' },
  // Batches: PUT/PATCH/GET /v2/lotecobv/:id, "The batch creation must contain at least 1 payment and at most 1000": https://dev.efipay.com.br/en/docs/api-pix/cobrancas-lote/
  chargeBatches: { maxCharges: 1_000, source: 'https://dev.efipay.com.br/en/docs/api-pix/cobrancas-lote/' },
  webhookHeaders: (credentials): Record<string, string> => (credentials.extras.skip_mtls_checking === true ? { 'x-skip-mtls-checking': 'true' } : {}),
};
