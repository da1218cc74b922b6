/** Examples for the OpenAPI document: one monthly gym membership at Efí, from authorization to its first paid charge. */
export const PENDING_RECURRENCE_EXAMPLE = {
  id: 'rec_3kTMd9Q2xLr8VbN1cZp4Wf7A',
  status: 'pending_authorization',
  externalId: 'subscription-881',
  payer: { document: '12345678909', name: 'Ana Souza' },
  contract: { id: 'plan-gold-4471', description: 'Gym membership' },
  frequency: 'monthly',
  amount: 89.9,
  minimumAmount: null,
  startDate: '2026-12-05',
  endDate: null,
  retryPolicy: 'three_in_seven_days',
  journey: 'qr',
  authorization: {
    copyPaste:
      '00020126180014br.gov.bcb.pix5204000053039865802BR5910Academia X6009SAO PAULO62070503***80800014br.gov.bcb.pix2558pix.example.com/qr/v2/rec/2353c790eefb11eaadc10242ac1200026304ABCD',
    qrCodePng: 'data:image/png;base64,iVBORw0KGgo…',
    expiresAt: '2026-11-27T12:00:00.000Z',
    checkoutUrl: 'https://pix.example.com/pay/Lr7NcQ2wX9vK4mP8zT3bY6hD',
  },
  firstPaymentId: null,
  cancelledBy: null,
  provider: 'efi',
  environment: 'production',
  createdAt: '2026-11-26T12:00:00.000Z',
  updatedAt: '2026-11-26T12:00:00.000Z',
};

export const ACTIVE_RECURRENCE_EXAMPLE = { ...PENDING_RECURRENCE_EXAMPLE, status: 'active', authorization: null, updatedAt: '2026-11-26T12:03:00.000Z' };

export const SCHEDULED_CHARGE_EXAMPLE = {
  id: 'rch_8fLq2Wm5Tz9Xc3Vb7Nk1Rd4H',
  recurrenceId: 'rec_3kTMd9Q2xLr8VbN1cZp4Wf7A',
  amount: 89.9,
  dueDate: '2026-12-05',
  description: 'December',
  status: 'scheduled',
  attempts: [{ date: '2026-12-05', status: 'scheduled', reason: null }],
  endToEndId: null,
  paidAt: null,
  failureReason: null,
  txid: 'k3JH2x9Qf1Lm8Zp0Rt5Vw7Yb4Nc6Ds2E',
  createdAt: '2026-11-28T12:00:00.000Z',
  updatedAt: '2026-11-28T12:00:00.000Z',
};

export const PAID_CHARGE_EXAMPLE = {
  ...SCHEDULED_CHARGE_EXAMPLE,
  status: 'paid',
  attempts: [{ date: '2026-12-05', status: 'paid', reason: null }],
  endToEndId: 'E99999999202612051200abcdefghijk',
  paidAt: '2026-12-05T12:00:00.000Z',
  updatedAt: '2026-12-05T12:00:00.000Z',
};

/** Create bodies for the document's request examples (Swagger UI sends the first): one per kind of journey, each valid as it is. */
export const CREATE_RECURRENCE_EXAMPLES = {
  qr: {
    summary: 'Weekly classes, authorized by scanning a QR (journey qr)',
    value: {
      externalId: 'subscription-881',
      payer: { document: '123.456.789-09', name: 'Ana Souza' },
      contract: { id: 'classes-881', description: 'Weekly classes' },
      frequency: 'weekly',
      amount: 29.9,
      startDate: '2027-03-01',
      retryPolicy: 'three_in_seven_days',
      journey: 'qr',
    },
  },
  qrWithDuePayment: {
    summary: 'Monthly tuition whose QR also pays the first bill, a due-date charge (journey qr_with_due_payment)',
    value: {
      externalId: 'tuition-4471',
      payer: { document: '123.456.789-09', name: 'Ana Souza' },
      contract: { id: 'tuition-4471', description: 'Tuition 2027' },
      frequency: 'monthly',
      amount: 1200,
      startDate: '2027-04-10',
      journey: 'qr_with_due_payment',
      firstPayment: { amount: 1200, due: { date: '2027-03-10', fine: { type: 'percent', value: 2 } } },
    },
  },
};
