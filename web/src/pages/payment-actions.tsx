import { useEffect, useRef, useState } from 'react';
import { api, ApiError } from '../api';
import { formatMoney, parseReais, toCents } from '../format';
import type { CreatedRefund, PaymentDetail, PaymentView, RefundRequest } from '../types';
import { Button, Field, Modal, Notice, onSubmit, useSubmit } from '../ui';
import { CancelDialog as ConfirmCancel } from './cancel-dialog';
import { leftCents, pendingCents } from './payment-refunds';

/**
 * The payment page's refund and cancel dialogs. Nothing is sent before the operator has seen, in
 * reais, exactly what will happen; a refund carries one Idempotency-Key per dialog, so a double
 * click or a retry after a lost answer asks the gateway for the same refund, never a second one.
 */

const REASON_MAX = 140;

function idempotencyKey(): string {
  return `dashboard-refund-${crypto.randomUUID()}`;
}

/** The refund's amount in words for the question, the button and the notice: "R$ 3,50". */
const brl = (cents: number) => formatMoney(cents / 100);

export function RefundDialog({
  payment,
  partial,
  onClose,
  onRefunded,
  onConflict,
  suggested,
}: {
  payment: PaymentDetail;
  /** Whether the provider refunds part of a payment; when unknown, the API says so if not. */
  partial: boolean;
  /** An amount to start from, in centavos (a due-date charge's overpayment): part of it, when the provider refunds parts. */
  suggested?: number;
  onClose: () => void;
  onRefunded: (refund: CreatedRefund) => void;
  /** The payment changed meanwhile (409): the page reads it again behind the dialog. */
  onConflict: () => void;
}) {
  const left = leftCents(payment);
  const [key] = useState(idempotencyKey);
  const startPartial = partial && suggested !== undefined && suggested > 0 && suggested < left;
  const [mode, setMode] = useState<'full' | 'partial'>(startPartial ? 'partial' : 'full');
  const [amountText, setAmountText] = useState(startPartial ? (suggested / 100).toFixed(2).replace('.', ',') : '');
  const [reason, setReason] = useState('');
  // The amount the operator reviewed, in centavos: set on the way to the confirmation and sent as it is, even if the page
  // (read again meanwhile) now shows more or less left.
  const [reviewed, setReviewed] = useState<number>();
  const step = reviewed === undefined ? 'form' : 'confirm';
  const [amountError, setAmountError] = useState<string>();
  const confirmRef = useRef<HTMLButtonElement>(null);
  const amountRef = useRef<HTMLInputElement>(null);
  const fullRef = useRef<HTMLInputElement>(null);

  const asked = reviewed ?? 0;
  const request: RefundRequest = { amount: asked / 100, ...(reason.trim() ? { reason: reason.trim() } : {}) };

  const send = useSubmit({
    send: async () => {
      try {
        const refund = await api<CreatedRefund>('POST', `/payments/${encodeURIComponent(payment.id)}/refunds`, request, { 'Idempotency-Key': key });
        onRefunded(refund);
      } catch (error) {
        if (error instanceof ApiError && error.status === 409 && error.code === 'PAYMENT_STATE_CONFLICT') onConflict();
        throw error;
      }
    },
  });

  // Focus follows the step: the confirm button (whose name carries the amount), or back to the amount.
  useEffect(() => {
    if (step === 'confirm') confirmRef.current?.focus();
    else (mode === 'partial' ? amountRef : fullRef).current?.focus();
    // Only a change of step moves focus; choosing an option must not.
  }, [step]);

  const review = () => {
    let cents: number | undefined = left;
    if (mode === 'partial') {
      const reais = parseReais(amountText);
      cents = reais === undefined ? undefined : toCents(reais);
      const problem =
        cents === undefined
          ? 'Enter an amount in reais, such as 3,50, with at most two decimals.'
          : cents <= 0
            ? 'Enter an amount greater than zero.'
            : cents > left
              ? `At most ${brl(left)} is left to refund.`
              : undefined;
      setAmountError(problem);
      if (problem) {
        amountRef.current?.focus();
        return;
      }
    }
    send.reset();
    setReviewed(cents);
  };

  if (step === 'confirm') {
    return (
      <Modal
        title="Confirm the refund"
        onClose={onClose}
        footer={
          <>
            <Button onClick={() => setReviewed(undefined)} disabled={send.busy}>
              Back
            </Button>
            <Button kind="danger" busy={send.busy} ref={confirmRef} onClick={() => void send.submit()}>
              Refund {brl(asked)}
            </Button>
          </>
        }
      >
        <p className="confirm-question">Refund {brl(asked)} to the payer?</p>
        <p className="small">{asked >= left ? 'Nothing is left to refund after this.' : `${brl(left - asked)} is left to refund after this.`}</p>
        <p className="muted small">
          The PSP ({payment.provider}) returns it by Pix to the account that paid. This cannot be undone.
          {reason.trim() && (
            <>
              {' '}
              Reason: <q>{reason.trim()}</q>
            </>
          )}
        </p>
        <Notice>{send.failure}</Notice>
      </Modal>
    );
  }

  return (
    <Modal
      title="Refund this payment"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button kind="primary" type="submit" form="refund-form" disabled={left === 0}>
            Review refund
          </Button>
        </>
      }
    >
      <form id="refund-form" onSubmit={onSubmit(review)} noValidate>
        {left === 0 && (
          <Notice kind="info">
            Nothing is left to refund while {brl(pendingCents(payment))} is pending at the PSP. If one of those refunds fails, its amount can be refunded again.
          </Notice>
        )}
        <fieldset className="choice" disabled={left === 0}>
          <legend>How much</legend>
          <label className="checkbox">
            <input ref={fullRef} type="radio" name="refund-mode" checked={mode === 'full'} onChange={() => setMode('full')} />
            <span>Everything left: {brl(left)}</span>
          </label>
          <label className="checkbox">
            <input type="radio" name="refund-mode" checked={mode === 'partial'} disabled={!partial} onChange={() => setMode('partial')} />
            <span>Part of it{!partial && <span className="muted"> — {payment.provider} refunds only whole payments</span>}</span>
          </label>
        </fieldset>
        {mode === 'partial' && (
          <Field label="Amount (R$)" htmlFor="refund-amount" error={amountError} hint={`Up to ${brl(left)}.`}>
            <input
              id="refund-amount"
              ref={amountRef}
              inputMode="decimal"
              autoComplete="off"
              placeholder="3,50"
              value={amountText}
              onChange={(e) => setAmountText(e.target.value)}
              aria-invalid={!!amountError}
              aria-describedby={amountError ? 'refund-amount-error' : undefined}
            />
          </Field>
        )}
        <Field label="Reason (optional)" htmlFor="refund-reason" hint={`${reason.length}/${REASON_MAX} · PSPs that carry it show it to the payer.`}>
          <input id="refund-reason" maxLength={REASON_MAX} value={reason} onChange={(e) => setReason(e.target.value)} placeholder="Item returned" />
        </Field>
      </form>
    </Modal>
  );
}

/**
 * "Cancel this payment?": the charge is closed at the PSP so it can no longer be paid. A 409 means
 * the payment is no longer pending (often: it was paid meanwhile); the page says so and reads it again.
 */
export function CancelDialog({
  payment,
  onClose,
  onCancelled,
  onConflict,
}: {
  payment: PaymentDetail;
  onClose: () => void;
  onCancelled: (payment: PaymentView) => void;
  onConflict: (message: string) => void;
}) {
  return (
    <ConfirmCancel<PaymentView>
      title="Cancel this payment?"
      path={`/payments/${encodeURIComponent(payment.id)}/cancel`}
      confirmLabel="Cancel payment"
      onClose={onClose}
      onCancelled={onCancelled}
      onConflict={onConflict}
    >
      <p>
        The charge of {formatMoney(payment.amount)} is cancelled at {payment.provider}: its QR code and BR Code stop working and the payer can no longer pay it. This cannot be
        undone.
      </p>
    </ConfirmCancel>
  );
}
