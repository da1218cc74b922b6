import { randomBytes } from 'node:crypto';
import type { DueTerms } from '../../src/domain/due-charge';
import { addDays, brasiliaDate } from '../../src/domain/recurrence';
import type { PixApiCredentials } from '../../src/providers/pix-api/credentials';
import { PixApiAdapter } from '../../src/providers/pix-api/pix-api.adapter';
import { PIX_API } from '../../src/providers/pix-api/profile';
import { pixLoteId } from '../../src/providers/pix-api/txid';
import { type Account, type CreateChargeRequest, type InboundCallback, UpstreamError } from '../../src/providers/provider-adapter';
import { HttpTransport } from '../../src/providers/transport/http-transport';
import { testPki } from '../../src/testing/certificates';
import { type PixApiPsp, type PixApiPspOptions, startPixApiPsp } from '../fakes/pix-api-psp';
import { chargeRequest } from '../helpers/factories';
import { WebhookReceiver } from '../providers/webhook-receiver';

/*
 * The Pix API adapter's due-date charges and batches against the fake PSP, beyond the scenarios
 * every adapter runs (test/providers/adapter-scenarios.ts): what goes on the wire for each of the
 * standard's modalities (the fake checks every request against the document), how a change removes
 * a term, which reads a callback costs, and the PSP's own refusals.
 */

const pki = testPki();
const PIX_KEY = 'recebedor@example.com';

interface Setup {
  psp: PixApiPsp;
  adapter: PixApiAdapter;
  account: Account<PixApiCredentials>;
  receiver: WebhookReceiver;
  close(): Promise<void>;
}

async function start(options: PixApiPspOptions = {}): Promise<Setup> {
  const psp = await startPixApiPsp(options);
  const receiver = await new WebhookReceiver().start();
  const transport = new HttpTransport();
  const adapter = new PixApiAdapter(transport, PIX_API, { timeoutMs: 8_000 });
  const settings = { environment: 'sandbox' as const, baseUrl: psp.url, tokenUrl: psp.tokenUrl, pixKey: PIX_KEY };
  const credentials = adapter.parseCredentials(
    { client_id: psp.clientId, client_secret: psp.clientSecret, certificate_pem: pki.client.cert, private_key_pem: pki.client.key, ca_pem: pki.ca.cert },
    settings,
  );
  const account: Account<PixApiCredentials> = { id: `pa_due_${randomBytes(4).toString('hex')}`, provider: 'pix-api', ...settings, credentials };
  await adapter.registerWebhook(account, receiver.url);
  return {
    psp,
    adapter,
    account,
    receiver,
    async close() {
      adapter.close();
      transport.close();
      await receiver.close();
      await psp.close();
    },
  };
}

const dueIn = (days: number) => addDays(brasiliaDate(new Date()), days);
const terms = (overrides: Partial<DueTerms> = {}): DueTerms => ({ date: dueIn(10), daysAfterDue: 30, fine: null, interest: null, discount: null, abatement: null, ...overrides });
const lookup = (txid: string) => ({ txid, providerPaymentId: txid, due: true });

