import { NO_TRANSPORT } from '../../../testing/no-transport';
import { pixApiCredentials as credentials, requestContext as context } from '../../../testing/pix-api-credentials';
import { PixApiAdapter } from '../pix-api.adapter';
import { PIX_API_PROFILES } from '../pix-api.registration';
import { BB } from './bb';
import { EFI } from './efi';
import { INTER } from './inter';
import { ITAU } from './itau';
import { BCB_LEAD_TIME, BCB_PIX_AUTOMATICO_RULES } from './pix-automatico';
import { SANTANDER } from './santander';
import { SICOOB } from './sicoob';
import { SICREDI } from './sicredi';
import { DEFAULT_MAX_BATCH_CHARGES } from '../profile';

describe('the registry', () => {
  it('lists pix-api and the seven banks, each once, each an adapter of its profile', () => {
    const adapters = PIX_API_PROFILES.map((profile) => new PixApiAdapter(NO_TRANSPORT, profile));
    expect(PIX_API_PROFILES.map((profile) => profile.name)).toEqual(['pix-api', 'efi', 'sicoob', 'bb', 'itau', 'inter', 'santander', 'sicredi']);
    expect(adapters.map((adapter) => adapter.name)).toEqual(PIX_API_PROFILES.map((profile) => profile.name));
    expect(adapters.every((adapter) => adapter.descriptor.capabilities.txid === 'gateway' && adapter.descriptor.capabilities.partialRefund)).toBe(true);
  });

  it.each(PIX_API_PROFILES.map((profile) => [profile.name, profile] as const))('%s: https hosts, and a token URL wherever there is an API host', (_, profile) => {
    for (const environment of ['sandbox', 'production'] as const) {
      const api = profile.apiBase[environment];
      const token = profile.tokenUrl[environment];
      expect(api === null).toBe(token === null);
      for (const url of [api, token]) if (url !== null) expect(new URL(url).protocol).toBe('https:');
    }
    expect(profile.copyPasteFields[0]).toBe('pixCopiaECola');
  });
});

describe('Pix Automático', () => {
  it('is declared by pix-api, Efí and Inter only: the profiles with a page saying so (docs/providers.md, Pix Automático)', () => {
    expect(PIX_API_PROFILES.filter((profile) => profile.recurring !== undefined).map((profile) => profile.name)).toEqual(['pix-api', 'efi', 'inter']);
  });

  it.each(PIX_API_PROFILES.filter((profile) => profile.recurring !== undefined).map((profile) => [profile.name, profile.recurring!] as const))(
    '%s: an https page and a lead time in whole days, min ≤ max',
    (_, recurring) => {
      expect(new URL(recurring.source).protocol).toBe('https:');
      const { minDays, maxDays } = recurring.leadTime;
      expect(Number.isInteger(minDays) && Number.isInteger(maxDays)).toBe(true);
      expect(minDays).toBeGreaterThanOrEqual(0);
      expect(minDays).toBeLessThanOrEqual(maxDays);
    },
  );

  it("the Central Bank's window: sent 2 to 10 calendar days before the due date", () => {
    expect(BCB_LEAD_TIME).toEqual({ minDays: 2, maxDays: 10 });
    for (const profile of [EFI, INTER]) expect(profile.recurring?.leadTime).toEqual(BCB_LEAD_TIME);
    expect(new URL(BCB_PIX_AUTOMATICO_RULES).hostname).toBe('www.bcb.gov.br');
  });
});

