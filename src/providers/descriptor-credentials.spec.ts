import { testPki } from '../testing/certificates';
import { NO_TRANSPORT } from '../testing/no-transport';
import { Secret } from '../config/app-config';
import { CAPABILITY_MEMBERS } from './capabilities';
import { MercadoPagoAdapter } from './mercadopago/mercadopago.adapter';
import { PixApiAdapter } from './pix-api/pix-api.adapter';
import { PIX_API_PROFILES } from './pix-api/pix-api.registration';
import { type AccountEnvironment, type AccountSettings, CredentialsError, type ProviderAdapter } from './provider-adapter';
import { SandboxAdapter } from './sandbox/sandbox.adapter';
import type { CredentialFieldDescriptor } from './provider-descriptor';

/**
 * The catalogue is what the dashboard asks for; parseCredentials is what the gateway accepts. For
 * every provider, environment and certificate form: what the descriptor calls required is refused
 * when missing, what it lists is accepted, and nothing else is.
 */
const pki = testPki();

const sandbox = (isProduction: boolean) =>
  new SandboxAdapter(
    // Descriptors and parseCredentials send nothing.
    NO_TRANSPORT,
    { enabled: true, baseUrl: 'http://127.0.0.1:3000/sandbox', apiToken: new Secret('sandbox-api-token-123') },
    { isProduction, timeoutMs: 1000 },
  );

const adapters: [string, ProviderAdapter][] = [
  ...PIX_API_PROFILES.map((profile): [string, ProviderAdapter] => [profile.name, new PixApiAdapter(NO_TRANSPORT, profile)]),
  ['mercadopago', new MercadoPagoAdapter(NO_TRANSPORT)],
  ['sandbox', sandbox(false)],
  ['sandbox in production', sandbox(true)],
];

/** A value each kind of field accepts; a few need the one that matches the test PKI (a bundle given without its password has none). */
function sample(field: CredentialFieldDescriptor, withPassword: boolean): unknown {
  if (field.name === 'pkcs12_password') return pki.clientP12.password;
  if (field.name === 'ca_pem') return pki.ca.cert;
  switch (field.kind) {
    case 'text':
      return `${field.name}-1`;
    case 'secret':
      return 'a-secret-of-24-characters';
    case 'boolean':
      return true;
    case 'pkcs12':
      return withPassword ? pki.clientP12.base64 : pki.clientP12NoPassword.base64;
    case 'pem':
      return field.pem === 'private_key' ? pki.client.key : pki.client.cert;
  }
}

const SETTING_SAMPLES = { base_url: 'https://psp.example/v2', token_url: 'https://psp.example/oauth/token', pix_key: 'chave@example.com' } as const;

/** Every way to pick one option of each alternative. */
function choices(adapter: ProviderAdapter): string[][] {
  return adapter.descriptor.oneOf.reduce<string[][]>((all, alternative) => all.flatMap((picked) => alternative.options.map((option) => [...picked, option.name])), [[]]);
}

