import type { AccountEnvironment } from './provider-descriptor';

/** The non-secret settings of an account, which adapters need to validate and use credentials. */
export interface AccountSettings {
  environment: AccountEnvironment;
  /** Overrides the PSP's documented host for the environment. */
  baseUrl: string | null;
  tokenUrl: string | null;
  /** The receiving Pix key (the `chave` of charges and of webhook registration). */
  pixKey: string | null;
}

/** One set of credentials at one PSP, as an adapter receives it: decrypted and parsed. */
export interface Account<C = unknown> extends AccountSettings {
  /** `pa_…`, or the provider's name for its built-in account (builtInAccount). */
  id: string;
  provider: string;
  credentials: C;
}

export interface CredentialsSummary {
  clientId?: string;
  certificateSubject?: string;
  certificateExpiresAt?: string;
}
