import { ApiProperty } from '@nestjs/swagger';
import type { AccountEnvironment } from '../provider-adapter';
import type { AccountSettingName, CredentialFieldKind, ProviderDescriptor } from '../provider-descriptor';

const ENVIRONMENTS: AccountEnvironment[] = ['sandbox', 'production'];
const SETTINGS: AccountSettingName[] = ['base_url', 'token_url', 'pix_key'];
const KINDS: CredentialFieldKind[] = ['text', 'secret', 'pem', 'pkcs12', 'boolean'];

export class ProviderEnvironmentView {
  @ApiProperty({ enum: ENVIRONMENTS, example: 'production' }) name: AccountEnvironment;
  @ApiProperty({ type: String, nullable: true, example: 'https://api-pix.bb.com.br/pix/v2', description: 'The default API base URL; null: the account must give `base_url`.' })
  base_url: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'https://oauth.bb.com.br/oauth/token',
    description: 'The default token URL; null: the account must give `token_url` (or the provider has none).',
  })
  token_url: string | null;
}

export class AccountSettingView {
  @ApiProperty({ enum: SETTINGS, example: 'pix_key' }) name: AccountSettingName;
  @ApiProperty({ example: 'Pix key' }) label: string;
  @ApiProperty({ enum: ENVIRONMENTS, isArray: true, example: ['sandbox', 'production'], description: 'Where an account must give it; empty: optional.' })
  required_in: AccountEnvironment[];
  @ApiProperty({ example: 'The receiving key, registered at this PSP: charges are made to it.' }) help: string;
}

export class CredentialFieldView {
  @ApiProperty({ example: 'app_key' }) name: string;
  @ApiProperty({ example: 'Application key' }) label: string;
  @ApiProperty({ enum: KINDS, example: 'text' }) kind: CredentialFieldKind;
  @ApiProperty({ example: true, description: 'Required whenever it applies: always, or when its option of a `one_of` is the one given.' }) required: boolean;
  @ApiProperty({ enum: ['certificates', 'private_key'], nullable: true, example: null, description: 'For a `pem` field: what its blocks hold.' })
  pem: 'certificates' | 'private_key' | null;
  @ApiProperty({ example: 'The developer application key BB issues.' }) help: string;
}

export class CredentialOptionView {
  @ApiProperty({ example: 'pem' }) name: string;
  @ApiProperty({ example: 'Certificate and private key (PEM: .pem, .crt, .key)' }) label: string;
  @ApiProperty({ type: String, isArray: true, example: ['certificate_pem', 'private_key_pem'] }) fields: string[];
}

export class CredentialAlternativeView {
  @ApiProperty({ example: 'certificate' }) name: string;
  @ApiProperty({ example: 'Client certificate' }) label: string;
  @ApiProperty({ type: CredentialOptionView, isArray: true, description: 'Exactly one option is given; the fields of the others are left out.' })
  options: CredentialOptionView[];
}

export class LeadTimeView {
  @ApiProperty({ example: 2, description: 'The fewest days before its due date a recurring charge may reach the PSP.' }) min_days: number;
  @ApiProperty({ example: 10, description: 'The most days before its due date a recurring charge may reach the PSP.' }) max_days: number;
}

export class RecurringCapabilityView {
  @ApiProperty({ type: LeadTimeView }) lead_time: LeadTimeView;
  @ApiProperty({ example: 'https://developers.example.com/pix-automatico', description: 'The page that says the PSP offers Pix Automático, and the lead time.' })
  source: string;
}

export class DueChargesCapabilityView {
  @ApiProperty({ example: 'https://developers.example.com/pix/cobv', description: 'The page that says the PSP offers due-date charges (Pix API `cobv`).' })
  source: string;
}

export class ChargeBatchesCapabilityView {
  @ApiProperty({ example: 1000, description: 'The most due-date charges one batch sent to the PSP holds; larger batches are split.' }) max_charges: number;
  @ApiProperty({ example: 'https://developers.example.com/pix/lotecobv', description: 'The page that says the PSP offers batches (Pix API `lotecobv`), and their limit.' })
  source: string;
}

