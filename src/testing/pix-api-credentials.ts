// Credentials and request contexts of a Pix API bank profile, with the test PKI's certificates: for
// the specs of the profiles, beside the code and in test/integration.
import type { PixApiCredentials } from '../providers/pix-api/credentials';
import { parsePixApiCredentials } from '../providers/pix-api/credentials';
import type { PixApiProfile, RequestContext } from '../providers/pix-api/profile';
import { testPki } from './certificates';

const NOW = new Date();

/** Valid credentials for `profile`, with every extra field it asks for filled in. */
export function pixApiCredentials(profile: PixApiProfile, extra: Record<string, unknown> = {}): PixApiCredentials {
  const pki = testPki();
  const extras: Record<string, unknown> = { app_key: 'app-key-1', conta_corrente: '1234567', skip_mtls_checking: true };
  const own = Object.fromEntries(profile.extras.map((field) => [field.name, extras[field.name]]));
  return parsePixApiCredentials(
    { client_id: 'client-1', client_secret: 'secret-1', certificate_pem: pki.client.cert, private_key_pem: pki.client.key, ca_pem: pki.ca.cert, ...own, ...extra },
    profile,
    NOW,
  );
}

export const requestContext = (profile: PixApiProfile, environment: 'sandbox' | 'production', operation: RequestContext['operation'] = 'read charge'): RequestContext => ({
  operation,
  environment,
  credentials: pixApiCredentials(profile),
});
