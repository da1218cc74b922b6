/**
 * Whole payments as the API answers them, for the document's examples: one coherent story (a
 * payment created at the sandbox, then paid), where the view's per-field examples would mix states.
 */
export const PENDING_PAYMENT_EXAMPLE = {
  id: 'pay_3kTMd9Q2xLr8VbN1cZp4Wf7A',
  status: 'pending',
  amount: 10.5,
  currency: 'BRL',
  description: 'Order 1234',
  externalId: 'order-1234',
  recipient: { document: '12345678909', name: 'Ana Souza', email: 'ana@example.com' },
  pix: {
    txid: 'k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2E',
    copyPaste: '00020101021226830014br.gov.bcb.pix2561pix.example.com/qr/v2/k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2E5204000053039865405…6304ABCD',
    qrCodePng: 'data:image/png;base64,iVBORw0KGgo…',
    expiresAt: '2026-11-26T13:00:00.000Z',
    endToEndId: null,
  },
  provider: 'sandbox',
  environment: 'sandbox',
  providerPaymentId: 'sbx_8f2kQ7mN3pL9',
  createdAt: '2026-11-26T12:00:00.000Z',
  updatedAt: '2026-11-26T12:00:00.000Z',
  paidAt: null,
  paidAfterClose: false,
  refundedAmount: 0,
  paidAmount: null,
  payer: null,
};

export const PAID_PAYMENT_EXAMPLE = {
  ...PENDING_PAYMENT_EXAMPLE,
  status: 'paid',
  pix: { ...PENDING_PAYMENT_EXAMPLE.pix, endToEndId: 'E00038166202611261201abcdefghijk' },
  updatedAt: '2026-11-26T12:01:00.000Z',
  paidAt: '2026-11-26T12:01:00.000Z',
  paidAmount: 10.5,
  payer: { name: 'Ana Souza', document: '***.456.789-**' },
};

export const CANCELLED_PAYMENT_EXAMPLE = { ...PENDING_PAYMENT_EXAMPLE, status: 'cancelled', updatedAt: '2026-11-26T12:05:00.000Z' };
