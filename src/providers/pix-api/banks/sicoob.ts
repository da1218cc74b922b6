import { DEFAULT_MAX_BATCH_CHARGES, type PixApiProfile, STANDARD_PROFILE, STANDARD_SCOPES } from '../profile';

/**
 * Sicoob. Its token call takes the client_id alone (the mTLS certificate registered for the
 * application is the proof), every API call repeats the client_id in a header, and its charges
 * carry the BR Code as `brcode`.
 */
export const SICOOB: PixApiProfile = {
  ...STANDARD_PROFILE,
  name: 'sicoob',
  displayName: 'Sicoob',
  // Production base: https://github.com/Sicoob-Cooperativa/sicoob_sdk_java/blob/main/pix/api/openapi.yaml (Sicoob's own SDK, `servers`)
  // No homologation host (`sandbox`): Sicoob's test environment takes a fixed portal token and no OAuth2 call: https://github.com/Sicoob-Cooperativa/sicoob_sdk_java/blob/main/README.md
  apiBase: { production: 'https://api.sicoob.com.br/pix/api/v2', sandbox: null },
  // Token endpoint (Keycloak realm "cooperado"): https://github.com/Sicoob-Cooperativa/sicoob_sdk_java/blob/main/auth/api/openapi.yaml
  tokenUrl: { production: 'https://auth.sicoob.com.br/auth/realms/cooperado/protocol/openid-connect/token', sandbox: null },
  // Form body of grant_type, client_id and scope, no secret: https://github.com/Sicoob-Cooperativa/sicoob_sdk_java/blob/main/auth/api/openapi.yaml
  token: { clientAuth: 'client-id', encoding: 'form', scopes: STANDARD_SCOPES, grantTypeIn: 'body' },
  clientSecret: 'unused',
  // `brcode`, and no `pixCopiaECola`, in its charges: https://github.com/Sicoob-Cooperativa/sicoob_sdk_java/blob/main/pix/api/openapi.yaml
  copyPasteFields: ['pixCopiaECola', 'brcode'],
  // Devolução seen answering 200 (third-party): https://github.com/frones/ACBr/blob/master/Fontes/ACBrPIXCD/ACBrPIXPSPSicoob.pas
  answers: { createCharge: 201, refund: 200, cancelCharge: 200, registerWebhook: 200 },
  // `client_id` header on every Pix call: https://github.com/Suporte-APIs-Sicoob/apis-python/blob/main/api-pix/cobranca-imediata/criar-cobranca.py
  // No `recurring`: Sicoob's SDK document lists the scopes rec.*, cobr.*, solicrec.*, locr.* and the recurrence bodies, but no /rec or /cobr route: https://github.com/Sicoob-Cooperativa/sicoob_sdk_java/blob/main/pix/api/openapi.yaml
  // Due-date charges and their batches: /cobv/{txid} (PUT, PATCH, GET, its answers carrying `brcode` too) and /lotecobv/{id} (PUT answered 202), with the scopes cobv.*, lotecobv.*, payloadlocation.*, in Sicoob's own OpenAPI of this API: https://github.com/Sicoob-Cooperativa/sicoob_sdk_java/blob/main/pix/api/openapi.yaml
  // It states no most charges per batch: the standard's default of the gateway (profile.ts, DEFAULT_MAX_BATCH_CHARGES).
  dueCharges: { source: 'https://github.com/Sicoob-Cooperativa/sicoob_sdk_java/blob/main/pix/api/openapi.yaml' },
  chargeBatches: { maxCharges: DEFAULT_MAX_BATCH_CHARGES, source: 'https://github.com/Sicoob-Cooperativa/sicoob_sdk_java/blob/main/pix/api/openapi.yaml' },
  headers: ({ credentials }) => ({ client_id: credentials.clientId }),
};
