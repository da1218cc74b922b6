/** Examples for the OpenAPI document: a school's December tuition, three due-date charges, one refused by the PSP. */
const BATCH = {
  id: 'bat_3kTMd9Q2xLr8VbN1cZp4Wf7A',
  description: 'Mensalidades de dezembro',
};

export const PROCESSING_BATCH_EXAMPLE = {
  ...BATCH,
  status: 'processing',
  counts: { created: 0, failed: 0, pending: 3 },
  items: [
    { index: 0, externalId: 'invoice-2026-12-0001', status: 'pending' },
    { index: 1, externalId: 'invoice-2026-12-0002', status: 'pending' },
    { index: 2, externalId: 'invoice-2026-12-0003', status: 'pending' },
  ],
  createdAt: '2026-11-26T12:00:00.000Z',
  completedAt: null,
};

export const COMPLETED_BATCH_EXAMPLE = {
  ...BATCH,
  status: 'completed',
  counts: { created: 2, failed: 1, pending: 0 },
  items: [
    { index: 0, externalId: 'invoice-2026-12-0001', paymentId: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A', status: 'created' },
    { index: 1, externalId: 'invoice-2026-12-0002', paymentId: 'pay_8fLq2Wm5Tz9Xc3Vb7Nk1Rd4H', status: 'created' },
    {
      index: 2,
      externalId: 'invoice-2026-12-0003',
      status: 'failed',
      error: { code: 'PAYMENT_CREATE_FAILED', message: 'The PSP refused the charge: the payer’s document is not accepted.' },
    },
  ],
  createdAt: '2026-11-26T12:00:00.000Z',
  completedAt: '2026-11-26T12:00:04.000Z',
};

const { items: _items, ...completedSummary } = COMPLETED_BATCH_EXAMPLE;
export const COMPLETED_BATCH_SUMMARY_EXAMPLE = completedSummary;

export const ADMIN_BATCH_EXAMPLE = { ...COMPLETED_BATCH_SUMMARY_EXAMPLE, merchant_id: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A', provider: 'efi' };
