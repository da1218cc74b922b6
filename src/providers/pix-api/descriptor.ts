import type {
  AccountEnvironment,
  AccountSettingDescriptor,
  CredentialAlternative,
  CredentialFieldDescriptor,
  ProviderCapabilities,
  ProviderDescriptor,
} from '../provider-descriptor';
import type { PixApiProfile } from './profile';

const ENVIRONMENTS: readonly AccountEnvironment[] = ['sandbox', 'production'];

/**
 * The client certificate comes as a PEM pair or as a PKCS#12 bundle, never both
 * (parsePixApiCredentials refuses both, and neither).
 */
const CERTIFICATE_FORMS: CredentialAlternative = {
  name: 'certificate',
  label: 'Client certificate',
  options: [
    { name: 'pem', label: 'Certificate and private key (PEM: .pem, .crt, .key)', fields: ['certificate_pem', 'private_key_pem'] },
    { name: 'pkcs12', label: 'PKCS#12 bundle (.p12, .pfx)', fields: ['pkcs12_base64', 'pkcs12_password'] },
  ],
};

/** Where the account must give a host: the environments for which the profile knows none. */
const missingIn = (hosts: PixApiProfile['apiBase']): AccountEnvironment[] => ENVIRONMENTS.filter((environment) => hosts[environment] === null);

/**
 * What every profile can do: refunds whole or in part (devoluções), cancels, registers its webhook,
 * and takes the gateway's txid (`PUT /cob/{txid}`); Pix Automático, due-date charges and their
 * batches where the profile declares them.
 */
function capabilitiesOf(profile: PixApiProfile): ProviderCapabilities {
  return {
    refund: true,
    partialRefund: true,
    cancel: true,
    registerWebhook: true,
    txid: 'gateway',
    ...(profile.recurring ? { recurring: profile.recurring } : {}),
    ...(profile.dueCharges ? { dueCharges: profile.dueCharges } : {}),
    ...(profile.chargeBatches ? { chargeBatches: profile.chargeBatches } : {}),
  };
}

/**
 * A Pix API profile as the catalogue shows it: its hosts per environment, the standard credential
 * fields (the client secret only where its token call takes one), the bank's own extras, and what
 * it can do.
 */
export function pixApiDescriptor(profile: PixApiProfile): ProviderDescriptor {
  const credentials: CredentialFieldDescriptor[] = [
    { name: 'client_id', label: 'Client ID', kind: 'text', required: true, help: 'The OAuth2 client id the PSP issued for this application.' },
    ...(profile.clientSecret === 'required'
      ? [{ name: 'client_secret', label: 'Client secret', kind: 'secret', required: true, help: 'The OAuth2 client secret issued with the client id.' } as const]
      : []),
    {
      name: 'certificate_pem',
      label: 'Certificate (PEM)',
      kind: 'pem',
      pem: 'certificates',
      required: true,
      help: 'The client certificate first, then its chain if the PSP gave one.',
    },
    { name: 'private_key_pem', label: 'Private key (PEM)', kind: 'pem', pem: 'private_key', required: true, help: 'Without a passphrase.' },
    { name: 'pkcs12_base64', label: 'PKCS#12 file', kind: 'pkcs12', required: true, help: 'The .p12 or .pfx file the PSP issued.' },
    { name: 'pkcs12_password', label: 'Bundle password', kind: 'secret', required: false, help: 'Leave empty for a bundle without one.' },
    {
      name: 'ca_pem',
      label: 'CA certificates (PEM)',
      kind: 'pem',
      pem: 'certificates',
      required: false,
      help: "Only if the PSP's server certificate is signed by a CA that is not publicly trusted.",
    },
    ...profile.extras.map((extra): CredentialFieldDescriptor => ({
      name: extra.name,
      label: extra.label,
      kind: extra.kind === 'boolean' ? 'boolean' : 'text',
      required: extra.required,
      help: extra.help,
    })),
  ];
  const settings: AccountSettingDescriptor[] = [
    { name: 'base_url', label: 'API base URL', requiredIn: missingIn(profile.apiBase), help: 'Scheme, host and base path (…/v2): the PSP is reached over mutual TLS.' },
    { name: 'token_url', label: 'Token URL', requiredIn: missingIn(profile.tokenUrl), help: "The PSP's OAuth2 token URL." },
    { name: 'pix_key', label: 'Pix key', requiredIn: ENVIRONMENTS, help: 'The receiving key, registered at this PSP: charges are made to it.' },
  ];
  return {
    name: profile.name,
    label: profile.displayName,
    environments: ENVIRONMENTS.map((name) => ({ name, baseUrl: profile.apiBase[name], tokenUrl: profile.tokenUrl[name] })),
    settings,
    credentials,
    oneOf: [CERTIFICATE_FORMS],
    capabilities: capabilitiesOf(profile),
  };
}
