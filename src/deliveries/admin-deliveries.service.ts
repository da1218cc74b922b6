import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { afterCursorSql, decodeCursor, microsecondsSql, toPage } from '../common/http/cursor';
import { hasIdShape } from '../common/ids';
import { sqlRows } from '../database/sql';
import { DELIVERY_NUDGE, type DeliveryNudge } from '../webhooks/delivery-nudge';
import type { DeliveryPage, DeliveryView } from './dto/delivery.view';
import type { ListDeliveriesQuery } from './dto/list-deliveries.query';
import { isoOrNull } from '../common/dates';

interface DeliveryRow {
  id: string;
  status: string;
  event_type: string;
  event_id: string;
  payment_id: string;
  merchant_id: string;
  merchant_name: string;
  webhook_url: string | null;
  attempts: number;
  next_attempt_at: Date;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  request_id: string;
  created_at: Date;
  updated_at: Date;
  /** created_at in microseconds since the epoch (int8, so a string): the exact key of the cursor. */
  created_us: string;
}

const SELECT = `
  SELECT d.id, d.status, d.event_type, d.event_id, d.payment_id, d.merchant_id, m.name AS merchant_name, m.webhook_url,
         d.attempts, d.next_attempt_at, d.last_status_code, d.last_error, d.delivered_at, d.request_id, d.created_at, d.updated_at,
         ${microsecondsSql('d.created_at')} AS created_us
    FROM webhook_deliveries d JOIN merchants m ON m.id = d.merchant_id`;

function toView(row: DeliveryRow): DeliveryView {
  return {
    id: row.id,
    status: row.status,
    event_type: row.event_type,
    event_id: row.event_id,
    payment_id: row.payment_id,
    merchant_id: row.merchant_id,
    merchant_name: row.merchant_name,
    webhook_url: row.webhook_url,
    attempts: row.attempts,
    next_attempt_at: row.next_attempt_at.toISOString(),
    last_status_code: row.last_status_code,
    last_error: row.last_error,
    delivered_at: isoOrNull(row.delivered_at),
    request_id: row.request_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The operator's view of forwards: what is stuck or failed, and "send it again". */
@Injectable()
export class AdminDeliveriesService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(DELIVERY_NUDGE) private readonly worker: DeliveryNudge,
  ) {}

  /** Newest first, one keyset page at a time (served by the (status, created_at, id) index when filtered by status). */
  async list(query: ListDeliveriesQuery): Promise<DeliveryPage> {
    const limit = query.limit ?? 50;
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.status) where.push(`d.status = $${params.push(query.status)}`);
    if (query.merchant_id) where.push(`d.merchant_id = $${params.push(query.merchant_id)}`);
    if (query.cursor) {
      const after = decodeCursor(query.cursor);
      where.push(afterCursorSql('d.created_at', 'd.id', `$${params.push(after.createdUs)}`, `$${params.push(after.id)}`));
    }
    const rows = await sqlRows<DeliveryRow>(
      this.dataSource,
      `${SELECT} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY d.created_at DESC, d.id DESC LIMIT $${params.push(limit + 1)}`,
      params,
    );
    return toPage(rows, limit, toView);
  }

  /**
   * Queues one more attempt now, whatever the delivery's state; its attempt history stays. A
   * delivery that had used up its retries is failed again if this attempt fails too. An attempt
   * already in flight keeps its lease and is recorded as usual.
   */
  async redeliver(id: string): Promise<DeliveryView> {
    const updated = hasIdShape(id, 'dlv')
      ? await sqlRows<{ id: string }>(
          this.dataSource,
          `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = now(), updated_at = now() WHERE id = $1 RETURNING id`,
          [id],
        )
      : [];
    if (!updated[0]) throw AppError.notFound('Delivery not found.');
    this.worker.nudge();
    const rows = await sqlRows<DeliveryRow>(this.dataSource, `${SELECT} WHERE d.id = $1`, [id]);
    return toView(rows[0]!);
  }
}
