import { useState } from 'react';
import { api } from '../api';
import type { ChargeSimulation, RecurrenceDetail, RecurrenceSimulation, RecurrenceStatus, RecurringCharge, RecurringSimulationResult } from '../types';
import { Button, Card, messageOf } from '../ui';
import { CancelDialog } from './cancel-dialog';
import { recurrenceAmount } from './recurrence-format';
import type { SimulationOutcome } from './test-mode';

/**
 * A recurrence page's actions (docs/dashboard.md, Recurrences): a test PSP's "make this happen"
 * buttons, for the recurrence and for each of its charges, and the cancel dialog.
 */

/** What a test PSP can make the payer or the payer's bank do to a recurrence in each status. */
const RECURRENCE_SIMULATIONS: { action: RecurrenceSimulation; label: string; when: RecurrenceStatus; primary?: boolean }[] = [
  { action: 'authorize', label: 'Payer authorizes', when: 'pending_authorization', primary: true },
  { action: 'reject', label: 'Payer rejects', when: 'pending_authorization' },
  { action: 'expire', label: 'Authorization expires', when: 'pending_authorization' },
  { action: 'payer_cancel', label: 'Payer cancels at their bank', when: 'active' },
];

/** A charge's current attempt: settled or failed. */
export const CHARGE_SIMULATIONS: { action: ChargeSimulation; label: string }[] = [
  { action: 'settle', label: 'Settle' },
  { action: 'fail', label: 'Fail' },
];

/** Charges a test PSP can still settle or fail: an attempt of theirs is under way. */
export const simulatableCharge = (charge: RecurringCharge): boolean => charge.status === 'scheduled' || charge.status === 'retrying';

type Target = { kind: 'recurrence'; id: string; action: RecurrenceSimulation } | { kind: 'charge'; id: string; action: ChargeSimulation };

/**
 * Runs one simulation at a time: the test PSP posts its callback to the gateway, which applies it
 * through the normal intake; `onSimulated` gets the recurrence read again and what to tell the operator.
 */
export function useSimulation(onSimulated: (detail: RecurrenceDetail | undefined, outcome: SimulationOutcome) => void) {
  const [busy, setBusy] = useState<string>();
  const run = async (target: Target, label: string) => {
    setBusy(`${target.id}:${target.action}`);
    const path = target.kind === 'recurrence' ? `/recurrences/${encodeURIComponent(target.id)}/simulate` : `/recurring-charges/${encodeURIComponent(target.id)}/simulate`;
    try {
      const result = await api<RecurringSimulationResult>('POST', path, { action: target.action });
      const now = target.kind === 'recurrence' ? `the recurrence is now ${result.recurrence.status.replace(/_/g, ' ')}` : chargeNow(result.recurrence, target.id);
      onSimulated(
        result.recurrence,
        result.simulation.delivered
          ? { ok: true, text: `${label}: the test PSP sent its callback to the gateway; ${now}.` }
          : { ok: false, text: `${label}: the test PSP sent its callback, but the gateway answered ${result.simulation.status ?? 'nothing'}.` },
      );
    } catch (error) {
      onSimulated(undefined, { ok: false, text: messageOf(error) });
    } finally {
      setBusy(undefined);
    }
  };
  return { busy, isBusy: (id: string, action: string) => busy === `${id}:${action}`, run };
}

function chargeNow(detail: RecurrenceDetail, chargeId: string): string {
  const charge = detail.charges.find((c) => c.id === chargeId);
  return charge ? `the charge is now ${charge.status}` : 'the charge is no longer listed';
}

/** The recurrence's own simulation buttons, by its status. */
export function RecurrenceSimulatePanel({ recurrence, simulation }: { recurrence: RecurrenceDetail; simulation: ReturnType<typeof useSimulation> }) {
  const offered = RECURRENCE_SIMULATIONS.filter((s) => s.when === recurrence.status);
  const charges = recurrence.charges.some(simulatableCharge);
  return (
    <Card title="Test PSP" className="card-sandbox">
      {offered.length > 0 ? (
        <>
          <p className="muted small">
            Make the test PSP ({recurrence.provider}) act as the payer&apos;s bank would and post its callback to the gateway. No real money moves.
            {charges && ' Each charge below can be settled or failed the same way.'}
          </p>
          <div className="button-row">
            {offered.map((s) => (
              <Button
                key={s.action}
                kind={s.primary ? 'primary' : 'secondary'}
                busy={simulation.isBusy(recurrence.id, s.action)}
                disabled={!!simulation.busy}
                onClick={() => void simulation.run({ kind: 'recurrence', id: recurrence.id, action: s.action }, s.label)}
              >
                {s.label}
              </Button>
            ))}
          </div>
        </>
      ) : (
        <p className="muted small">
          This recurrence is {recurrence.status.replace(/_/g, ' ')}: the payer has nothing left to answer (one waiting for the payer can be authorized, rejected or expire; an
          active one cancelled by the payer).{charges && ' Its charges below can still be settled or failed.'}
        </p>
      )}
    </Card>
  );
}

/**
 * "Cancel this recurrence?": cancelled at the PSP on the merchant's behalf, with its charges not yet
 * attempted. A 409 (the payer answered meanwhile, or it ended) closes the dialog, says why and reads the page again.
 */
export function CancelRecurrenceDialog({
  recurrence,
  onClose,
  onCancelled,
  onConflict,
}: {
  recurrence: RecurrenceDetail;
  onClose: () => void;
  onCancelled: (detail: RecurrenceDetail) => void;
  onConflict: (message: string) => void;
}) {
  return (
    <CancelDialog<RecurrenceDetail>
      title="Cancel this recurrence?"
      path={`/recurrences/${encodeURIComponent(recurrence.id)}/cancel`}
      confirmLabel="Cancel recurrence"
      onClose={onClose}
      onCancelled={onCancelled}
      onConflict={onConflict}
    >
      <p>
        The authorization of {recurrenceAmount(recurrence)} from {recurrence.payer.name} is cancelled at {recurrence.provider} on the merchant&apos;s behalf: no further cycle can
        be charged, and its charges not yet attempted are cancelled with it. The merchant receives recurrence.cancelled. This cannot be undone.
      </p>
    </CancelDialog>
  );
}
