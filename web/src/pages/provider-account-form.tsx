/**
 * A provider account's forms, built from the catalogue the gateway serves (`GET /admin/api/providers`,
 * docs/providers.md): each provider says which environments, hosts, settings and credential fields
 * it has. Nothing here knows a PSP; the API checks everything again and has the last word.
 *
 * The pages import the form's pieces from here, one import for what lives in these files:
 * provider-catalogue (the catalogue and environments), provider-account-values (values, checks and
 * the request body), api-field-errors (the API's refusals by field), provider-account-fields (the
 * settings and hosts), credentials-fields and credential-file-fields (the credentials, PEM and
 * PKCS#12 files), provider-account-status (certificate expiry, a check's outcome).
 */
export { apiErrors, failureText, type FormErrors } from './api-field-errors';
export { readFile, splitPem } from './credential-file-fields';
export { CredentialsFields } from './credentials-fields';
export { AccountFields } from './provider-account-fields';
export { CertificateExpiry, certificateExpiry, CheckResult, EXPIRY_WARNING_DAYS } from './provider-account-status';
export {
  credentialsBody,
  emptyAccount,
  emptyCredentials,
  fieldsInUse,
  validateAccount,
  validateCredentials,
  type AccountValues,
  type CredentialValues,
} from './provider-account-values';
export { builtInProviders, ENVIRONMENT_LABELS, EnvironmentBadge, findProvider, providerLabel, takesCertificate, useCatalogue } from './provider-catalogue';