describe.each(adapters)('%s: the descriptor agrees with parseCredentials', (_, adapter) => {
  const { descriptor } = adapter;
  const inAlternative = new Set(descriptor.oneOf.flatMap((alternative) => alternative.options.flatMap((option) => [...option.fields])));
  const cases = descriptor.environments.flatMap((environment) => choices(adapter).map((picked) => [environment.name, picked.join('+') || 'no alternative', picked] as const));

  it('names itself and lists no field twice', () => {
    expect(descriptor.name).toBe(adapter.name);
    // Capabilities are declared once, in the descriptor: each optional member a capability brings
    // is there exactly when the descriptor declares it (supports() reads only the descriptor).
    for (const [capability, members] of Object.entries(CAPABILITY_MEMBERS)) {
      const declared = Boolean(descriptor.capabilities[capability as keyof typeof CAPABILITY_MEMBERS]);
      for (const member of members) expect({ capability, member, present: adapter[member] !== undefined }).toEqual({ capability, member, present: declared });
    }
    const names = descriptor.credentials.map((field) => field.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of inAlternative) expect(names).toContain(name);
  });

  it.each(cases)('in %s, with %s', (environment: AccountEnvironment, _label, picked) => {
    const chosen = new Set(descriptor.oneOf.flatMap((alternative, i) => alternative.options.find((option) => option.name === picked[i])!.fields));
    const used = descriptor.credentials.filter((field) => !inAlternative.has(field.name) || chosen.has(field.name));
    const input = (fields: CredentialFieldDescriptor[]) => {
      const withPassword = fields.some((field) => field.name === 'pkcs12_password');
      return Object.fromEntries(fields.map((field) => [field.name, sample(field, withPassword)]));
    };
    const required = used.filter((field) => field.required);
    const requiredSettings = descriptor.settings.filter((setting) => setting.requiredIn.includes(environment)).map((setting) => setting.name);
    const settings = (without?: string): AccountSettings => {
      const given = (name: keyof typeof SETTING_SAMPLES) => (requiredSettings.includes(name) && name !== without ? SETTING_SAMPLES[name] : null);
      return { environment, baseUrl: given('base_url'), tokenUrl: given('token_url'), pixKey: given('pix_key') };
    };
    const refusal = (credentials: Record<string, unknown>, accountSettings = settings()): CredentialsError => {
      try {
        adapter.parseCredentials(credentials, accountSettings);
      } catch (error) {
        if (error instanceof CredentialsError) return error;
        throw error;
      }
      throw new Error(`accepted ${JSON.stringify(Object.keys(credentials))}`);
    };

    // Everything listed, and only what is required, are both accepted.
    expect(() => adapter.parseCredentials(input(used), settings())).not.toThrow();
    expect(() => adapter.parseCredentials(input(required), settings())).not.toThrow();
    // Each required field, and each required setting, is refused when missing, naming it (or, for a
    // certificate form, the alternative it belongs to).
    for (const field of required) {
      const error = refusal(input(required.filter((other) => other !== field)));
      const named = inAlternative.has(field.name) ? [...inAlternative].map((name) => `credentials.${name}`) : [`credentials.${field.name}`];
      expect(named).toContain(error.field);
    }
    for (const name of requiredSettings) expect(refusal(input(required), settings(name)).field).toBe(name);
    // A field the descriptor does not list is refused.
    expect(refusal({ ...input(required), not_a_field: 'x' }).field).toBe('credentials.not_a_field');
  });
});

describe.each(adapters.filter(([, adapter]) => adapter.descriptor.oneOf.length > 0))('%s: one option of an alternative at a time', (_, adapter) => {
  const { descriptor } = adapter;
  const inAlternative = new Set(descriptor.oneOf.flatMap((alternative) => alternative.options.flatMap((option) => [...option.fields])));

  it('refuses two options of one alternative together', () => {
    for (const alternative of descriptor.oneOf) {
      const fields = descriptor.credentials.filter((field) => !inAlternative.has(field.name) || alternative.options.some((option) => option.fields.includes(field.name)));
      const environment = descriptor.environments[0]!.name;
      const settings: AccountSettings = { environment, baseUrl: SETTING_SAMPLES.base_url, tokenUrl: SETTING_SAMPLES.token_url, pixKey: SETTING_SAMPLES.pix_key };
      expect(() => adapter.parseCredentials(Object.fromEntries(fields.map((field) => [field.name, sample(field, true)])), settings)).toThrow(CredentialsError);
    }
  });
});

describe('the sandbox', () => {
  it('wants a webhook secret in production only', () => {
    expect(sandbox(false).descriptor.credentials).toEqual([expect.objectContaining({ name: 'webhook_secret', kind: 'secret', required: false })]);
    expect(sandbox(true).descriptor.credentials).toEqual([expect.objectContaining({ name: 'webhook_secret', required: true })]);
  });
});