export class ProviderCapabilitiesView {
  @ApiProperty({ example: true }) refund: boolean;
  @ApiProperty({ example: true }) partial_refund: boolean;
  @ApiProperty({ example: true }) cancel: boolean;
  @ApiProperty({ example: true }) register_webhook: boolean;
  @ApiProperty({ enum: ['gateway', 'provider'], example: 'gateway', description: 'Who chooses the txid.' }) txid: 'gateway' | 'provider';
  @ApiProperty({ type: RecurringCapabilityView, nullable: true, description: 'Pix Automático (recurring Pix), when the provider offers it; null otherwise.' })
  recurring: RecurringCapabilityView | null;
  @ApiProperty({ type: DueChargesCapabilityView, nullable: true, description: 'Due-date charges (`due` on a payment), when the provider offers them; null otherwise.' })
  due_charges: DueChargesCapabilityView | null;
  @ApiProperty({
    type: ChargeBatchesCapabilityView,
    nullable: true,
    description: 'Batches of due-date charges sent in one request, when the provider offers them; null: a batch is one create per charge.',
  })
  charge_batches: ChargeBatchesCapabilityView | null;
}

/** One provider of `GET /admin/api/providers`: what an account of it takes (docs/providers.md, The catalogue). */
export class ProviderDescriptorView {
  @ApiProperty({ example: 'bb', description: 'The `provider` of its accounts.' }) name: string;
  @ApiProperty({ example: 'Banco do Brasil' }) label: string;
  @ApiProperty({ type: ProviderEnvironmentView, isArray: true }) environments: ProviderEnvironmentView[];
  @ApiProperty({ type: AccountSettingView, isArray: true, description: 'The account settings it takes besides credentials.' }) settings: AccountSettingView[];
  @ApiProperty({ type: CredentialFieldView, isArray: true, description: 'Every field of its `credentials`.' }) credentials: CredentialFieldView[];
  @ApiProperty({ type: CredentialAlternativeView, isArray: true, description: 'Sets of credential fields of which exactly one option is given.' })
  one_of: CredentialAlternativeView[];
  @ApiProperty({ type: ProviderCapabilitiesView }) capabilities: ProviderCapabilitiesView;
  @ApiProperty({
    example: false,
    description: "Whether merchants without provider accounts can be charged through it (its built-in configuration): a value for a merchant's `provider`.",
  })
  built_in: boolean;
}

export function providerDescriptorView(descriptor: ProviderDescriptor, builtIn: boolean): ProviderDescriptorView {
  const { capabilities } = descriptor;
  return {
    name: descriptor.name,
    label: descriptor.label,
    environments: descriptor.environments.map((environment) => ({ name: environment.name, base_url: environment.baseUrl, token_url: environment.tokenUrl })),
    settings: descriptor.settings.map((setting) => ({ name: setting.name, label: setting.label, required_in: [...setting.requiredIn], help: setting.help })),
    credentials: descriptor.credentials.map((field) => ({
      name: field.name,
      label: field.label,
      kind: field.kind,
      required: field.required,
      pem: field.pem ?? null,
      help: field.help,
    })),
    one_of: descriptor.oneOf.map((alternative) => ({
      name: alternative.name,
      label: alternative.label,
      options: alternative.options.map((option) => ({ name: option.name, label: option.label, fields: [...option.fields] })),
    })),
    capabilities: {
      refund: capabilities.refund,
      partial_refund: capabilities.partialRefund,
      cancel: capabilities.cancel,
      register_webhook: capabilities.registerWebhook,
      txid: capabilities.txid,
      recurring: capabilities.recurring
        ? { lead_time: { min_days: capabilities.recurring.leadTime.minDays, max_days: capabilities.recurring.leadTime.maxDays }, source: capabilities.recurring.source }
        : null,
      due_charges: capabilities.dueCharges ? { source: capabilities.dueCharges.source } : null,
      charge_batches: capabilities.chargeBatches ? { max_charges: capabilities.chargeBatches.maxCharges, source: capabilities.chargeBatches.source } : null,
    },
    built_in: builtIn,
  };
}
