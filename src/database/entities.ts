import { IdempotencyRecord } from '../idempotency/idempotency-record.entity';
import { ApiKey } from '../merchants/api-key.entity';
import { Merchant } from '../merchants/merchant.entity';
import { Payment } from '../payments/payment.entity';

/** Every entity, listed explicitly (no globs: the same list works from ts-jest/swc and from dist). */
export const ENTITIES = [Merchant, ApiKey, Payment, IdempotencyRecord];
