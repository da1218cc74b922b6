import type { AccountEnvironment, ChargeBatchCapability, RecurringCapability, SourcedCapability } from '../provider-descriptor';
import type { MtlsMaterial } from '../transport/transport';
import { BCB_LEAD_TIME } from './banks/pix-automatico';

/**
 * An account's Pix API credentials, checked and normalised: the client certificate and key are PEM
 * whatever form they came in (a PKCS#12 bundle is opened once, here, so that Node's TLS, whose
 * OpenSSL 3 refuses the RC2 and 3DES bundles that Brazilian A1 certificates often still are, never
 * sees one). Plain JSON: it may be stored as it is.
 */
export interface PixApiCredentials {
  clientId: string;
  /** Null where the PSP authenticates the token call by the certificate alone (Sicoob). */
  clientSecret: string | null;
  tls: MtlsMaterial;
  /** The profile's bank-specific fields, by their input names (`app_key`, `conta_corrente`, …). */
  extras: Readonly<Record<string, string | boolean>>;
  /** The client certificate's subject (`CN=…, O=…`) and the end of its validity (ISO 8601). */
  certificate: { subject: string; expiresAt: string };
}

/** The Pix API calls the adapter makes, by name (for per-route hooks and messages). */
export type PixApiOperation =
  | 'create charge'
  | 'read charge'
  | 'cancel charge'
  | 'list charges'
  | 'read pix'
  | 'refund'
  | 'read refund'
  | 'register webhook'
  | 'read webhook'
  // Due-date charges and their batches (flows/due-charge.ts, flows/charge-batch.ts).
  | 'create due charge'
  | 'read due charge'
  | 'update due charge'
  | 'cancel due charge'
  | 'create charge batch'
  | 'read charge batch'
  // Pix Automático (flows/recurrence.ts, flows/recurring-charge.ts).
  | 'create recurrence location'
  | 'create recurrence'
  | 'read recurrence'
  | 'list recurrences'
  | 'cancel recurrence'
  | 'request recurrence authorization'
  | 'create recurring charge'
  | 'read recurring charge'
  | 'cancel recurring charge'
  | 'retry recurring charge'
  | 'register recurrence webhook'
  | 'register recurring charge webhook';

/** How the OAuth2 client-credentials request is written (RFC 6749 section 4.4 leaves room for all of these). */
export interface TokenRequestStyle {
  /**
   * Where the client authenticates: `basic` an `Authorization: Basic` header (RFC 6749's
   * preference); `body` client_id and client_secret in the body; `client-id` the client_id alone
   * in the body, the certificate of the mTLS handshake being the proof.
   */
  clientAuth: 'basic' | 'body' | 'client-id';
  /** The body's encoding: a form (RFC 6749) or JSON. */
  encoding: 'form' | 'json';
  /** Sent as `scope` when not null; null when the PSP binds scopes to the application instead. */
  scopes: readonly string[] | null;
  /** `grant_type` in the body (RFC 6749) or in the token URL's query. */
  grantTypeIn: 'body' | 'query';
}

/** A bank-specific field of the credentials, beside the standard ones. */
export interface CredentialExtra {
  /** Its name in the credentials object (`app_key`). */
  name: string;
  kind: 'string' | 'boolean';
  required: boolean;
  /** For the catalogue (descriptor.ts): what a form calls it, and one line on what it is for. */
  label: string;
  help: string;
}

/** What a per-request hook knows. */
export interface RequestContext {
  operation: PixApiOperation | 'token';
  environment: AccountEnvironment;
  credentials: PixApiCredentials;
}

/**
 * One PSP's Pix API: where it lives and how it differs from the Central Bank's standard. Data, and
 * a few small hooks for what data cannot say; the adapter (pix-api.adapter.ts) does the rest, the
 * same for every bank. `pix-api` itself is the profile with no hosts (the account gives them) and
 * no deviations.
 */
