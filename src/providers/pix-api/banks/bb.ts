import { type PixApiProfile, STANDARD_PROFILE, STANDARD_SCOPES } from '../profile';

/**
 * Banco do Brasil. Every API call carries the application's key as a query parameter. No BB page
 * confirming these facts could be read (its portal is a JavaScript application): they are the
 * maintained third-party clients' readings; check them on https://apoio.developers.bb.com.br/apis/28
 * before going live.
 */
export const BB: PixApiProfile = {
  ...STANDARD_PROFILE,
  name: 'bb',
  displayName: 'Banco do Brasil',
  // Hosts (the mTLS ones: `api-pix.`): https://github.com/laddertech/pypix-api/blob/main/pypix_api/banks/bb.py (third-party)
  apiBase: { production: 'https://api-pix.bb.com.br/pix/v2', sandbox: 'https://api-pix.hm.bb.com.br/pix/v2' },
  // Token URLs: https://github.com/frones/ACBr/blob/master/Fontes/ACBrPIXCD/ACBrPIXPSPBancoDoBrasil.pas (third-party)
  tokenUrl: { production: 'https://oauth.bb.com.br/oauth/token', sandbox: 'https://oauth.hm.bb.com.br/oauth/token' },
  // Basic client auth, form body (JSON is answered 415): https://forum.developers.bb.com.br/t/status-code-415-unsupported-media-type-somente-em-producao/1123
  token: { clientAuth: 'basic', encoding: 'form', scopes: STANDARD_SCOPES, grantTypeIn: 'body' },
  // The application key BB issues (developer key in homologation, application key in production): https://github.com/imobanco/bb-wrapper/blob/main/bb_wrapper/wrapper/bb.py (third-party)
  extras: [
    {
      name: 'app_key',
      kind: 'string',
      required: true,
      label: 'Application key',
      help: 'The developer application key BB issues (sent as gw-dev-app-key in homologation, gw-app-key in production).',
    },
  ],
  // PUT /cob/{txid} answers 200, and PATCH /cob/{txid} (the cancel) 201 (third-party): https://github.com/frones/ACBr/blob/master/Fontes/ACBrPIXCD/ACBrPIXPSPBancoDoBrasil.pas
  answers: { createCharge: 200, refund: 201, cancelCharge: 201, registerWebhook: 200 },
  // `gw-dev-app-key` in homologation, `gw-app-key` in production, not on the token call: https://www.abstra.io/docs/tools/connectors/providers/banco-do-brasil (third-party)
  // No `recurring`: no BB page offering Pix Automático through this API could be read (reports of BB's launch say "via API" and 90 days of lead time; BB's page must confirm both).
  // No `dueCharges` nor `chargeBatches`: no BB page offering /cobv or /lotecobv could be read (its portal is a JavaScript application).
  query: ({ environment, credentials }) => ({ [environment === 'production' ? 'gw-app-key' : 'gw-dev-app-key']: String(credentials.extras.app_key) }),
};
