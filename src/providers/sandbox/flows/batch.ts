import type { SandboxBatchBody, SandboxBatchItemStatus } from '../../../common/sandbox-wire/sandbox-due-api';
import { type ChargeBatchItem, type ChargeBatchRequest, UpstreamError } from '../../provider-adapter';
import type { OutboundAnswer } from '../../transport/transport';
import { readBatchAnswer } from '../wire';
import { parseAnswer, type SandboxCall, segment } from './api-call';
import { createChargeBody } from './charge';

/*
 * Batches of due-date charges at the simulated PSP (docs/sandbox.md, Batches): asked for under the
 * gateway's id, answered before the charges are made, each charge's outcome read back.
 */

/**
 * A batch of 1,000 charges read back, every one refused with its problem, is about 200 KiB: more than
 * a charge's answer is allowed, so its read has a limit of its own.
 */
const BATCH_MAX_RESPONSE_BYTES = 1024 * 1024;

/** `PUT /batches/:id`: each charge a create body with its terms; the same id again is the same batch. */
export function createBatchCall(batch: ChargeBatchRequest, webhookSecret: string | undefined): SandboxCall {
  const charges = batch.charges.map((charge) => {
    if (!charge.due) throw new Error(`The batch's charge ${charge.txid} has no due date: a batch holds due-date charges only.`);
    const { expiresIn: _expiresIn, ...body } = createChargeBody(charge, webhookSecret);
    return { ...body, due: body.due! };
  });
  const body: SandboxBatchBody = { description: batch.description, charges };
  return { operation: 'create batch', method: 'PUT', path: `/batches/${segment(batch.id)}`, body };
}

/** 202: asked for (new, or the same batch again); what became of each charge is read back. */
export function parseBatchAsked(response: OutboundAnswer): undefined | UpstreamError {
  return parseAnswer('create batch', response, [202], () => undefined);
}

export function readBatchCall(id: string): SandboxCall {
  return { operation: 'get batch', method: 'GET', path: `/batches/${segment(id)}`, maxResponseBytes: BATCH_MAX_RESPONSE_BYTES };
}

export function parseBatch(response: OutboundAnswer): ChargeBatchItem[] | UpstreamError {
  return parseAnswer('get batch', response, [200], (operation, answer) =>
    readBatchAnswer(operation, answer).map((item) => ({ txid: item.txid, outcome: batchOutcome(item.status), problem: item.problem })),
  );
}

/** The simulated PSP's batch statuses in the port's terms. Exhaustive: a new status will not compile until mapped. */
export function batchOutcome(status: SandboxBatchItemStatus): ChargeBatchItem['outcome'] {
  switch (status) {
    case 'EM_PROCESSAMENTO':
      return 'processing';
    case 'CRIADA':
      return 'created';
    case 'NEGADA':
      return 'refused';
    default: {
      const unmapped: never = status;
      throw new UpstreamError({ kind: 'malformed', message: `Unmapped sandbox batch status ${String(unmapped)}` });
    }
  }
}