describe('due-date charges and their batches', () => {
  it('are declared by pix-api, Efí, Sicoob and Inter only: the profiles with a page saying so (docs/providers.md, Due-date charges)', () => {
    expect(PIX_API_PROFILES.filter((profile) => profile.dueCharges !== undefined).map((profile) => profile.name)).toEqual(['pix-api', 'efi', 'sicoob', 'inter']);
    expect(PIX_API_PROFILES.filter((profile) => profile.chargeBatches !== undefined).map((profile) => profile.name)).toEqual(['pix-api', 'efi', 'sicoob', 'inter']);
  });

  it.each(PIX_API_PROFILES.filter((profile) => profile.chargeBatches !== undefined).map((profile) => [profile.name, profile] as const))(
    '%s: https pages, and batches of a whole number of charges, the most its page states or the default',
    (_, profile) => {
      expect(new URL(profile.dueCharges!.source).protocol).toBe('https:');
      expect(new URL(profile.chargeBatches!.source).protocol).toBe('https:');
      expect(Number.isInteger(profile.chargeBatches!.maxCharges) && profile.chargeBatches!.maxCharges > 0).toBe(true);
      // The descriptor, hence the catalogue, carries both as declared.
      const { capabilities } = new PixApiAdapter(NO_TRANSPORT, profile).descriptor;
      expect([capabilities.dueCharges, capabilities.chargeBatches]).toEqual([profile.dueCharges, profile.chargeBatches]);
    },
  );

  it("Efí's page states at most 1,000 charges a batch; the others none, so the default", () => {
    expect(EFI.chargeBatches?.maxCharges).toBe(1000);
    for (const profile of [SICOOB, INTER]) expect(profile.chargeBatches?.maxCharges).toBe(DEFAULT_MAX_BATCH_CHARGES);
    for (const profile of [BB, ITAU, SANTANDER, SICREDI]) expect(new PixApiAdapter(NO_TRANSPORT, profile).descriptor.capabilities).not.toHaveProperty('dueCharges');
  });
});

describe('bank variations', () => {
  it('Banco do Brasil: the application key as gw-dev-app-key in homologation, gw-app-key in production', () => {
    expect(BB.query!(context(BB, 'sandbox'))).toEqual({ 'gw-dev-app-key': 'app-key-1' });
    expect(BB.query!(context(BB, 'production'))).toEqual({ 'gw-app-key': 'app-key-1' });
    expect(BB.answers.createCharge).toBe(200);
  });

  it('Sicoob: the client_id header on every call, the BR Code as brcode, no secret', () => {
    expect(SICOOB.headers!(context(SICOOB, 'production'))).toEqual({ client_id: 'client-1' });
    expect(SICOOB.copyPasteFields).toEqual(['pixCopiaECola', 'brcode']);
    expect(SICOOB.token.clientAuth).toBe('client-id');
  });

  it('Inter: x-conta-corrente only when given; phone keys without "+" in /webhook/{chave}', () => {
    expect(INTER.headers!(context(INTER, 'production'))).toEqual({ 'x-conta-corrente': '1234567' });
    const without = { ...context(INTER, 'production'), credentials: credentials(INTER, { conta_corrente: undefined }) };
    expect(INTER.headers!(without)).toEqual({});
    expect(INTER.webhookKey!('+5511999999999')).toBe('5511999999999');
    expect(INTER.webhookKey!('recebedor@example.com')).toBe('recebedor@example.com');
  });

  it('Efí: x-skip-mtls-checking on the webhook registration only when the account asks', () => {
    expect(EFI.webhookHeaders!(credentials(EFI))).toEqual({ 'x-skip-mtls-checking': 'true' });
    expect(EFI.webhookHeaders!(credentials(EFI, { skip_mtls_checking: false }))).toEqual({});
  });

  it('Itaú: a new x-correlationID on every call', () => {
    const first = ITAU.headers!(context(ITAU, 'production'))['x-correlationID'];
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(ITAU.headers!(context(ITAU, 'production'))['x-correlationID']).not.toBe(first);
  });

  it('Santander: PATCH /cob/{txid} on /api/v2, the rest on /api/v1', () => {
    const base = SANTANDER.apiBase.production!;
    expect(SANTANDER.routeBase!('cancel charge', base)).toBe('https://trust-pix.santander.com.br/api/v2');
    expect(SANTANDER.routeBase!('create charge', base)).toBe(base);
  });

  it('Sicredi: cob/{txid} on /api/v3, the rest on /api/v2', () => {
    const base = SICREDI.apiBase.sandbox!;
    for (const operation of ['create charge', 'read charge', 'cancel charge'] as const) expect(SICREDI.routeBase!(operation, base)).toBe('https://api-pix-h.sicredi.com.br/api/v3');
    for (const operation of ['read pix', 'refund', 'register webhook', 'list charges'] as const) expect(SICREDI.routeBase!(operation, base)).toBe(base);
  });
});
