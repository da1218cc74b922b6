import { Injectable } from '@nestjs/common';
import { decodeCursor, Page, toPage } from '../../common/http/cursor';
import type { ListPaymentsQuery } from './dto/list-payments.query';
import { PaymentRepository } from '../payment.repository';
import { AdminPaymentItemView } from '../payment.view';
import { PaymentViews } from '../payment-views';

export type AdminPaymentItem = AdminPaymentItemView;

@Injectable()
export class AdminPaymentsService {
  constructor(
    private readonly payments: PaymentRepository,
    private readonly paymentViews: PaymentViews,
  ) {}

  /** Payments across merchants, newest first, one keyset page at a time. */
  async list(query: ListPaymentsQuery): Promise<Page<AdminPaymentItem>> {
    const limit = query.limit ?? 50;
    const rows = await this.payments.listPage({
      merchantId: query.merchant_id,
      status: query.status,
      externalId: query.external_id,
      paymentLinkId: query.payment_link_id,
      paidAfterClose: query.paid_after_close === undefined ? undefined : query.paid_after_close === 'true',
      createdFrom: query.created_from ? new Date(query.created_from) : undefined,
      createdTo: query.created_to ? new Date(query.created_to) : undefined,
      after: query.cursor ? decodeCursor(query.cursor) : undefined,
      limit,
    });
    return toPage(rows, limit, ({ payment }) => ({ ...this.paymentViews.view(payment), merchantId: payment.merchantId }));
  }
}
