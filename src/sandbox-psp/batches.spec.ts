import type { SandboxBatchBody, SandboxBatchChargeBody } from '../common/sandbox-wire/sandbox-due-api';
import { batchChargeRefusal, batchToWire, BatchStore, HOOK_REFUSAL, isSameBatch, newBatch, settlesOnThisRead, SIMULATED_REFUSAL } from './batches';

const NOW = Date.parse('2026-03-02T15:00:00.000Z');

const charge = (n: number, overrides: Partial<SandboxBatchChargeBody> = {}): SandboxBatchChargeBody => ({
  txid: `batch${String(n).padStart(26, '0')}`,
  amount: '450.00',
  currency: 'BRL',
  description: `Mensalidade ${n}`,
  externalId: `student-${n}`,
  recipient: { document: '12345678909', name: 'Ana Souza' },
  due: { date: '2026-03-10', daysAfterDue: 30, fine: null, interest: null, discount: null, abatement: null },
  notificationUrl: 'http://127.0.0.1:9/webhooks/sandbox',
  ...overrides,
});

const batchBody = (...charges: SandboxBatchChargeBody[]): SandboxBatchBody => ({ description: 'Março', charges });

describe('sandbox batches', () => {
  it('starts with every charge being made, and settles them on the second read only', () => {
    const batch = newBatch('lote-1', batchBody(charge(1), charge(2)), NOW);
    expect(batchToWire(batch)).toEqual({
      id: 'lote-1',
      description: 'Março',
      createdAt: '2026-03-02T15:00:00.000Z',
      charges: [
        { txid: charge(1).txid, status: 'EM_PROCESSAMENTO', problem: null },
        { txid: charge(2).txid, status: 'EM_PROCESSAMENTO', problem: null },
      ],
    });
    expect(settlesOnThisRead(batch)).toBe(false);
    expect(settlesOnThisRead(batch)).toBe(true);
    for (const item of batch.items) item.status = 'CRIADA';
    expect(settlesOnThisRead(batch)).toBe(false);
  });

  it('is held for the reads a test asks: none settles it on the first, three on the fourth', () => {
    const atOnce = newBatch('lote-0', batchBody(charge(1)), NOW, 0);
    expect(settlesOnThisRead(atOnce)).toBe(true);
    const held = newBatch('lote-3', batchBody(charge(1)), NOW, 3);
    expect([settlesOnThisRead(held), settlesOnThisRead(held), settlesOnThisRead(held), settlesOnThisRead(held)]).toEqual([false, false, false, true]);
  });

  it('is the same batch for the same charges (txid and amount) in the same order only', () => {
    const batch = newBatch('lote-1', batchBody(charge(1), charge(2)), NOW);
    expect(isSameBatch(batch, batchBody(charge(1), charge(2)))).toBe(true);
    expect(isSameBatch(batch, batchBody(charge(2), charge(1)))).toBe(false);
    expect(isSameBatch(batch, batchBody(charge(1), charge(2, { amount: '450.01' })))).toBe(false);
    expect(isSameBatch(batch, batchBody(charge(1)))).toBe(false);
  });

  it('refuses a charge whose description carries sandbox:fail (any case), or whose txid names a charge already', () => {
    expect(batchChargeRefusal(charge(1), false)).toBeNull();
    expect(batchChargeRefusal(charge(1, { description: 'Aluno 7 SANDBOX:FAIL' }), false)).toEqual(SIMULATED_REFUSAL);
    expect(batchChargeRefusal(charge(1, { description: null }), true)).toEqual({ code: 'TXID_CONFLICT', message: `txid ${charge(1).txid} already names a charge.` });
  });

  it('refuses a charge the test running the sandbox names, whatever its description', () => {
    expect(batchChargeRefusal(charge(1), false, true)).toEqual(HOOK_REFUSAL);
    expect(batchChargeRefusal(charge(1), false, false)).toBeNull();
  });

  it('forgets the oldest batches once the charges they hold pass the cap, never the one just added', () => {
    const store = new BatchStore(3);
    store.add(newBatch('a', batchBody(charge(1), charge(2)), NOW));
    store.add(newBatch('b', batchBody(charge(3)), NOW));
    expect(store.get('a')).toBeDefined();
    store.add(newBatch('c', batchBody(charge(4)), NOW));
    expect(store.get('a')).toBeUndefined();
    expect(store.get('b')).toBeDefined();
    store.add(newBatch('d', batchBody(charge(5), charge(6), charge(7), charge(8)), NOW));
    expect([store.get('b'), store.get('c')]).toEqual([undefined, undefined]);
    expect(store.get('d')).toBeDefined();
  });
});
