import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { afterCursorSql, decodeCursor, microsecondsSql, Page, toPage } from '../common/http/cursor';
import type { ListPaymentsQuery } from './dto/list-payments.query';
import { Payment } from './payment.entity';
import { AdminPaymentItemView, toPaymentView } from './payment.view';

export type AdminPaymentItem = AdminPaymentItemView;

@Injectable()
export class AdminPaymentsService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Payments across merchants, newest first, one keyset page at a time. */
  async list(query: ListPaymentsQuery): Promise<Page<AdminPaymentItem>> {
    const limit = query.limit ?? 50;
    const qb = this.dataSource.getRepository(Payment).createQueryBuilder('p').addSelect(microsecondsSql('p.created_at'), 'created_us');
    if (query.merchant_id) qb.andWhere('p.merchant_id = :merchantId', { merchantId: query.merchant_id });
    if (query.status) qb.andWhere('p.status = :status', { status: query.status });
    if (query.external_id) qb.andWhere('p.external_id = :externalId', { externalId: query.external_id });
    if (query.created_from) qb.andWhere('p.created_at >= :from', { from: new Date(query.created_from) });
    if (query.created_to) qb.andWhere('p.created_at < :to', { to: new Date(query.created_to) });
    if (query.cursor) {
      const after = decodeCursor(query.cursor);
      qb.andWhere(afterCursorSql('p.created_at', 'p.id', ':afterUs', ':afterId'), { afterUs: after.createdUs, afterId: after.id });
    }
    const { entities, raw } = await qb.orderBy('p.created_at', 'DESC').addOrderBy('p.id', 'DESC').limit(limit + 1).getRawAndEntities<{ created_us: string }>();
    const rows = entities.map((payment, i) => ({ payment, id: payment.id, created_us: raw[i]!.created_us }));
    return toPage(rows, limit, ({ payment }) => ({ ...toPaymentView(payment), merchantId: payment.merchantId }));
  }
}
