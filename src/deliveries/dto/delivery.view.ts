import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** One forward of one event to one merchant, as the admin API lists it. */
export class DeliveryView {
  @ApiProperty({ example: 'dlv_3kTMd9Q2xLr8VbN1cZp4Wf7A', description: 'Also the Standard Webhooks `webhook-id`, the same on every attempt.' }) id: string;
  @ApiProperty({ enum: ['pending', 'delivered', 'failed'] }) status: string;
  @ApiProperty({ example: 'payment.confirmed' }) event_type: string;
  @ApiProperty({ example: 'evt_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) event_id: string;
  @ApiProperty({ example: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) payment_id: string;
  @ApiProperty({ example: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' }) merchant_id: string;
  @ApiProperty({ example: 'Loja da Ana' }) merchant_name: string;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://shop.example/webhooks/pix', description: "The merchant's webhook URL now." })
  webhook_url: string | null;
  @ApiProperty({ example: 2, description: 'Attempts made so far.' }) attempts: number;
  @ApiProperty({ format: 'date-time', description: 'When the next attempt is due (pending deliveries).' }) next_attempt_at: string;
  @ApiPropertyOptional({ type: Number, nullable: true, example: 503 }) last_status_code: number | null;
  @ApiPropertyOptional({ type: String, nullable: true, example: 'timeout after 10000 ms' }) last_error: string | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true }) delivered_at: string | null;
  @ApiProperty({ format: 'uuid', description: 'The intake request id, sent as X-Request-Id on every attempt.' }) request_id: string;
  @ApiProperty({ format: 'date-time' }) created_at: string;
  @ApiProperty({ format: 'date-time' }) updated_at: string;
}

export class DeliveryPage {
  @ApiProperty({ type: [DeliveryView] }) items: DeliveryView[];
  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last page.' }) next_cursor: string | null;
}
