import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, Repository } from 'typeorm';
import { WebhookDeliveryAttempt } from './webhook-delivery-attempt.entity';

/**
 * Reads of the `webhook_delivery_attempts` table. Attempts are written by
 * WebhookDeliveryRepository.recordAttemptsIfLeaseHeld, in the same statement that moves their delivery on.
 */
@Injectable()
export class WebhookDeliveryAttemptRepository {
  constructor(@InjectRepository(WebhookDeliveryAttempt) private readonly attempts: Repository<WebhookDeliveryAttempt>) {}

  /** The attempts of these deliveries, in the order they were made. */
  async listForDeliveries(deliveryIds: string[]): Promise<WebhookDeliveryAttempt[]> {
    if (deliveryIds.length === 0) return [];
    return this.attempts.find({ where: { deliveryId: In(deliveryIds) }, order: { attemptedAt: 'ASC', attempt: 'ASC' } });
  }
}
