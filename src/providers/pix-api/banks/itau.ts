import { randomUUID } from 'node:crypto';
import { type PixApiProfile, STANDARD_PROFILE } from '../profile';

/**
 * Itaú Unibanco ("Pix Recebimentos"). Tokens live five minutes (the token cache gives one up 30 s
 * early, a tenth of its life); certificates are Itaú-signed from the customer's CSR ("certificado
 * dinâmico") and arrive as PEM.
 */
export const ITAU: PixApiProfile = {
  ...STANDARD_PROFILE,
  name: 'itau',
  displayName: 'Itaú',
  // Production base (third-party): https://github.com/frones/ACBr/blob/master/Fontes/ACBrPIXCD/ACBrPIXPSPItau.pas
  // No homologation host (`sandbox`): Itaú's test environment has neither OAuth 2.0 nor mTLS: https://devportal.itau.com.br/autenticacao-documentacao
  apiBase: { production: 'https://secure.api.itau/pix_recebimentos/v2', sandbox: null },
  // Token URL (third-party; some integrators use https://sts.itau.com.br/api/oauth/token: set token_url): https://github.com/frones/ACBr/blob/master/Fontes/ACBrPIXCD/ACBrPIXPSPItau.pas
  tokenUrl: { production: 'https://sts.itau.com.br/as/token.oauth2', sandbox: null },
  // client_id and client_secret in a form body, over mTLS, no scope (third-party): https://github.com/frones/ACBr/blob/master/Fontes/ACBrPIXCD/ACBrPIXPSPItau.pas
  // Five-minute tokens, mTLS in production: https://devportal.itau.com.br/autenticacao-documentacao
  token: { clientAuth: 'body', encoding: 'form', scopes: null, grantTypeIn: 'body' },
  // A fresh x-correlationID on every call (third-party): https://github.com/frones/ACBr/blob/master/Fontes/ACBrPIXCD/ACBrPIXPSPItau.pas
  // No `recurring`: no Itaú page offering Pix Automático through this API was found.
  // No `dueCharges` nor `chargeBatches`: no Itaú page offering /cobv or /lotecobv was found.
  headers: () => ({ 'x-correlationID': randomUUID() }),
};
