import { SANDBOX_FAIL_MARKER, wireAmountToCents } from '../common/sandbox-wire/sandbox-api';
import type { SandboxBatchBody, SandboxBatchChargeBody, SandboxBatchItemStatus, SandboxBatchWire } from '../common/sandbox-wire/sandbox-due-api';

/*
 * Batches of due-date charges at the simulated PSP (docs/sandbox.md, Batches), kept as the BCB's
 * `lotecobv` is: the PSP answers before it has made the charges, each charge is then made (`CRIADA`)
 * or refused (`NEGADA`, with its problem), and a charge still being made (`EM_PROCESSAMENTO`) or
 * refused does not exist as a charge
 * (https://github.com/bacen/pix-api/blob/1f1b568f6adf5b55a6268efbaf62802a14b01941/openapi.yaml,
 * `PUT /lotecobv/{id}`). The sandbox's routes and bodies are its own.
 */

export interface StoredBatch {
  /** The client's id: the same id again is the same batch. */
  id: string;
  description: string;
  createdAt: Date;
  /** In the order asked for. */
  items: StoredBatchItem[];
  /** Reads answered while charges were still being made: the first `heldReads` find them so, the next settles them. */
  readsWhileProcessing: number;
  heldReads: number;
}

export interface StoredBatchItem {
  txid: string;
  amountCents: number;
  /** What to make the charge from; dropped once it is settled, so a settled batch holds little. */
  body: SandboxBatchChargeBody | null;
  status: SandboxBatchItemStatus;
  problem: { code: string; message: string } | null;
}

/**
 * What a test that starts the sandbox in process decides about its batches (docs/sandbox.md, Batches).
 * Only whoever starts the server can pass it, as it passes the clock: nothing over HTTP reaches it.
 */
export interface BatchHooks {
  /** Asked as each new batch is kept: how many reads find its charges still being made (DEFAULT_HELD_READS without hooks). */
  heldReads(): number;
  /** Asked as each charge of a batch is made: true refuses it, as the fail marker does. */
  refuses(txid: string): boolean;
}

/** Reads that find a new batch still being made: one, so a client's polling runs. */
export const DEFAULT_HELD_READS = 1;

export function newBatch(id: string, body: SandboxBatchBody, now: number, heldReads = DEFAULT_HELD_READS): StoredBatch {
  return {
    id,
    description: body.description,
    createdAt: new Date(now),
    items: body.charges.map((charge) => ({ txid: charge.txid, amountCents: wireAmountToCents(charge.amount)!, body: charge, status: 'EM_PROCESSAMENTO', problem: null })),
    readsWhileProcessing: 0,
    heldReads,
  };
}

/** Whether a request under a batch's id asks for that same batch: the same charges (txid and amount) in the same order. */
export function isSameBatch(batch: StoredBatch, body: SandboxBatchBody): boolean {
  return (
    batch.items.length === body.charges.length &&
    batch.items.every((item, index) => item.txid === body.charges[index]!.txid && item.amountCents === wireAmountToCents(body.charges[index]!.amount))
  );
}

/** Whether this read settles the batch's charges still being made: the first read past its held ones (by default the second). */
export function settlesOnThisRead(batch: StoredBatch): boolean {
  if (!batch.items.some((item) => item.status === 'EM_PROCESSAMENTO')) return false;
  return batch.readsWhileProcessing++ >= batch.heldReads;
}

/** The problem of a charge refused on purpose (docs/sandbox.md, Batches). */
export const SIMULATED_REFUSAL = {
  code: 'CHARGE_REFUSED',
  message: `The PSP refused this charge (simulated: its description carries ${SANDBOX_FAIL_MARKER}).`,
} as const;

/** The problem of a charge refused by BatchHooks.refuses. */
export const HOOK_REFUSAL = { code: 'CHARGE_REFUSED', message: 'The PSP refused this charge (simulated: the test running the sandbox asked for it).' } as const;

/**
 * Why a batch's charge is refused, or null when it is made: the test running the sandbox refuses it
 * (`refusedByHook`); its description carries the fail marker (any case), as a refund's reason does, so
 * a human gets a refused charge on purpose; or its txid already names a charge (the BCB: a charge made
 * on its own cannot join a batch later).
 */
export function batchChargeRefusal(charge: SandboxBatchChargeBody, txidTaken: boolean, refusedByHook = false): { code: string; message: string } | null {
  if (refusedByHook) return { ...HOOK_REFUSAL };
  if (charge.description?.toLowerCase().includes(SANDBOX_FAIL_MARKER)) return { ...SIMULATED_REFUSAL };
  if (txidTaken) return { code: 'TXID_CONFLICT', message: `txid ${charge.txid} already names a charge.` };
  return null;
}

export function batchToWire(batch: StoredBatch): SandboxBatchWire {
  return {
    id: batch.id,
    description: batch.description,
    createdAt: batch.createdAt.toISOString(),
    charges: batch.items.map((item) => ({ txid: item.txid, status: item.status, problem: item.problem })),
  };
}

/**
 * The sandbox's batches, in memory, by the client's id. Capped by the charges they hold: past
 * `maxCharges` the oldest batches are forgotten (their charges stay in the charge store, which has
 * its own cap).
 */
export class BatchStore {
  private readonly batches = new Map<string, StoredBatch>();
  private held = 0;

  constructor(private readonly maxCharges: number) {}

  get(id: string): StoredBatch | undefined {
    return this.batches.get(id);
  }

  add(batch: StoredBatch): void {
    this.batches.set(batch.id, batch);
    this.held += batch.items.length;
    for (const [id, oldest] of this.batches) {
      if (this.held <= this.maxCharges || id === batch.id) break;
      this.batches.delete(id);
      this.held -= oldest.items.length;
    }
  }
}
