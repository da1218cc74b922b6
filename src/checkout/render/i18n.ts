import type { Frequency } from '../../domain/recurrence';

/** The pages' languages: Portuguese (Brazil) unless the browser prefers English. */
export type Lang = 'pt-BR' | 'en';

/** The most language ranges of an Accept-Language header that are read; the rest are ignored. */
const MAX_RANGES = 20;

/**
 * English when the browser's Accept-Language prefers it to Portuguese (a higher q, or the same q
 * listed first), Portuguese (Brazil) otherwise, whatever else the header names.
 */
export function negotiateLanguage(header: string | string[] | undefined): Lang {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  let en: [q: number, order: number] | undefined;
  let pt: [q: number, order: number] | undefined;
  text
    .split(',')
    .slice(0, MAX_RANGES)
    .forEach((range, order) => {
      const [tag = '', ...params] = range.trim().split(';');
      const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const q = qParam === undefined ? 1 : Number(qParam.slice(2));
      if (!Number.isFinite(q) || q <= 0 || q > 1) return;
      const primary = tag.trim().toLowerCase().split('-')[0];
      if (primary === 'en' && (!en || q > en[0])) en = [q, order];
      if (primary === 'pt' && (!pt || q > pt[0])) pt = [q, order];
    });
  if (!en) return 'pt-BR';
  if (!pt) return 'en';
  return en[0] > pt[0] || (en[0] === pt[0] && en[1] < pt[1]) ? 'en' : 'pt-BR';
}

/** What a page says to a payer as it changes: one per state the page can show. */
export type PageState = 'pending' | 'paid' | 'expired' | 'cancelled' | 'failed' | 'refunded' | 'authorized' | 'rejected';

export interface Messages {
  lang: Lang;
  /** The locale money and dates are written in. */
  locale: string;
  payTitle: (amount: string, merchant: string) => string;
  authorizeTitle: (merchant: string) => string;
  payHeading: string;
  authorizeHeading: string;
  merchantLabel: string;
  amount: string;
  amountDueToday: string;
  originalAmount: string;
  dueDate: string;
  payableUntil: string;
  payer: string;
  description: string;
  qrAlt: (amount: string) => string;
  authorizationQrAlt: string;
  scan: string;
  copyLabel: string;
  copyButton: string;
  copied: string;
  copyFailed: string;
  timeLeft: string;
  timeUp: string;
  steps: readonly string[];
  authorizeSteps: readonly string[];
  requestJourney: string;
  states: Readonly<Record<PageState, string>>;
  stateDetails: Readonly<Record<PageState, string>>;
  /** What a recurrence's page says where a payment's would speak of paying. */
  authorizationStates: Readonly<Partial<Record<PageState, string>>>;
  authorizationDetails: Readonly<Partial<Record<PageState, string>>>;
  backToShop: string;
  refresh: string;
  noScript: string;
  liveUpdates: string;
  recurringAmount: string;
  minimumAmount: string;
  variableAmount: string;
  frequency: string;
  frequencies: Readonly<Record<Frequency, string>>;
  startDate: string;
  endDate: string;
  noEndDate: string;
  contract: string;
  firstPayment: (amount: string) => string;
  notFoundTitle: string;
  notFoundText: string;
  tooManyTitle: string;
  tooManyText: (seconds: number) => string;
  unavailableTitle: string;
  unavailableText: string;
  errorTitle: string;
  errorText: string;
  securedBy: string;
  linkTitle: (title: string, merchant: string) => string;
  payerNameField: string;
  documentField: string;
  documentHint: string;
  emailField: string;
  amountField: string;
  amountHint: (min: string, max: string) => string;
  submitLink: string;
  formHasErrors: string;
  fieldErrors: { name: string; document: string; email: string; amount: (min: string, max: string) => string; text: string };
  linkStates: Readonly<Record<'inactive' | 'expired' | 'used_up', { title: string; text: string }>>;
  openFailedTitle: string;
  openFailedText: string;
  backToForm: string;
}

