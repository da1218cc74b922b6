import type { LeadTime } from '../domain/recurrence';

/** The environments an account can be in: a PSP's homologation environment (`sandbox`, the API's value) or production. */
export type AccountEnvironment = 'sandbox' | 'production';

/**
 * What a provider can do, declared once, here in its descriptor. Each yes-or-no capability but
 * `partialRefund` brings optional adapter members (`CAPABILITY_MEMBERS`, capabilities.ts), present
 * exactly when it is declared; the gateway checks with `supports()`.
 */
export interface ProviderCapabilities {
  refund: boolean;
  partialRefund: boolean;
  cancel: boolean;
  registerWebhook: boolean;
  /** Who chooses the txid: the gateway (Pix API `PUT /cob/{txid}`) or the PSP (Mercado Pago). */
  txid: 'gateway' | 'provider';
  /** Pix Automático, when the provider offers it: its lead time and the page that says so. */
  recurring?: RecurringCapability;
  /** Due-date charges (Pix API `cobv`), when the provider offers them, and the page that says so. */
  dueCharges?: SourcedCapability;
  /** Batches of due-date charges (Pix API `lotecobv`), when offered: how many one batch holds, and the page that says so. */
  chargeBatches?: ChargeBatchCapability;
}

/** A capability declared with the provider's page that says it offers it. */
export interface SourcedCapability {
  source: string;
}

export interface ChargeBatchCapability extends SourcedCapability {
  /** The most charges one batch may hold at this PSP. */
  maxCharges: number;
}

/** What a provider declares when it offers Pix Automático (`ProviderCapabilities.recurring`). */
export interface RecurringCapability {
  /** How far ahead of its due date a charge must reach the PSP. */
  leadTime: LeadTime;
  /** The page that says the PSP offers Pix Automático through this API, and the lead time. */
  source: string;
}

/**
 * A provider's description of itself (docs/providers.md, The catalogue): enough for a generic form
 * to ask for an account of it, so that no other place repeats what each PSP takes. parseCredentials
 * stays what decides; a unit test keeps the two in agreement.
 */
export interface ProviderDescriptor {
  /** The adapter's name. */
  name: string;
  /** For people: "Banco do Brasil". */
  label: string;
  /** The environments an account of it can be in, each with the hosts used when the account gives none. */
  environments: readonly ProviderEnvironmentDescriptor[];
  /** The account settings it takes besides credentials; one it does not list is of no use to it. */
  settings: readonly AccountSettingDescriptor[];
  /** Every field its `credentials` object takes. */
  credentials: readonly CredentialFieldDescriptor[];
  /** Sets of credential fields of which exactly one option is given (a PEM pair or a PKCS#12 bundle). */
  oneOf: readonly CredentialAlternative[];
  capabilities: ProviderCapabilities;
}

export interface ProviderEnvironmentDescriptor {
  name: AccountEnvironment;
  /** The default API base URL; null when the account must give `base_url`. */
  baseUrl: string | null;
  /** The default token URL; null when the account must give `token_url` (or the provider has none). */
  tokenUrl: string | null;
}

export type AccountSettingName = 'base_url' | 'token_url' | 'pix_key';

export interface AccountSettingDescriptor {
  name: AccountSettingName;
  label: string;
  /** The environments where an account must give it. */
  requiredIn: readonly AccountEnvironment[];
  help: string;
}

/** `text` and `secret` are strings (a secret is never shown back); `pem` PEM text; `pkcs12` a bundle's bytes, base64; `boolean` true or false. */
export type CredentialFieldKind = 'text' | 'secret' | 'pem' | 'pkcs12' | 'boolean';

export interface CredentialFieldDescriptor {
  /** Its name in the credentials object (`client_id`). */
  name: string;
  label: string;
  kind: CredentialFieldKind;
  /** Required whenever it applies: always, or when its option of a oneOf is the one given. */
  required: boolean;
  /** For a `pem` field: what its blocks hold (a form can split a file that holds both). */
  pem?: 'certificates' | 'private_key';
  help: string;
}

export interface CredentialAlternative {
  name: string;
  label: string;
  options: readonly { name: string; label: string; fields: readonly string[] }[];
}
