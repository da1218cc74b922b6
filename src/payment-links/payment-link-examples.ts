/** Examples for the OpenAPI document: a shop's T-shirt sold at a fixed price, and a donation the payer sizes. */
export const PAYMENT_LINK_EXAMPLE = {
  id: 'plink_3kTMd9Q2xLr8VbN1cZp4Wf7A',
  url: 'https://pix.example.com/l/7QmZ2xT9bLk4Wn8Rc1Vd',
  title: 'Camiseta azul',
  description: 'Tamanhos P, M e G; entrega em até 5 dias úteis.',
  amount: 59.9,
  amountRange: null,
  expiresAt: '2027-06-30T23:59:59.000Z',
  maxPayments: 50,
  collect: { email: true },
  returnUrl: 'https://shop.example.com/thanks',
  active: true,
  state: 'open',
  paymentsCount: 3,
  paidCount: 2,
  createdAt: '2026-11-26T12:00:00.000Z',
  updatedAt: '2026-11-26T12:00:00.000Z',
};

export const DEACTIVATED_PAYMENT_LINK_EXAMPLE = { ...PAYMENT_LINK_EXAMPLE, active: false, state: 'inactive', updatedAt: '2026-11-27T09:30:00.000Z' };

export const ADMIN_PAYMENT_LINK_EXAMPLE = { ...PAYMENT_LINK_EXAMPLE, merchant_id: 'mer_3kTMd9Q2xLr8VbN1cZp4Wf7A' };

/**
 * Create bodies, for the document's request examples (what Swagger UI's "Try it out" sends, the
 * first one): named, since the view's per-field examples would give both `amount` and `amountRange`.
 */
export const CREATE_PAYMENT_LINK_EXAMPLES = {
  fixed: {
    summary: 'A fixed price, at most 50 sold, with the payer’s e-mail',
    value: {
      title: 'Camiseta azul',
      description: 'Tamanhos P, M e G; entrega em até 5 dias úteis.',
      amount: 59.9,
      maxPayments: 50,
      expiresAt: '2027-06-30T23:59:59-03:00',
      collect: { email: true },
      returnUrl: 'https://shop.example.com/thanks',
    },
  },
  range: {
    summary: 'The payer chooses the amount (a donation)',
    value: { title: 'Doação para a campanha do agasalho', amountRange: { min: 10, max: 500 } },
  },
};
