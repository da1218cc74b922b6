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
  recipient: { document: '12345678909', name: 'Ana Souza', email: 'ana@example.com', address: null },
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
  due: null,
  amountDue: null,
  checkoutUrl: 'https://pix.example.com/pay/Xq3LmT8vR2kZpW9nB4cY7hJd',
  returnUrl: 'https://shop.example.com/orders/1234',
  paymentLinkId: null,
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

/**
 * Create bodies, for the document's request examples: what Swagger UI's "Try it out" sends (the
 * first one) and an SDK user copies. Named, since the view's per-field examples would mix an
 * immediate charge with every due-date member at once, which no valid body does.
 */
export const CREATE_PAYMENT_EXAMPLES = {
  immediate: {
    summary: 'An immediate charge',
    value: { amount: 10.5, currency: 'BRL', recipientDocument: '123.456.789-09', recipientName: 'Ana Souza', description: 'Order 1234', externalId: 'order-1234' },
  },
  due: {
    summary: 'A due-date charge (docs/due-charges.md)',
    value: {
      amount: 1200,
      currency: 'BRL',
      recipientDocument: '123.456.789-09',
      recipientName: 'Ana Souza',
      description: 'Tuition March',
      externalId: 'tuition-2027-03-4471',
      due: {
        date: '2027-03-10',
        daysAfterDue: 30,
        fine: { type: 'percent', value: 2 },
        interest: { type: 'percent_per_month', value: 1 },
        discount: { type: 'fixed_until', until: [{ date: '2027-03-01', value: 60 }] },
      },
      recipientAddress: { street: 'Rua das Flores, 80, Boa Vista', city: 'Recife', state: 'PE', zip: '50050-000' },
    },
  },
};

/** A change of a pending due-date charge (`PATCH /v1/payments/{id}`): a new amount, and new terms replacing the old. */
export const UPDATE_PAYMENT_EXAMPLES = {
  change: { summary: 'A new amount and due date', value: { amount: 1150, due: { date: '2027-03-15', fine: { type: 'percent', value: 2 } } } },
};

/** A batch of due-date charges (`POST /v1/payment-batches`): each item a create body with `due`. */
export const CREATE_PAYMENT_BATCH_EXAMPLES = {
  tuition: {
    summary: "A month's tuition",
    value: {
      description: 'Tuition March 2027',
      payments: [1, 2].map((n) => ({
        ...CREATE_PAYMENT_EXAMPLES.due.value,
        recipientName: `Aluno ${n}`,
        externalId: `tuition-2027-03-${n}`,
      })),
    },
  },
};