export interface PixApiProfile {
  /** The provider's name: in URLs, in `payments.provider`, in envelopes. */
  readonly name: string;
  /** For messages: "Efí", "Banco do Brasil". */
  readonly displayName: string;
  /** The API base URL (scheme, host and base path) per environment; null when the account must give one (`base_url`). */
  readonly apiBase: Readonly<Record<AccountEnvironment, string | null>>;
  /** The OAuth2 token URL per environment; null when the account must give one (`token_url`). */
  readonly tokenUrl: Readonly<Record<AccountEnvironment, string | null>>;
  readonly token: TokenRequestStyle;
  /** Whether the credentials need a client_secret (Sicoob's token call takes the client_id alone). */
  readonly clientSecret: 'required' | 'unused';
  /** Bank-specific credential fields. */
  readonly extras: readonly CredentialExtra[];
  /**
   * What the PSP answers on success where the standard says 201 (charge, refund) or 200 (cancel,
   * webhook). The adapter accepts 200 and 201 (and 204 for the webhook) from every PSP alike; this
   * records each bank's answer, and the tests make their fake PSP answer so.
   */
  readonly answers: {
    readonly createCharge: 200 | 201;
    readonly refund: 200 | 201;
    readonly cancelCharge: 200 | 201;
    readonly registerWebhook: 200 | 201 | 204;
  };
  /** Where the charge's BR Code comes, in the order looked at (the standard's `pixCopiaECola` first). */
  readonly copyPasteFields: readonly string[];
  /**
   * Pix Automático through this API (`/locrec`, `/rec`, `/solicrec`, `/cobr`): declared only with the
   * bank's page that says it offers it, and the lead time for charges that page documents.
   */
  readonly recurring?: RecurringCapability;
  /**
   * Due-date charges through this API (`/cobv`): declared only with the bank's page that says it
   * offers them.
   */
  readonly dueCharges?: SourcedCapability;
  /**
   * Batches of due-date charges (`/lotecobv`): declared only with the bank's page that says it
   * offers them, and the most charges one batch may hold (the bank's, where its page states one).
   */
  readonly chargeBatches?: ChargeBatchCapability;
  /** Headers on every API call (not the token call). */
  headers?(context: RequestContext): Record<string, string>;
  /** Query parameters on every API call (not the token call). */
  query?(context: RequestContext): Record<string, string>;
  /**
   * The base URL of one route, for PSPs that version routes separately. Applied to the profile's
   * own `apiBase` only: an account's `base_url` is taken as given for every route.
   */
  routeBase?(operation: PixApiOperation, base: string): string;
  /** The Pix key as written in `/webhook/{chave}`. */
  webhookKey?(chave: string): string;
  /** Extra headers of `PUT /webhook/{chave}`. */
  webhookHeaders?(credentials: PixApiCredentials): Record<string, string>;
}

/** The standard's scopes for what the adapter does (charges, Pix and refunds, webhooks). */
export const STANDARD_SCOPES: readonly string[] = ['cob.read', 'cob.write', 'pix.read', 'pix.write', 'webhook.read', 'webhook.write'];

/**
 * The standard's scopes for Pix Automático, as its security scheme names them: recurrences,
 * their locations and authorization requests, recurring charges, and their two webhooks. Asked for
 * only by a profile that declares `recurring` (flows/token.ts): a PSP may refuse a scope its
 * client was not granted.
 */
export const RECURRING_SCOPES: readonly string[] = [
  'rec.read',
  'rec.write',
  'payloadlocationrec.read',
  'payloadlocationrec.write',
  'solicrec.read',
  'solicrec.write',
  'cobr.read',
  'cobr.write',
  'webhookrec.read',
  'webhookrec.write',
  'webhookcobr.read',
  'webhookcobr.write',
];

/**
 * The standard's scopes for due-date charges (`cobv.*`) and the payload locations their QR codes
 * point at (`payloadlocation.*`), asked for only by a profile that declares `dueCharges`.
 */
export const DUE_CHARGE_SCOPES: readonly string[] = ['cobv.read', 'cobv.write', 'payloadlocation.read', 'payloadlocation.write'];

/** The standard's scopes for batches of due-date charges, asked for only by a profile that declares `chargeBatches`. */
export const CHARGE_BATCH_SCOPES: readonly string[] = ['lotecobv.read', 'lotecobv.write'];

/**
 * The most charges one `PUT /lotecobv/{id}` carries where the PSP states no limit of its own. The
 * standard sets none on purpose, leaving it to each PSP (its maintainers, in
 * https://github.com/bacen/pix-api/issues/258); PSPs have raised the size of such a request against
 * their API gateways' payload limits (https://github.com/bacen/pix-api/issues/585). 1,000 is the
 * limit the one PSP that states one sets (Efí, banks/efi.ts) and the gateway's own most per batch:
 * a request of about half a megabyte.
 */
export const DEFAULT_MAX_BATCH_CHARGES = 1_000;

/** The standard as written, for profiles to spread and override. */
export const STANDARD_PROFILE = {
  clientSecret: 'required',
  extras: [],
  answers: { createCharge: 201, refund: 201, cancelCharge: 200, registerWebhook: 200 },
  copyPasteFields: ['pixCopiaECola'],
} as const satisfies Partial<PixApiProfile>;

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
  // The standard defines due-date charges (/cobv) and their batches (/lotecobv), and no most charges per batch: https://bacen.github.io/pix-api/
  dueCharges: { source: 'https://bacen.github.io/pix-api/' },
  chargeBatches: { maxCharges: DEFAULT_MAX_BATCH_CHARGES, source: 'https://bacen.github.io/pix-api/' },
};