const PT: Messages = {
  lang: 'pt-BR',
  locale: 'pt-BR',
  payTitle: (amount, merchant) => `Pagar ${amount} · ${merchant}`,
  authorizeTitle: (merchant) => `Autorizar Pix Automático · ${merchant}`,
  payHeading: 'Pagamento via Pix',
  authorizeHeading: 'Autorizar Pix Automático',
  merchantLabel: 'Loja',
  amount: 'Valor',
  amountDueToday: 'Valor a pagar hoje',
  originalAmount: 'Valor original',
  dueDate: 'Vencimento',
  payableUntil: 'Pode ser pago até',
  payer: 'Pagador',
  description: 'Descrição',
  qrAlt: (amount) => `QR Code do Pix de ${amount}`,
  authorizationQrAlt: 'QR Code da autorização do Pix Automático',
  scan: 'Escaneie o QR Code com o app do seu banco ou use o Pix copia e cola.',
  copyLabel: 'Pix copia e cola',
  copyButton: 'Copiar código',
  copied: 'Código copiado.',
  copyFailed: 'Não foi possível copiar. Selecione o código e copie.',
  timeLeft: 'Tempo restante',
  timeUp: 'O prazo terminou. Confirmando com o banco…',
  steps: ['Abra o app do seu banco e escolha pagar com Pix.', 'Escaneie o QR Code ou cole o código copiado.', 'Confirme o pagamento. Esta página se atualiza sozinha.'],
  authorizeSteps: [
    'Abra o app do seu banco e escolha Pix Automático ou pagar com Pix.',
    'Escaneie o QR Code ou cole o código copiado.',
    'Confira os termos e autorize. Esta página se atualiza sozinha.',
  ],
  requestJourney: 'A autorização foi enviada ao app do seu banco: abra-o para conferir os termos e autorizar.',
  states: {
    pending: 'Aguardando pagamento',
    paid: 'Pagamento confirmado',
    expired: 'Este Pix expirou',
    cancelled: 'Cobrança cancelada',
    failed: 'Cobrança indisponível',
    refunded: 'Pagamento devolvido',
    authorized: 'Autorização confirmada',
    rejected: 'Autorização recusada',
  },
  stateDetails: {
    pending: '',
    paid: 'Obrigado! O pagamento foi recebido.',
    expired: 'O prazo para pagar terminou. Peça um novo link à loja.',
    cancelled: 'A loja cancelou esta cobrança. Nada foi cobrado.',
    failed: 'Não foi possível gerar esta cobrança. Peça um novo link à loja.',
    refunded: 'O valor pago foi devolvido.',
    authorized: 'Obrigado! As cobranças serão feitas conforme os termos autorizados.',
    rejected: 'A autorização não foi concedida. Nada será cobrado.',
  },
  authorizationStates: { pending: 'Aguardando autorização', expired: 'Esta autorização expirou', cancelled: 'Autorização cancelada' },
  authorizationDetails: {
    expired: 'O prazo para autorizar terminou. Peça um novo link à loja.',
    cancelled: 'A autorização foi cancelada. Nada será cobrado.',
  },
  backToShop: 'Voltar à loja',
  refresh: 'Atualizar a página',
  noScript: 'Atualize a página para ver se o pagamento foi confirmado.',
  liveUpdates: 'Esta página se atualiza sozinha quando o pagamento for confirmado.',
  recurringAmount: 'Valor de cada cobrança',
  minimumAmount: 'Valor mínimo de cada cobrança',
  variableAmount: 'Variável',
  frequency: 'Frequência',
  frequencies: { weekly: 'Semanal', monthly: 'Mensal', quarterly: 'Trimestral', semiannual: 'Semestral', annual: 'Anual' },
  startDate: 'Primeira cobrança',
  endDate: 'Última cobrança',
  noEndDate: 'Sem data de término',
  contract: 'Contrato',
  firstPayment: (amount) => `Ao autorizar, você também paga agora a primeira cobrança, de ${amount}.`,
  notFoundTitle: 'Página não encontrada',
  notFoundText: 'Este link de pagamento não existe ou não está mais disponível. Confira o link que a loja enviou.',
  tooManyTitle: 'Muitas tentativas',
  tooManyText: (seconds) => `Aguarde ${seconds} segundo${seconds === 1 ? '' : 's'} e tente de novo.`,
  unavailableTitle: 'Serviço indisponível',
  unavailableText: 'Não foi possível abrir esta página agora. Tente de novo em instantes.',
  errorTitle: 'Algo deu errado',
  errorText: 'Não foi possível abrir esta página agora. Tente de novo em instantes.',
  securedBy: 'Pagamento instantâneo via Pix',
  linkTitle: (title, merchant) => `${title} · ${merchant}`,
  payerNameField: 'Nome completo',
  documentField: 'CPF ou CNPJ',
  documentHint: 'Usado só para gerar a cobrança Pix.',
  emailField: 'E-mail',
  amountField: 'Valor (R$)',
  amountHint: (min, max) => `Entre ${min} e ${max}.`,
  submitLink: 'Continuar para o pagamento',
  formHasErrors: 'Corrija os campos indicados abaixo.',
  fieldErrors: {
    name: 'Informe seu nome (até 140 caracteres).',
    document: 'Informe um CPF ou CNPJ válido.',
    email: 'Informe um e-mail válido.',
    amount: (min, max) => `Informe um valor entre ${min} e ${max}.`,
    text: 'Este campo tem caracteres que não podem ser usados.',
  },
  linkStates: {
    inactive: { title: 'Link desativado', text: 'Este link de pagamento foi desativado pela loja.' },
    expired: { title: 'Link expirado', text: 'Este link de pagamento não aceita mais pagamentos.' },
    used_up: { title: 'Link esgotado', text: 'Este link já recebeu o número máximo de pagamentos.' },
  },
  openFailedTitle: 'Não foi possível criar o pagamento',
  openFailedText: 'Tente de novo em alguns minutos.',
  backToForm: 'Voltar ao formulário',
};

