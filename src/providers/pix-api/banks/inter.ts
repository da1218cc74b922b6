import { DEFAULT_MAX_BATCH_CHARGES, type PixApiProfile, STANDARD_PROFILE, STANDARD_SCOPES } from '../profile';
import { BCB_LEAD_TIME } from './pix-automatico';

/**
 * Banco Inter. Certificates come as a .crt and a .key without a password; `conta_corrente` is needed
 * only by applications tied to more than one account. Its callbacks post a bare list of Pix, which
 * the adapter reads for every profile (pix-api.adapter.ts, receiveCallback).
 */
export const INTER: PixApiProfile = {
  ...STANDARD_PROFILE,
  name: 'inter',
  displayName: 'Inter',
  // Hosts, + /pix/v2: https://github.com/inter-co/pj-sdk-python/blob/master/inter_sdk_python/commons/enums/EnvironmentEnum.py (Inter's own SDK)
  apiBase: { production: 'https://cdpj.partners.bancointer.com.br/pix/v2', sandbox: 'https://cdpj-sandbox.partners.uatinter.co/pix/v2' },
  // Token at /oauth/v2/token of the same host: https://github.com/inter-co/pj-sdk-python/blob/master/inter_sdk_python/commons/structures/Constants.py
  tokenUrl: { production: 'https://cdpj.partners.bancointer.com.br/oauth/v2/token', sandbox: 'https://cdpj-sandbox.partners.uatinter.co/oauth/v2/token' },
  // Form body with client_id, client_secret and scope, no Basic: https://github.com/inter-co/pj-sdk-python/blob/master/inter_sdk_python/commons/utils/TokenUtils.py
  token: { clientAuth: 'body', encoding: 'form', scopes: STANDARD_SCOPES, grantTypeIn: 'body' },
  // `x-conta-corrente`, sent only when the account is given: https://github.com/inter-co/pj-sdk-python/blob/master/inter_sdk_python/commons/utils/HttpUtils.py
  extras: [{ name: 'conta_corrente', kind: 'string', required: false, label: 'Conta corrente', help: 'Only for an API application tied to more than one account.' }],
  // PUT /webhook/{chave} answers 204 (Inter's reference, read from a copy): https://developers.bancointer.com.br/v4/reference
  answers: { createCharge: 201, refund: 201, cancelCharge: 200, registerWebhook: 204 },
  // Pix Automático through the Pix API ("o usuário recebedor enviará periodicamente as informações das cobranças recorrentes ao seu PSP, utilizando-se para isso da API Pix"; the standard's errors): https://developers.inter.co/references/pix-automatico
  // No lead time of Inter's own found on its page (read in part here): the Central Bank's 2 to 10 days (banks/pix-automatico.ts).
  recurring: { leadTime: BCB_LEAD_TIME, source: 'https://developers.inter.co/references/pix-automatico' },
  // Due-date charges and their batches through this API: /pix/v2/cobv/{txid} and /pix/v2/lotecobv/{id}, with the standard's scopes cobv.* and lotecobv.* (Inter's own SDK):
  // https://github.com/inter-co/pj-sdk-python/blob/master/inter_sdk_python/commons/structures/Constants.py · https://github.com/inter-co/pj-sdk-python/blob/master/inter_sdk_python/pix/duebillingbatch/DueBillingBatchClient.py
  // Inter states no most charges per batch: the standard's default of the gateway (profile.ts, DEFAULT_MAX_BATCH_CHARGES).
  dueCharges: { source: 'https://github.com/inter-co/pj-sdk-python/blob/master/inter_sdk_python/pix/duebilling/DueBillingClient.py' },
  chargeBatches: {
    maxCharges: DEFAULT_MAX_BATCH_CHARGES,
    source: 'https://github.com/inter-co/pj-sdk-python/blob/master/inter_sdk_python/pix/duebillingbatch/DueBillingBatchClient.py',
  },
  headers: ({ credentials }): Record<string, string> => (typeof credentials.extras.conta_corrente === 'string' ? { 'x-conta-corrente': credentials.extras.conta_corrente } : {}),
  // Phone keys without "+" in /webhook/{chave} (Inter's reference, read from a copy): https://developers.bancointer.com.br/v4/reference
  webhookKey: (chave) => (/^\+\d+$/.test(chave) ? chave.slice(1) : chave),
};
