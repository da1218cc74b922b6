import { testPki } from '../../testing/certificates';
import { NO_TRANSPORT } from '../../testing/no-transport';
import { WebhookParseError } from '../provider-adapter';
import type { InboundCallback, Account } from '../provider-adapter';
import { EFI } from './banks/efi';
import type { PixApiCredentials } from './credentials';
import { PixApiAdapter } from './pix-api.adapter';
import { providerDescriptorView } from '../catalogue/provider-catalogue.view';

const pki = testPki();

describe('PixApiAdapter.receiveCallback, before any read-back', () => {
  const adapter = new PixApiAdapter(NO_TRANSPORT, EFI);
  // Nothing here reaches a PSP: the host is never called.
  const settings = { environment: 'sandbox' as const, baseUrl: 'https://psp.invalid/v2', tokenUrl: 'https://psp.invalid/oauth/token', pixKey: 'recebedor@example.com' };
  const account: Account<PixApiCredentials> = {
    id: 'pa_1',
    provider: 'efi',
    ...settings,
    credentials: adapter.parseCredentials({ client_id: 'c', client_secret: 's', certificate_pem: pki.client.cert, private_key_pem: pki.client.key }, settings),
  };
  const callback = (body: string): InboundCallback => ({ method: 'POST', path: '', query: {}, headers: { 'content-type': 'application/json' }, rawBody: Buffer.from(body) });
  afterAll(() => adapter.close());

  it('answers the test notification Efí posts while registering a URL with no event (Efí refuses a URL that does not answer 200)', async () => {
    await expect(adapter.receiveCallback(account, callback('{"evento":"teste_webhook","data_criacao":"2026-01-15T12:00:00.000Z"}'))).resolves.toEqual([]);
  });

  it('still refuses a body that is neither a Pix notification nor a test one', async () => {
    await expect(adapter.receiveCallback(account, callback('{"hello":"world"}'))).rejects.toBeInstanceOf(WebhookParseError);
    await expect(adapter.receiveCallback(account, callback('{"evento":"teste_webhook","pix":"x"}'))).rejects.toBeInstanceOf(WebhookParseError);
  });
});

describe('PixApiAdapter and Pix Automático', () => {
  const recurring = { leadTime: { minDays: 2, maxDays: 10 }, source: 'https://example.com/pix-automatico' };

  it('offers it exactly when the profile declares it, and the catalogue shows it', () => {
    const offering = new PixApiAdapter(NO_TRANSPORT, { ...EFI, recurring });
    const { recurring: _declared, ...withoutRecurring } = EFI;
    const plain = new PixApiAdapter(NO_TRANSPORT, withoutRecurring);
    expect(offering.recurring).toBeDefined();
    expect(offering.descriptor.capabilities.recurring).toEqual(recurring);
    expect(providerDescriptorView(offering.descriptor, false).capabilities.recurring).toEqual({ lead_time: { min_days: 2, max_days: 10 }, source: recurring.source });
    expect(plain.recurring).toBeUndefined();
    expect(plain.descriptor.capabilities).not.toHaveProperty('recurring');
    expect(providerDescriptorView(plain.descriptor, false).capabilities.recurring).toBeNull();
  });
});

describe('PixApiAdapter and due-date charges', () => {
  const dueCharges = { source: 'https://example.com/cobv' };
  const chargeBatches = { maxCharges: 500, source: 'https://example.com/lotecobv' };
  const { dueCharges: _due, chargeBatches: _batches, ...plainProfile } = EFI;

  it('offers the change of a charge and batches exactly when the profile declares them, and the catalogue shows them', () => {
    const offering = new PixApiAdapter(NO_TRANSPORT, { ...plainProfile, dueCharges, chargeBatches });
    expect([offering.updateCharge, offering.createChargeBatch, offering.getChargeBatch].every((member) => typeof member === 'function')).toBe(true);
    expect(providerDescriptorView(offering.descriptor, false).capabilities).toMatchObject({
      due_charges: { source: dueCharges.source },
      charge_batches: { max_charges: 500, source: chargeBatches.source },
    });
    const dueOnly = new PixApiAdapter(NO_TRANSPORT, { ...plainProfile, dueCharges });
    expect([dueOnly.updateCharge !== undefined, dueOnly.createChargeBatch, dueOnly.getChargeBatch]).toEqual([true, undefined, undefined]);
    expect(providerDescriptorView(dueOnly.descriptor, false).capabilities.charge_batches).toBeNull();
    const plain = new PixApiAdapter(NO_TRANSPORT, plainProfile);
    expect([plain.updateCharge, plain.createChargeBatch, plain.getChargeBatch]).toEqual([undefined, undefined, undefined]);
    expect(providerDescriptorView(plain.descriptor, false).capabilities).toMatchObject({ due_charges: null, charge_batches: null });
  });

  it('refuses a profile that declares batches without due-date charges, and a due-date create to a profile without them', async () => {
    expect(() => new PixApiAdapter(NO_TRANSPORT, { ...plainProfile, chargeBatches })).toThrow(TypeError);
    const plain = new PixApiAdapter(NO_TRANSPORT, plainProfile);
    const request = {
      paymentId: 'pay_1',
      txid: 'abcdefghijklmnopqrstuvwxyz01234',
      amountCents: 100,
      currency: 'BRL' as const,
      description: null,
      externalId: 'x',
      payer: { document: '12345678909', name: 'Ana' },
      expiresInSeconds: 60,
      notificationUrl: 'https://example.com',
      due: { date: '2026-03-10', daysAfterDue: 0, fine: null, interest: null, discount: null, abatement: null },
    };
    await expect(
      plain.createCharge({ id: 'pa_1', provider: 'efi', environment: 'sandbox', baseUrl: null, tokenUrl: null, pixKey: 'k', credentials: {} as never }, request),
    ).rejects.toThrow(TypeError);
  });
});
