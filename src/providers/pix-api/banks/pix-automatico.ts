import type { LeadTime } from '../../../domain/recurrence';

/**
 * The Central Bank's window for a Pix Automático charge: the receiver's PSP sends the payment
 * instruction between ten and two calendar days ("dias corridos") before the due date. A profile
 * whose bank documents no window of its own declares this one and says so beside it.
 */
// The rule is the BCB's operational procedures for Pix Automático, IN BCB 513/2024 (amended by IN BCB 614/2025): https://www.bcb.gov.br/estabilidadefinanceira/exibenormativo?tipo=Instru%C3%A7%C3%A3o%20Normativa%20BCB&numero=513
// The BCB's pages cannot be read from here: the "dez a dois dias corridos antes da liquidação" is the BCB's announcement of its rules (IN BCB 436/2023, 7 Dec 2023) as reported at https://jovempan.com.br/noticias/economia/banco-central-divulga-regras-do-pix-automatico.html,
// and Open Finance Brasil's guide (citing IN BCB 513) says "no prazo de 2 a 10 dias anteriores a data de vencimento": https://openfinancebrasil.atlassian.net/wiki/spaces/OF/pages/628457473
export const BCB_LEAD_TIME: LeadTime = { minDays: 2, maxDays: 10 };

/** The BCB's regulation page cited for BCB_LEAD_TIME. */
export const BCB_PIX_AUTOMATICO_RULES = 'https://www.bcb.gov.br/estabilidadefinanceira/exibenormativo?tipo=Instru%C3%A7%C3%A3o%20Normativa%20BCB&numero=513';
