import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppError } from '../common/errors/app-error';
import { ErrorCode } from '../common/errors/error-codes';
import { newId } from '../common/ids';
import { normaliseDocument } from '../common/validation/brazilian-document';
import { AppConfig } from '../config/app-config';
import { DELIVERY_NUDGE, type DeliveryNudge } from '../deliveries/delivery-nudge';
import { Clock } from '../domain/clock';
import type { IdempotentRequest } from '../idempotency/idempotent-request';
import { requestFingerprint } from '../idempotency/request-fingerprint';
import type { CreatePaymentDto } from '../payments/dto/create-payment.dto';
import { payerAddressOf } from '../payments/due/due-terms';
import { PaymentRepository } from '../payments/payment.repository';
import { paymentOfCharge } from '../payments/payment-of-charge';
import { PaymentsService } from '../payments/payments.service';
import { supports } from '../providers/capabilities';
import { AccountResolver, type ActingAccount } from '../providers/provider-accounts/account-resolver';
import type { ChargeBatchItem, CreateChargeRequest, ProviderAdapter } from '../providers/provider-adapter';
import { classifyCreateFailure } from '../providers/provider-errors';
import { batchTxid, itemCreatePath, itemIdempotencyKey, MAX_ATTEMPTS, MAX_POLLS, pollDelayMs, pspBatchId, retryDelayMs, SINGLE_CHUNK_SIZE } from './batch-plan';
import { PAYMENT_BATCH_COMPLETED } from './payment-batch-event-bodies';
import type { PaymentBatchItem } from './payment-batch.entity';
import { type ClaimedChunk, type ItemOutcome, PaymentBatchItemRepository } from './payment-batch-item.repository';
import { PaymentBatchRepository } from './payment-batch.repository';
import { toSummaryView } from './payment-batch.view';

/** An adapter of a provider that takes batches of due-date charges (`supports(adapter, 'chargeBatches')`). */
type BatchAdapter = ProviderAdapter & Required<Pick<ProviderAdapter, 'createChargeBatch' | 'getChargeBatch'>>;

/** Creates in flight at once in a chunk made one by one: a few PSP calls, never one per item. */
const SINGLE_CONCURRENCY = 4;
/** Charges of a PSP batch read back at once. */
const READ_CONCURRENCY = 8;
/** How long a chunk waits when its item's create is still held by another request (IDEMPOTENCY_IN_PROGRESS) or the database is away. */
const BUSY_RETRY_MS = 5_000;

/**
 * Makes the payments of a claimed chunk (docs/api.md, Payment batches): as one PSP batch at an
 * account that takes them (`createChargeBatch`, then `getChargeBatch` until each charge is made or
 * refused, each made one read back for its BR Code and written as a payment of the batch), or one
 * create per item through the payments core, under a key derived from the batch and the index. No
 * transaction is open during a PSP call; every write about an item is fenced by the chunk's lease.
 * And, once a batch's last item settled, completes it with its `payment_batch.completed` (the outbox).
 */
