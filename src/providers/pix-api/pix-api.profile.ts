import { BCB_LEAD_TIME } from './banks/pix-automatico';
import { type PixApiProfile, STANDARD_PROFILE, STANDARD_SCOPES } from './profile';

/**
 * The Central Bank's Pix API as the standard writes it, for any PSP that follows it: the account
 * gives its PSP's `base_url` and `token_url`; the token request is RFC 6749's (Basic client auth,
 * a form body) asking for the standard's scopes.
 */
export const PIX_API: PixApiProfile = {
  ...STANDARD_PROFILE,
  name: 'pix-api',
  displayName: 'Pix API',
  apiBase: { production: null, sandbox: null },
  tokenUrl: { production: null, sandbox: null },
  token: { clientAuth: 'basic', encoding: 'form', scopes: STANDARD_SCOPES, grantTypeIn: 'body' },
  // The standard defines Pix Automático (/locrec, /rec, /solicrec, /cobr, /webhookrec, /webhookcobr; API Pix 2.9.0): https://bacen.github.io/pix-api/
  // A PSP that follows it takes charges in the Central Bank's window, 2 to 10 days ahead (banks/pix-automatico.ts).
  recurring: { leadTime: BCB_LEAD_TIME, source: 'https://bacen.github.io/pix-api/' },
};
