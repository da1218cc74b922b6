import { type PixApiProfile, STANDARD_PROFILE } from '../profile';

/**
 * Banco Santander. Its portal's API reference needs a login, so these facts are third-party (ACBr,
 * a maintained client used by many ERPs); check them with Santander before going live. Its
 * homologation ("pré-produção", mTLS) hosts are the `sandbox` environment's; the portal's own test
 * area has no mTLS.
 */
export const SANTANDER: PixApiProfile = {
  ...STANDARD_PROFILE,
  name: 'santander',
  displayName: 'Santander',
  // Hosts, under /api/v1: https://github.com/frones/ACBr/blob/master/Fontes/ACBrPIXCD/ACBrPIXPSPSantander.pas (third-party)
  apiBase: { production: 'https://trust-pix.santander.com.br/api/v1', sandbox: 'https://trust-pix-h.santander.com.br/api/v1' },
  // Token at /oauth/token, grant_type in the query: https://github.com/frones/ACBr/blob/master/Fontes/ACBrPIXCD/ACBrPIXPSPSantander.pas (third-party)
  tokenUrl: { production: 'https://trust-pix.santander.com.br/oauth/token', sandbox: 'https://trust-pix-h.santander.com.br/oauth/token' },
  // client_id and client_secret in a form body, no scope: https://github.com/frones/ACBr/blob/master/Fontes/ACBrPIXCD/ACBrPIXPSPSantander.pas (third-party)
  token: { clientAuth: 'body', encoding: 'form', scopes: null, grantTypeIn: 'query' },
  // PUT /cob/{txid} answers 200: https://github.com/frones/ACBr/blob/master/Fontes/ACBrPIXCD/ACBrPIXPSPSantander.pas (third-party)
  answers: { createCharge: 200, refund: 201, cancelCharge: 200, registerWebhook: 200 },
  // PATCH /cob/{txid} lives under /api/v2: https://github.com/frones/ACBr/blob/master/Fontes/ACBrPIXCD/ACBrPIXPSPSantander.pas (third-party)
  // No `recurring`: no Santander page offering Pix Automático on this API could be read. A Postman collection said to be Santander's (third-party copy) shows it on another API: /api/v1/rec on a separate host, with x-application-key and a `convenio` (https://github.com/michaeld555/santander-sdk/blob/main/endpoints/collection_pix_automatico.json).
  // No `dueCharges` nor `chargeBatches`: no Santander page offering /cobv or /lotecobv could be read (its API reference needs a login).
  routeBase: (operation, base) => (operation === 'cancel charge' ? base.replace(/\/api\/v1$/, '/api/v2') : base),
};
