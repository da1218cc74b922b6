import { type AbatementType, type DayCount, type DueTerms, FIXED_DISCOUNT_TYPES, type FineType, type InterestType, isFixedDateDiscount } from '../../domain/due-charge';
import { centsToDecimalString } from '../../domain/money';
import { wireAmountToCents } from './wire-amount';

/*
 * The simulated PSP's due-date charges and batches on the wire (docs/sandbox.md, Due-date charges):
 * what `POST /charges` takes besides an immediate charge's members, `PATCH /charges/:id`, and the
 * batch routes. Terms are in the gateway's words (`percent_per_month`, `fixed_until`), values
 * decimal strings with two places like amounts ("2.50" is R$ 2,50 or 2.5%), as the gateway's
 * DueTerms hold hundredths.
 */

export interface SandboxDueTermsWire {
  /** The due date, `YYYY-MM-DD` in Brasília. */
  date: string;
  /** Days after `date` the charge can still be paid. */
  daysAfterDue: number;
  fine: { type: FineType; value: string } | null;
  interest: { type: InterestType; days: DayCount; value: string } | null;
  discount:
    | { type: (typeof FIXED_DISCOUNT_TYPES)[number]; until: { date: string; value: string }[] }
    | { type: 'amount_per_day_early' | 'percent_per_day_early'; days: DayCount; value: string }
    | null;
  abatement: { type: AbatementType; value: string } | null;
}

/** The payer's address a due-date charge may carry (the BCB's `devedor.logradouro`, `cidade`, `uf`, `cep`). */
export interface SandboxAddressWire {
  street: string;
  city: string;
  /** Two letters. */
  state: string;
  /** Eight digits. */
  zip: string;
}

/** Body of `PATCH /charges/:id`: a pending due-date charge's new amount and terms, both whole. */
export interface SandboxChangeChargeBody {
  amount: string;
  due: SandboxDueTermsWire;
}

/** The most charges one batch holds (the sandbox's own limit; the adapter declares it). */
export const SANDBOX_BATCH_MAX_CHARGES = 1_000;

/** Body of `PUT /batches/:id`: due-date charges, each a `POST /charges` body with `due`. */
export interface SandboxBatchBody {
  description: string;
  charges: SandboxBatchChargeBody[];
}

/** One charge of a batch: a create body with `due` (no Idempotency-Key of its own: the batch id is the key). */
export interface SandboxBatchChargeBody {
  txid: string;
  amount: string;
  currency: 'BRL';
  description: string | null;
  externalId: string;
  recipient: { document: string; name: string };
  recipientAddress?: SandboxAddressWire;
  due: SandboxDueTermsWire;
  notificationUrl: string;
  webhookSecret?: string;
}

/** A batch item's statuses, the BCB's `lotecobv` ones: being made, made, refused. */
export const SANDBOX_BATCH_ITEM_STATUSES = ['EM_PROCESSAMENTO', 'CRIADA', 'NEGADA'] as const;
export type SandboxBatchItemStatus = (typeof SANDBOX_BATCH_ITEM_STATUSES)[number];

export function isSandboxBatchItemStatus(value: unknown): value is SandboxBatchItemStatus {
  return typeof value === 'string' && (SANDBOX_BATCH_ITEM_STATUSES as readonly string[]).includes(value);
}

export interface SandboxBatchWire {
  id: string;
  description: string;
  createdAt: string;
  /** In the order they were asked for. */
  charges: SandboxBatchItemWire[];
}

export interface SandboxBatchItemWire {
  txid: string;
  status: SandboxBatchItemStatus;
  /** Why it was refused (`NEGADA`), in the sandbox's error shape; null otherwise. */
  problem: { code: string; message: string } | null;
}

/** The terms as the wire writes them. */
export function dueTermsToWire(terms: DueTerms): SandboxDueTermsWire {
  const value = centsToDecimalString;
  const discount = terms.discount;
  return {
    date: terms.date,
    daysAfterDue: terms.daysAfterDue,
    fine: terms.fine && { type: terms.fine.type, value: value(terms.fine.value) },
    interest: terms.interest && { type: terms.interest.type, days: terms.interest.days, value: value(terms.interest.value) },
    discount:
      discount === null
        ? null
        : isFixedDateDiscount(discount)
          ? { type: discount.type, until: discount.until.map((entry) => ({ date: entry.date, value: value(entry.value) })) }
          : { type: discount.type, days: discount.days, value: value(discount.value) },
    abatement: terms.abatement && { type: terms.abatement.type, value: value(terms.abatement.value) },
  };
}

/**
 * The terms a wire body carries, in hundredths. The body was validated against the sandbox's
 * schema first (every value a two-place decimal, every type known): this only converts.
 */
export function dueTermsFromWire(wire: SandboxDueTermsWire): DueTerms {
  const hundredths = (text: string): number => {
    const cents = wireAmountToCents(text);
    if (cents === undefined) throw new Error(`not a two-place decimal: ${text}`);
    return cents;
  };
  const discount = wire.discount;
  return {
    date: wire.date,
    daysAfterDue: wire.daysAfterDue,
    fine: wire.fine && { type: wire.fine.type, value: hundredths(wire.fine.value) },
    interest: wire.interest && { type: wire.interest.type, days: wire.interest.days, value: hundredths(wire.interest.value) },
    discount:
      discount === null
        ? null
        : isFixedDateWire(discount)
          ? { type: discount.type, until: discount.until.map((entry) => ({ date: entry.date, value: hundredths(entry.value) })) }
          : { type: discount.type, days: discount.days, value: hundredths(discount.value) },
    abatement: wire.abatement && { type: wire.abatement.type, value: hundredths(wire.abatement.value) },
  };
}

type DiscountWire = NonNullable<SandboxDueTermsWire['discount']>;

/** By its type, as the schema tells the two kinds apart (a stray `until` on a per-day discount is not read). */
function isFixedDateWire(discount: DiscountWire): discount is Extract<DiscountWire, { until: unknown }> {
  return (FIXED_DISCOUNT_TYPES as readonly string[]).includes(discount.type);
}
