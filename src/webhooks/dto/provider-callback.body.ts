import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PROVIDER_EVENT_TYPES } from '../../domain/provider-event';

/*
 * What providers post to the intake routes, for the document only: the adapters read the raw bytes
 * themselves (verification comes before parsing), so these classes validate nothing.
 */

/** `data` of a sandbox event. */
export class SandboxEventData {
  @ApiProperty({ example: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A', minLength: 1, maxLength: 200, description: "The gateway's payment id or the sandbox's charge id." }) id: string;
  @ApiProperty({ example: 10.5, minimum: 0, multipleOf: 0.01, description: 'Decimal reais, at most 2 decimal places: the amount paid (or refunded).' }) amount: number;
  @ApiPropertyOptional({ example: 'CONCLUIDA', description: "The charge's status at the sandbox (informative)." }) status?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { id: 'sbx_ref_2Lm8Zp0R', refundId: 'ref_9xQ2mN4pL7sT1vB8cD3fG6hJ', amount: '3.50', status: 'DEVOLVIDO', origin: 'api', failureReason: null },
    description: 'Refund events only: the sandbox refund (`id`, `amount`, `status`, …; docs/sandbox.md).',
  })
  refund?: Record<string, unknown>;
}

/** A sandbox event (`POST /webhooks/sandbox`), signed in `X-Sandbox-Signature` over the raw body. */
export class SandboxEventBody {
  @ApiProperty({ enum: PROVIDER_EVENT_TYPES, example: 'payment.confirmed' }) event: string;
  @ApiProperty({ example: 'evt_sbx_9f2c', minLength: 1, maxLength: 200, description: 'The event id; the same id again is a duplicate.' }) id: string;
  @ApiPropertyOptional({ format: 'date-time', example: '2026-01-15T12:00:00.000Z', description: 'When it happened; now when absent.' }) created_at?: string;
  @ApiProperty({ type: SandboxEventData }) data: SandboxEventData;
}

/** One Pix of a Pix API callback (BCB's `Pix`); only what the PSP confirms on reading it back is applied. */
export class PixCallbackEntry {
  @ApiProperty({ example: 'E00038166202601151200abcdefghijk', pattern: '^[A-Za-z0-9]{32}$', description: '32 letters and digits; deduplicates per account.' }) endToEndId: string;
  @ApiProperty({ example: 'k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2E', description: "The charge's txid." }) txid: string;
  @ApiProperty({ example: '10.50', description: 'Amount paid, a decimal string.' }) valor: string;
  @ApiProperty({ format: 'date-time', example: '2026-01-15T12:00:00.000Z' }) horario: string;
  @ApiPropertyOptional({ example: 'Pedido 1234' }) infoPagador?: string;
}

/** A Pix API PSP's callback (`POST <webhook_url>/pix`). */
export class PixCallbackBody {
  @ApiProperty({ type: [PixCallbackEntry] }) pix: PixCallbackEntry[];
}

/** `data` of a Mercado Pago notification. */
export class MercadoPagoNotificationData {
  @ApiProperty({
    example: '1234567890',
    description: "Mercado Pago's payment id. The gateway reads it from the query's `data.id` (what the signature covers), then reads the payment back from Mercado Pago.",
  })
  id: string;
}

/** A Mercado Pago notification (`POST <webhook_url>`), signed in `x-signature`; topics other than `payment` are acknowledged with no event. */
export class MercadoPagoNotificationBody {
  @ApiProperty({ example: 'payment', description: 'The topic (also in the query, `type` or `topic`, which wins).' }) type: string;
  @ApiPropertyOptional({ example: 'payment.updated' }) action?: string;
  @ApiProperty({ type: MercadoPagoNotificationData }) data: MercadoPagoNotificationData;
}