describe('the pix-api adapter’s due-date charges, on the wire', () => {
  let setup: Setup;
  const request = (overrides: Partial<CreateChargeRequest> = {}) => chargeRequest(setup.receiver.url, { amountCents: 100_000, due: terms(), ...overrides });
  const held = (txid: string) => setup.psp.dueCharges.get(txid);
  const callback = async (): Promise<InboundCallback> => {
    const hook = await setup.receiver.next();
    return { method: 'POST', path: '/pix', query: {}, headers: hook.headers, rawBody: hook.rawBody };
  };

  beforeAll(async () => {
    setup = await start();
  });
  afterEach(() => {
    setup.psp.reset();
    setup.psp.assertNoViolations();
  });
  afterAll(async () => {
    await setup?.close();
  });

  it("sends every term in the standard's modalidades, which the PSP takes as written", async () => {
    const charge = await setup.adapter.createCharge(
      setup.account,
      request({
        payerAddress: { street: 'Rua das Flores, 10', city: 'Recife', state: 'PE', zip: '50030-230' },
        due: terms({
          daysAfterDue: 15,
          fine: { type: 'percent', value: 200 },
          interest: { type: 'percent_per_month', days: 'business', value: 100 },
          discount: {
            type: 'fixed_until',
            until: [
              { date: dueIn(3), value: 5000 },
              { date: dueIn(10), value: 2500 },
            ],
          },
          abatement: { type: 'fixed', value: 1000 },
        }),
      }),
    );
    expect(held(charge.txid)).toMatchObject({
      calendario: { dataDeVencimento: dueIn(10), validadeAposVencimento: 15 },
      devedor: { cpf: '12345678909', nome: 'Ana Souza', logradouro: 'Rua das Flores, 10', cidade: 'Recife', uf: 'PE', cep: '50030230' },
      valor: {
        original: '1000.00',
        multa: { modalidade: 2, valorPerc: '2.00' },
        juros: { modalidade: 7, valorPerc: '1.00' },
        desconto: {
          modalidade: 1,
          descontoDataFixa: [
            { data: dueIn(3), valorPerc: '50.00' },
            { data: dueIn(10), valorPerc: '25.00' },
          ],
        },
        abatimento: { modalidade: 1, valorPerc: '10.00' },
      },
      chave: PIX_KEY,
    });
  });

  it.each([
    [{ interest: { type: 'amount_per_day', days: 'calendar', value: 50 } }, 'juros', 1],
    [{ interest: { type: 'percent_per_year', days: 'calendar', value: 1200 } }, 'juros', 4],
    [{ interest: { type: 'amount_per_day', days: 'business', value: 50 } }, 'juros', 5],
    [{ discount: { type: 'percent_until', until: [{ date: dueIn(2), value: 1000 }] } }, 'desconto', 2],
    [{ discount: { type: 'amount_per_day_early', days: 'calendar', value: 10 } }, 'desconto', 3],
    [{ discount: { type: 'amount_per_day_early', days: 'business', value: 10 } }, 'desconto', 4],
    [{ discount: { type: 'percent_per_day_early', days: 'calendar', value: 5 } }, 'desconto', 5],
    [{ discount: { type: 'percent_per_day_early', days: 'business', value: 5 } }, 'desconto', 6],
    [{ fine: { type: 'fixed', value: 2000 }, abatement: { type: 'percent', value: 500 } }, 'multa', 1],
  ] as [Partial<DueTerms>, string, number][])('%j: %s modalidade %d, valid for the document and taken by the PSP', async (due, member, modalidade) => {
    const charge = await setup.adapter.createCharge(setup.account, request({ due: terms(due) }));
    expect(held(charge.txid).valor[member]).toMatchObject({ modalidade });
  });

  it('changes a charge: the new amount and due date, a term left out removed (null), the same location and BR Code', async () => {
    const charge = await setup.adapter.createCharge(
      setup.account,
      request({ due: terms({ fine: { type: 'fixed', value: 500 }, interest: { type: 'percent_per_day', days: 'calendar', value: 3 } }) }),
    );
    const location = held(charge.txid).location;
    const changed = await setup.adapter.updateCharge!(setup.account, lookup(charge.txid), {
      amountCents: 90_000,
      due: terms({ date: dueIn(15), interest: { type: 'percent_per_day', days: 'calendar', value: 3 } }),
    });
    expect(changed).toMatchObject({ amountCents: 90_000, status: 'pending', copyPaste: charge.copyPaste });
    const after = held(charge.txid);
    expect(after).toMatchObject({ revisao: 1, location, calendario: { dataDeVencimento: dueIn(15) }, valor: { original: '900.00', juros: { modalidade: 2, valorPerc: '0.03' } } });
    expect(after.valor).not.toHaveProperty('multa');
    const patch = setup.psp.requests.filter((logged) => logged.method === 'PATCH').at(-1);
    expect(patch?.body).toMatchObject({ valor: { multa: null, desconto: null, abatimento: null } });
  });

  it("passes on the PSP's own refusal of a charge (a due date already past) with its code, and sends nothing else", async () => {
    const error = await setup.adapter.createCharge(setup.account, request({ due: terms({ date: dueIn(-1) }) })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ kind: 'http', upstreamStatus: 400, providerCode: 'CobVOperacaoInvalida', providerMessage: expect.stringContaining('dataDeVencimento') });
    expect(setup.psp.takeViolations()).toEqual([]);
  });

  it('answers a create of a txid already paid with that charge, paid, when it is the one asked for; another one’s refusal stands', async () => {
    const first = request();
    const charge = await setup.adapter.createCharge(setup.account, first);
    await setup.psp.pay(charge.txid, { postCallback: false });
    await expect(setup.adapter.createCharge(setup.account, first)).resolves.toMatchObject({ txid: charge.txid, status: 'paid' });
    await expect(setup.adapter.createCharge(setup.account, { ...first, amountCents: 1 })).rejects.toMatchObject({ kind: 'http', upstreamStatus: 400 });
  });

  it('reads a callback’s charge from /cob first, then /cobv: a due-date charge costs one read more', async () => {
    const charge = await setup.adapter.createCharge(setup.account, request());
    const { pix } = await setup.psp.pay(charge.txid, { amountCents: 102_000 });
    const since = setup.psp.requests.length;
    await expect(setup.adapter.receiveCallback(setup.account, await callback())).resolves.toEqual([
      expect.objectContaining({ type: 'payment.confirmed', paymentRef: charge.txid, amountCents: 102_000 }),
    ]);
    const reads = setup.psp.requests.slice(since).filter((logged) => !logged.path.endsWith('/oauth/token'));
    expect(reads.map((logged) => `${logged.method} ${logged.path.replace(/^\/v2/, '')}`)).toEqual([
      `GET /pix/${pix.endToEndId}`,
      `GET /cob/${charge.txid}`,
      `GET /cobv/${charge.txid}`,
    ]);
  });

  it('refunds a paid due-date charge asked for by the charge alone, and cancels one paid meanwhile as paid', async () => {
    const charge = await setup.adapter.createCharge(setup.account, request());
    const { pix } = await setup.psp.pay(charge.txid, { amountCents: 95_000, postCallback: false });
    await expect(
      setup.adapter.refund(setup.account, { refundId: `ref_${randomBytes(8).toString('hex')}`, charge: lookup(charge.txid), endToEndId: null, amountCents: 95_000, reason: null }),
    ).resolves.toMatchObject({ endToEndId: pix.endToEndId, amountCents: 95_000, status: 'pending' });
    await expect(setup.adapter.cancelCharge(setup.account, lookup(charge.txid))).resolves.toMatchObject({ status: 'paid' });
  });

  it('batches: each charge sent as the document’s LoteCobVBody at an id of digits; one the PSP’s own checks refuse is NEGADA with its problem', async () => {
    const good = request();
    const late = request({ due: terms({ date: dueIn(-3) }) });
    const id = `bat_${randomBytes(6).toString('hex')}`;
    setup.psp.holdBatches(2);
    await setup.adapter.createChargeBatch!(setup.account, { id, description: 'Mensalidades', charges: [good, late] });
    const lote = setup.psp.batches.get(pixLoteId(id));
    expect(lote).toMatchObject({ descricao: 'Mensalidades', items: [{ txid: good.txid }, { txid: late.txid }] });
    for (let read = 0; read < 2; read++) {
      await expect(setup.adapter.getChargeBatch!(setup.account, id)).resolves.toEqual([good, late].map((charge) => ({ txid: charge.txid, outcome: 'processing', problem: null })));
    }
    await expect(setup.adapter.getChargeBatch!(setup.account, id)).resolves.toEqual([
      { txid: good.txid, outcome: 'created', problem: null },
      { txid: late.txid, outcome: 'refused', problem: expect.stringContaining('dataDeVencimento') },
    ]);
    await expect(setup.adapter.getCharge(setup.account, lookup(good.txid))).resolves.toMatchObject({ status: 'pending', amountCents: 100_000 });
    await expect(setup.adapter.getChargeBatch!(setup.account, 'bat_unknown')).rejects.toMatchObject({ kind: 'http', upstreamStatus: 404, providerCode: 'LoteCobVNaoEncontrado' });
  });

  it('a PSP whose PUT /cobv answer has no pixCopiaECola: the BR Code is read back with GET /cobv/{txid}', async () => {
    const other = await start({ copyPasteOn: 'read' });
    try {
      const charge = await other.adapter.createCharge(other.account, chargeRequest(other.receiver.url, { due: terms() }));
      expect(charge.copyPaste).toBe(other.psp.dueCharges.get(charge.txid).pixCopiaECola);
      expect(other.psp.requests.filter((logged) => logged.path.endsWith(`/cobv/${charge.txid}`)).map((logged) => logged.method)).toEqual(['PUT', 'GET']);
      other.psp.assertNoViolations();
    } finally {
      await other.close();
    }
  });
});
