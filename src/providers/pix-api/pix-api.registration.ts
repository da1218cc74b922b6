import type { ProviderContext, ProviderRegistration } from '../provider-registry';
import { BB } from './banks/bb';
import { EFI } from './banks/efi';
import { INTER } from './banks/inter';
import { ITAU } from './banks/itau';
import { SANTANDER } from './banks/santander';
import { SICOOB } from './banks/sicoob';
import { SICREDI } from './banks/sicredi';
import { PixApiAdapter } from './pix-api.adapter';
import { PIX_API, type PixApiProfile } from './profile';

/** The standard and the seven bank profiles on top of it, in the catalogue's order. */
export const PIX_API_PROFILES: readonly PixApiProfile[] = [PIX_API, EFI, SICOOB, BB, ITAU, INTER, SANTANDER, SICREDI];

/**
 * The Pix API as ProvidersModule registers it: one adapter per profile, all on the gateway's
 * transport and clock; no built-in account (a PSP's credentials exist only on provider accounts).
 */
export function pixApiProvider({ config, clock, transport }: ProviderContext): ProviderRegistration {
  return { adapters: PIX_API_PROFILES.map((profile) => new PixApiAdapter(transport, profile, { clock, timeoutMs: config.upstreamTimeoutMs })) };
}