@Injectable()
export class PaymentBatchProcessor {
  private readonly logger = new Logger('PaymentBatches');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly batches: PaymentBatchRepository,
    private readonly items: PaymentBatchItemRepository,
    private readonly accounts: AccountResolver,
    private readonly payments: PaymentsService,
    private readonly paymentRows: PaymentRepository,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @Optional() @Inject(DELIVERY_NUDGE) private readonly delivery?: DeliveryNudge,
  ) {}

  /** Makes what it can of a claimed chunk now; what it cannot is let go to be tried again. `stopping` cuts it short (shutdown): the lease then decides. */
  async process(claimed: ClaimedChunk, stopping: () => boolean): Promise<void> {
    const bound = claimed.items.filter((item) => item.mode === 'batch');
    const single = claimed.items.filter((item) => item.mode === 'single');
    const undecided = claimed.items.filter((item) => item.mode === null);
    if (bound.length > 0) await this.processBound(claimed, bound, stopping);
    if (single.length > 0) await this.processSingle(claimed, single, stopping);
    if (undecided.length > 0) await this.decide(claimed, undecided, stopping);
  }

  /**
   * A chunk's first claim: at the merchant's first account that takes due-date charges, as one PSP
   * batch when that account takes batches of this size, else one create per item. A merchant that
   * cannot be routed now goes one by one too: the payments core answers each item as it would a create.
   */
  private async decide(claimed: ClaimedChunk, items: PaymentBatchItem[], stopping: () => boolean): Promise<void> {
    const acting = await this.firstDueAccount(claimed);
    const maxCharges = acting && supports(acting.adapter, 'chargeBatches') ? acting.adapter.descriptor.capabilities.chargeBatches!.maxCharges : 0;
    if (acting && items.length <= maxCharges) {
      const binding = {
        provider: acting.provider,
        accountId: acting.accountId,
        pspBatchId: pspBatchId(claimed.batchId, claimed.chunk),
        charges: items.map((item) => ({ index: item.index, txid: batchTxid(claimed.batchId, item.index), paymentId: newId('pay') })),
      };
      const boundCount = await this.items.bindIfLeaseHeld(claimed.batchId, claimed.lease, binding, this.clock.now());
      // A lease lost meanwhile: whoever holds the chunk now binds it.
      if (boundCount !== items.length) return;
      items.forEach((item, i) => {
        const { txid, paymentId } = binding.charges[i]!;
        Object.assign(item, { mode: 'batch', provider: binding.provider, providerAccountId: binding.accountId, pspBatchId: binding.pspBatchId, txid, paymentId });
      });
      return this.processBound(claimed, items, stopping);
    }
    await this.items.makeSingleIfLeaseHeld(
      claimed.batchId,
      items.map((item) => item.index),
      claimed.lease,
      this.clock.now(),
    );
    return this.processSingle(claimed, items, stopping);
  }

  private async firstDueAccount(claimed: ClaimedChunk): Promise<ActingAccount | null> {
    try {
      const steps = await this.accounts.routeForMerchant(claimed.merchant);
      for (const step of steps) if ('acting' in step && supports(step.acting.adapter, 'dueCharges')) return step.acting;
      return null;
    } catch {
      return null;
    }
  }

  // One PSP batch

  /** A chunk bound to one PSP batch: asked for if the PSP has not accepted it yet, else read back. */
  private async processBound(claimed: ClaimedChunk, items: PaymentBatchItem[], stopping: () => boolean): Promise<void> {
    const first = items[0]!;
    let acting: ActingAccount;
    try {
      acting = await this.accounts.forPayment({ provider: first.provider!, providerAccountId: first.providerAccountId });
    } catch (error) {
      return this.failedTry(claimed, items, error, 'The account the batch was asked at can no longer be used');
    }
    const adapter = acting.adapter;
    if (!supports(adapter, 'chargeBatches')) return this.failedTry(claimed, items, null, `The provider ${acting.provider} no longer takes batches`);
    if (first.askedAt === null) return this.ask(claimed, items, acting, adapter);
    return this.readBack(claimed, items, acting, adapter, stopping);
  }

  private async ask(claimed: ClaimedChunk, items: PaymentBatchItem[], acting: ActingAccount, adapter: BatchAdapter): Promise<void> {
    const charges = items.map((item) => this.chargeRequest(item, acting));
    try {
      await adapter.createChargeBatch(acting.account, { id: items[0]!.pspBatchId!, description: claimed.description, charges });
    } catch (error) {
      const kind = classifyCreateFailure(error);
      if (kind === 'refused' || kind === 'rejected') {
        // The PSP took none of it: the items go one by one, each answered for itself.
        this.logger.warn(
          { err: error, batch_id: claimed.batchId, chunk: claimed.chunk },
          `The PSP refused batch ${claimed.batchId} chunk ${claimed.chunk}; its items are made one by one`,
        );
        const indexes = items.map((item) => item.index);
        await this.items.makeSingleIfLeaseHeld(claimed.batchId, indexes, claimed.lease, this.clock.now());
        await this.items.releaseIfLeaseHeld(claimed.batchId, indexes, claimed.lease, this.clock.now(), false, this.clock.now());
        return;
      }
      // It may hold the batch: asked again with the same id and charges, which is the same batch.
      return this.failedTry(claimed, items, error, 'The PSP did not answer the batch request');
    }
    const now = this.clock.now();
    await this.items.markAskedIfLeaseHeld(
      claimed.batchId,
      items.map((item) => item.index),
      claimed.lease,
      now,
      new Date(now.getTime() + pollDelayMs(0)),
    );
  }

  private async readBack(claimed: ClaimedChunk, items: PaymentBatchItem[], acting: ActingAccount, adapter: BatchAdapter, stopping: () => boolean): Promise<void> {
    let reported: ChargeBatchItem[];
    try {
      reported = await adapter.getChargeBatch(acting.account, items[0]!.pspBatchId!);
    } catch (error) {
      return this.failedTry(claimed, items, error, 'The PSP batch could not be read');
    }
    const byTxid = new Map(reported.map((charge) => [charge.txid, charge]));
    const waiting: PaymentBatchItem[] = [];
    await eachLimited(items, READ_CONCURRENCY, stopping, async (item) => {
      const outcome = byTxid.get(item.txid!);
      if (outcome?.outcome === 'refused') {
        await this.settle(claimed, item, {
          status: 'failed',
          code: ErrorCode.PAYMENT_CREATE_FAILED,
          message: `The PSP refused the charge: ${outcome.problem ?? 'no reason given'}`,
        });
      } else if (outcome?.outcome === 'created') {
        if (!(await this.writeMade(claimed, item, acting))) waiting.push(item);
      } else {
        waiting.push(item);
      }
    });
    if (waiting.length === 0) return;
    const polls = (waiting[0]!.attempts ?? 0) + 1;
    if (polls >= MAX_POLLS) {
      for (const item of waiting) {
        await this.settle(claimed, item, { status: 'failed', code: ErrorCode.PAYMENT_CREATE_FAILED, message: 'The PSP did not report this charge made or refused in time.' });
      }
      return;
    }
    const now = this.clock.now();
    await this.items.releaseIfLeaseHeld(
      claimed.batchId,
      waiting.map((item) => item.index),
      claimed.lease,
      new Date(now.getTime() + pollDelayMs(polls)),
      true,
      now,
    );
  }

  /** A charge the PSP made in the batch: read back for its BR Code and written as a payment of the batch. False when it could not be yet. */
  private async writeMade(claimed: ClaimedChunk, item: PaymentBatchItem, acting: ActingAccount): Promise<boolean> {
    try {
      const charge = await acting.adapter.getCharge(acting.account, { txid: item.txid!, due: true, providerPaymentId: null, paymentId: item.paymentId! });
      if (charge.txid !== item.txid || charge.amountCents !== item.amountCents) {
        this.logger.warn({ batch_id: claimed.batchId, index: item.index }, `The PSP answered charge ${charge.txid} of ${charge.amountCents} centavos for txid ${item.txid}`);
        return false;
      }
      const body = item.request as unknown as CreatePaymentDto;
      const at = this.clock.now();
      const payment = paymentOfCharge({
        id: item.paymentId!,
        merchantId: item.merchantId,
        amountCents: item.amountCents,
        description: body.description ?? null,
        externalId: body.externalId,
        recipient: { document: normaliseDocument(body.recipientDocument), name: body.recipientName, email: body.recipientEmail ?? null },
        account: acting,
        charge,
        at,
        due: item.due,
        recipientAddress: body.recipientAddress ? payerAddressOf(body.recipientAddress) : null,
        batchId: claimed.batchId,
      });
      // Written under the id reserved when the chunk was bound: a retry writes nothing twice.
      await this.paymentRows.insert(payment);
      await this.settle(claimed, item, { status: 'created', paymentId: payment.id });
      return true;
    } catch (error) {
      this.logger.warn({ err: error, batch_id: claimed.batchId, index: item.index }, `Reading back charge ${item.txid} of batch ${claimed.batchId} failed; read again later`);
      return false;
    }
  }

  private chargeRequest(item: PaymentBatchItem, acting: ActingAccount): CreateChargeRequest {
    const body = item.request as unknown as CreatePaymentDto;
    return {
      paymentId: item.paymentId!,
      txid: item.txid!,
      amountCents: item.amountCents,
      currency: 'BRL',
      description: body.description ?? null,
      externalId: body.externalId,
      payer: { document: normaliseDocument(body.recipientDocument), name: body.recipientName, email: body.recipientEmail ?? null },
      expiresInSeconds: this.config.pixExpirySeconds,
      notificationUrl: acting.notificationUrl,
      due: item.due,
      payerAddress: body.recipientAddress ? payerAddressOf(body.recipientAddress) : null,
    };
  }

  // One create per item

  /** A few of the chunk's items, each created through the payments core as a merchant's create; the rest let go for the next claim. */
  private async processSingle(claimed: ClaimedChunk, items: PaymentBatchItem[], stopping: () => boolean): Promise<void> {
    const now = this.clock.now();
    const later = items.slice(SINGLE_CHUNK_SIZE);
    await this.items.releaseIfLeaseHeld(
      claimed.batchId,
      later.map((item) => item.index),
      claimed.lease,
      now,
      false,
      now,
    );
    const untouched = await eachLimited(items.slice(0, SINGLE_CHUNK_SIZE), SINGLE_CONCURRENCY, stopping, (item) => this.createOne(claimed, item));
    await this.items.releaseIfLeaseHeld(
      claimed.batchId,
      untouched.map((item) => item.index),
      claimed.lease,
      this.clock.now(),
      false,
      this.clock.now(),
    );
  }

  private async createOne(claimed: ClaimedChunk, item: PaymentBatchItem): Promise<void> {
    const body = item.request as unknown as CreatePaymentDto;
    const path = itemCreatePath(claimed.batchId, item.index);
    const request: IdempotentRequest = {
      key: itemIdempotencyKey(claimed.batchId, item.index),
      path,
      fingerprint: requestFingerprint('POST', path, body),
      requestId: randomUUID(),
    };
    const merchant = { ...claimed.merchant, apiKeyId: 'payment-batch' };
    try {
      const answer = await this.payments.create(merchant, body, request, { batchId: claimed.batchId });
      const paymentId = (JSON.parse(String(answer.body)) as { data: { id: string } }).data.id;
      await this.settle(claimed, item, { status: 'created', paymentId });
    } catch (error) {
      if (error instanceof AppError && (error.code === ErrorCode.IDEMPOTENCY_IN_PROGRESS || error.code === ErrorCode.SERVICE_UNAVAILABLE)) {
        // Its create is still held (a lease that lapsed under a slow process), or the database is away: nothing to count.
        const at = this.clock.now();
        await this.items.releaseIfLeaseHeld(claimed.batchId, [item.index], claimed.lease, new Date(at.getTime() + BUSY_RETRY_MS), false, at);
        return;
      }
      if (error instanceof AppError && error.status < 500) {
        await this.settle(claimed, item, { status: 'failed', code: error.code, message: messageOf(error) });
        return;
      }
      await this.failedTry(claimed, [item], error, 'The payment could not be created');
    }
  }

  // Outcomes

  private async settle(claimed: ClaimedChunk, item: PaymentBatchItem, outcome: ItemOutcome): Promise<void> {
    const settled = await this.items.settleIfLeaseHeld(claimed.batchId, item.index, claimed.lease, outcome, this.clock.now());
    if (!settled) this.logger.warn({ batch_id: claimed.batchId, index: item.index }, 'A batch item’s lease lapsed while it was made; the process that holds it now records it');
  }

  /**
   * A try that failed in a way another may not: tried again later, unless it was the last try
   * (MAX_ATTEMPTS), then the items fail with what went wrong.
   */
  private async failedTry(claimed: ClaimedChunk, items: PaymentBatchItem[], error: unknown, what: string): Promise<void> {
    const attempts = (items[0]?.attempts ?? 0) + 1;
    this.logger.warn({ err: error, batch_id: claimed.batchId, chunk: claimed.chunk, attempts }, `${what} (batch ${claimed.batchId}, try ${attempts} of ${MAX_ATTEMPTS})`);
    if (attempts >= MAX_ATTEMPTS) {
      const failure =
        error instanceof AppError ? { code: error.code, message: messageOf(error) } : { code: ErrorCode.PAYMENT_CREATE_FAILED, message: `${what}, after ${MAX_ATTEMPTS} tries.` };
      for (const item of items) await this.settle(claimed, item, { status: 'failed', ...failure });
      return;
    }
    const now = this.clock.now();
    await this.items.releaseIfLeaseHeld(
      claimed.batchId,
      items.map((item) => item.index),
      claimed.lease,
      new Date(now.getTime() + retryDelayMs(attempts)),
      true,
      now,
    );
  }

  /**
   * Completes a batch whose items have all settled: `completed`, and `payment_batch.completed`
   * queued for its merchant in the same transaction (the outbox). The batch is locked first, so of
   * two processes settling its last items, one completes it. True when it completed now.
   */
  async completeIfSettled(batchId: string): Promise<boolean> {
    const queued = await this.dataSource.transaction(async (tx) => {
      const locked = await this.batches.lockProcessing(tx, batchId);
      if (!locked) return null;
      const counts = await this.batches.countsOf(tx, batchId);
      if (counts.pending > 0) return null;
      const at = this.clock.now();
      const eventId = newId('evt');
      const data = toSummaryView({ ...locked.batch, status: 'completed', completedAt: at }, counts);
      const delivery = locked.webhookUrl
        ? { id: newId('dlv'), eventType: PAYMENT_BATCH_COMPLETED, body: { event: PAYMENT_BATCH_COMPLETED, id: eventId, created_at: at.toISOString(), data }, dueAt: at }
        : null;
      await this.batches.completeWithOutbox(tx, batchId, at, eventId, delivery);
      return { delivery: delivery !== null };
    });
    if (queued?.delivery) this.delivery?.nudge();
    return queued !== null;
  }
}

/** An AppError's message with the fields it names, for an item's `error.message`. */
function messageOf(error: AppError): string {
  const fields = (error.details?.fields as { field: string; message: string }[] | undefined) ?? [];
  return fields.length === 0 ? error.message : `${error.message} ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`;
}

/**
 * Runs `work` over `items`, at most `limit` at once, starting none once `stopping()`; answers the
 * items never started.
 */
async function eachLimited<T>(items: readonly T[], limit: number, stopping: () => boolean, work: (item: T) => Promise<void>): Promise<T[]> {
  let next = 0;
  const runner = async () => {
    while (next < items.length && !stopping()) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
  return items.slice(next);
}
