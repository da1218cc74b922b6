import { AdminSession } from '../dashboard/admin-session.entity';
import { WebhookDeliveryAttempt } from '../deliveries/webhook-delivery-attempt.entity';
import { WebhookDelivery } from '../deliveries/webhook-delivery.entity';
import { IdempotencyRecord } from '../idempotency/idempotency-record.entity';
import { ApiKey } from '../merchants/api-key.entity';
import { Merchant } from '../merchants/merchant.entity';
import { Payment } from '../payments/payment.entity';
import { PaymentEvent } from '../webhooks/payment-event.entity';

/** Every entity, listed explicitly (no globs: the same list works from ts-jest/swc and from dist). */
export const ENTITIES = [Merchant, ApiKey, Payment, IdempotencyRecord, PaymentEvent, WebhookDelivery, WebhookDeliveryAttempt, AdminSession];