const EN: Messages = {
  lang: 'en',
  locale: 'en-US',
  payTitle: (amount, merchant) => `Pay ${amount} · ${merchant}`,
  authorizeTitle: (merchant) => `Authorize Pix Automático · ${merchant}`,
  payHeading: 'Pay with Pix',
  authorizeHeading: 'Authorize Pix Automático',
  merchantLabel: 'Shop',
  amount: 'Amount',
  amountDueToday: 'Amount due today',
  originalAmount: 'Original amount',
  dueDate: 'Due date',
  payableUntil: 'Payable until',
  payer: 'Payer',
  description: 'Description',
  qrAlt: (amount) => `Pix QR code for ${amount}`,
  authorizationQrAlt: 'Pix Automático authorization QR code',
  scan: "Scan the QR code with your bank's app, or use the Pix copy and paste code.",
  copyLabel: 'Pix copy and paste code',
  copyButton: 'Copy code',
  copied: 'Code copied.',
  copyFailed: 'Could not copy. Select the code and copy it.',
  timeLeft: 'Time left',
  timeUp: 'Time is up. Checking with the bank…',
  steps: ["Open your bank's app and choose to pay with Pix.", 'Scan the QR code or paste the copied code.', 'Confirm the payment. This page updates by itself.'],
  authorizeSteps: [
    "Open your bank's app and choose Pix Automático or pay with Pix.",
    'Scan the QR code or paste the copied code.',
    'Check the terms and authorize. This page updates by itself.',
  ],
  requestJourney: "The authorization request was sent to your bank's app: open it to check the terms and authorize.",
  states: {
    pending: 'Waiting for payment',
    paid: 'Payment confirmed',
    expired: 'This Pix has expired',
    cancelled: 'Charge cancelled',
    failed: 'Charge unavailable',
    refunded: 'Payment refunded',
    authorized: 'Authorization confirmed',
    rejected: 'Authorization declined',
  },
  stateDetails: {
    pending: '',
    paid: 'Thank you! The payment was received.',
    expired: 'The time to pay is over. Ask the shop for a new link.',
    cancelled: 'The shop cancelled this charge. Nothing was charged.',
    failed: 'This charge could not be created. Ask the shop for a new link.',
    refunded: 'The amount paid was returned.',
    authorized: 'Thank you! Charges will be made on the terms you authorized.',
    rejected: 'The authorization was not given. Nothing will be charged.',
  },
  authorizationStates: { pending: 'Waiting for authorization', expired: 'This authorization has expired', cancelled: 'Authorization cancelled' },
  authorizationDetails: {
    expired: 'The time to authorize is over. Ask the shop for a new link.',
    cancelled: 'The authorization was cancelled. Nothing will be charged.',
  },
  backToShop: 'Back to the shop',
  refresh: 'Refresh the page',
  noScript: 'Refresh the page to see whether the payment was confirmed.',
  liveUpdates: 'This page updates by itself once the payment is confirmed.',
  recurringAmount: 'Amount of each charge',
  minimumAmount: 'Minimum amount of each charge',
  variableAmount: 'Variable',
  frequency: 'Frequency',
  frequencies: { weekly: 'Weekly', monthly: 'Monthly', quarterly: 'Quarterly', semiannual: 'Every six months', annual: 'Yearly' },
  startDate: 'First charge',
  endDate: 'Last charge',
  noEndDate: 'No end date',
  contract: 'Contract',
  firstPayment: (amount) => `Authorizing also pays the first charge, of ${amount}, now.`,
  notFoundTitle: 'Page not found',
  notFoundText: 'This payment link does not exist or is no longer available. Check the link the shop sent you.',
  tooManyTitle: 'Too many requests',
  tooManyText: (seconds) => `Wait ${seconds} second${seconds === 1 ? '' : 's'} and try again.`,
  unavailableTitle: 'Service unavailable',
  unavailableText: 'This page cannot be opened right now. Try again in a moment.',
  errorTitle: 'Something went wrong',
  errorText: 'This page cannot be opened right now. Try again in a moment.',
  securedBy: 'Instant payment with Pix',
  linkTitle: (title, merchant) => `${title} · ${merchant}`,
  payerNameField: 'Full name',
  documentField: 'CPF or CNPJ',
  documentHint: 'Used only to create the Pix charge.',
  emailField: 'E-mail',
  amountField: 'Amount (R$)',
  amountHint: (min, max) => `Between ${min} and ${max}.`,
  submitLink: 'Continue to payment',
  formHasErrors: 'Please correct the fields marked below.',
  fieldErrors: {
    name: 'Enter your name (up to 140 characters).',
    document: 'Enter a valid CPF or CNPJ.',
    email: 'Enter a valid e-mail address.',
    amount: (min, max) => `Enter an amount between ${min} and ${max}.`,
    text: 'This field has characters that cannot be used.',
  },
  linkStates: {
    inactive: { title: 'Link deactivated', text: 'The shop has deactivated this payment link.' },
    expired: { title: 'Link expired', text: 'This payment link no longer takes payments.' },
    used_up: { title: 'Link sold out', text: 'This payment link has already received its maximum number of payments.' },
  },
  openFailedTitle: 'The payment could not be created',
  openFailedText: 'Try again in a few minutes.',
  backToForm: 'Back to the form',
};

export function messages(lang: Lang): Messages {
  return lang === 'en' ? EN : PT;
}
