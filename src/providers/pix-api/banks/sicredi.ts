import { type PixApiProfile, STANDARD_PROFILE, STANDARD_SCOPES } from '../profile';

/**
 * Sicredi. Its technical guide (a PDF, https://www.sicredi.com.br/media/produtos/filer_public/2022/12/19/guia_tecnico_integracoes_api_pix_sicredi.pdf)
 * could not be read here; these facts are integrators' readings of it. It versions routes one by
 * one: a charge by txid on /api/v3, the rest on /api/v2 (integrators disagree on the PUT; set
 * base_url to pin one version for every route).
 */
export const SICREDI: PixApiProfile = {
  ...STANDARD_PROFILE,
  name: 'sicredi',
  displayName: 'Sicredi',
  // Hosts, under /api/v2 (quoting the guide): https://github.com/laddertech/pypix-api/blob/main/docs/Sicredi/RELATORIO_VIABILIDADE_SICREDI.md
  apiBase: { production: 'https://api-pix.sicredi.com.br/api/v2', sandbox: 'https://api-pix-h.sicredi.com.br/api/v2' },
  // Token at /oauth/token of the same hosts: https://github.com/laddertech/pypix-api/blob/main/pypix_api/banks/sicredi.py
  tokenUrl: { production: 'https://api-pix.sicredi.com.br/oauth/token', sandbox: 'https://api-pix-h.sicredi.com.br/oauth/token' },
  // Basic client auth, form body with scope; the token holds only the scopes the credential has: https://github.com/laddertech/pypix-api/blob/main/docs/Sicredi/RELATORIO_VIABILIDADE_SICREDI.md
  token: { clientAuth: 'basic', encoding: 'form', scopes: STANDARD_SCOPES, grantTypeIn: 'body' },
  // Devolução answers 200 where the standard says 201 (third-party, ambiguous): https://github.com/frones/ACBr/blob/master/Fontes/ACBrPIXCD/ACBrPIXPSPSicredi.pas
  answers: { createCharge: 201, refund: 200, cancelCharge: 200, registerWebhook: 200 },
  // cob/{txid} (PUT, PATCH, GET) on /api/v3: https://github.com/laddertech/pypix-api/blob/main/pypix_api/banks/sicredi.py (RESOURCE_ITEM_VERSIONS)
  // No `recurring`: no Sicredi page offering Pix Automático through this API was found.
  // No `dueCharges` nor `chargeBatches`: no Sicredi page offering /cobv or /lotecobv could be read (its technical guide, a PDF, could not be).
  routeBase: (operation, base) => (operation === 'create charge' || operation === 'read charge' || operation === 'cancel charge' ? base.replace(/\/api\/v2$/, '/api/v3') : base),
};
