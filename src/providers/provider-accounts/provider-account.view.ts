import { ApiProperty } from '@nestjs/swagger';
import type { AccountEnvironment } from '../provider-adapter';
import type { ReceiverAccount } from '../recurring';
import { RECEIVER_ACCOUNT_TYPES } from './receiver-account';

export class CredentialsSummaryView {
  @ApiProperty({ type: String, nullable: true, example: 'Client_Id_4f1c…' }) client_id: string | null;
  @ApiProperty({ type: String, nullable: true, example: 'CN=loja-da-ana,O=Loja da Ana' }) certificate_subject: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) certificate_expires_at: string | null;
}

/** How the account is doing for routing (docs/providers.md, Routing). */
export class ProviderAccountHealthView {
  @ApiProperty({ enum: ['closed', 'open', 'half_open'], description: "This process's circuit breaker for the account." }) circuit: 'closed' | 'open' | 'half_open';
  @ApiProperty({ example: 0, description: "Consecutive failures counted by this process's breaker." }) consecutive_failures: number;
  @ApiProperty({ example: 0, description: 'Create attempts at this account other than `charged` in the last hour (all processes).' }) recent_failures: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) last_failure_at: string | null;
  @ApiProperty({ type: String, nullable: true }) last_error: string | null;
}

/** Where the account's recurring charges settle (the Pix API's `recebedor`). */
export class ReceiverAccountView {
  @ApiProperty({ example: '0001' }) agencia: string;
  @ApiProperty({ example: '1234567' }) conta: string;
  @ApiProperty({ enum: RECEIVER_ACCOUNT_TYPES, example: 'CORRENTE' }) tipoConta: ReceiverAccount['tipoConta'];
}

/** A provider account as the admin API shows it: never its credentials. */
export class ProviderAccountView {
  @ApiProperty({ example: 'pa_5hQm2Zt8KcV1xLr9BnW3dF7Y' }) id: string;
  @ApiProperty({ example: 'Efí — Loja da Ana' }) name: string;
  @ApiProperty({ example: 'efi' }) provider: string;
  @ApiProperty({ enum: ['sandbox', 'production'] }) environment: AccountEnvironment;
  @ApiProperty({ type: String, nullable: true }) base_url: string | null;
  @ApiProperty({ type: String, nullable: true }) token_url: string | null;
  @ApiProperty({ type: String, nullable: true }) pix_key: string | null;
  @ApiProperty() active: boolean;
  @ApiProperty({ example: 'https://pix.example.com/webhooks/efi/pa_5hQm2Zt8KcV1xLr9BnW3dF7Y', description: "Where the PSP must post this account's events." })
  webhook_url: string;
  @ApiProperty({
    type: ReceiverAccountView,
    nullable: true,
    description: 'For recurring Pix: the account at this PSP where recurring charges settle; null until set (required before the first recurrence).',
  })
  receiver_account: ReceiverAccountView | null;
  @ApiProperty({ type: CredentialsSummaryView }) credentials_summary: CredentialsSummaryView;
  @ApiProperty({ type: ProviderAccountHealthView }) health: ProviderAccountHealthView;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class ProviderAccountCheckView {
  @ApiProperty() ok: boolean;
  @ApiProperty() latency_ms: number;
  @ApiProperty({ type: String, nullable: true }) detail: string | null;
}

export class ProviderAccountWebhookView {
  @ApiProperty() registered: boolean;
  @ApiProperty() webhook_url: string;
}
