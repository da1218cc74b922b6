import { BB } from './banks/bb';
import { EFI } from './banks/efi';
import { INTER } from './banks/inter';
import { ITAU } from './banks/itau';
import { SANTANDER } from './banks/santander';
import { SICOOB } from './banks/sicoob';
import { SICREDI } from './banks/sicredi';
import { PIX_API } from './pix-api.profile';
import { PixApiAdapter, type PixApiAdapterOptions } from './pix-api.adapter';
import type { PixApiProfile } from './profile';

/** The standard and the seven bank profiles on top of it. */
export const PIX_API_PROFILES: readonly PixApiProfile[] = [PIX_API, EFI, SICOOB, BB, ITAU, INTER, SANTANDER, SICREDI];

/** One adapter per profile, sharing `options` (the gateway's clock and timeouts). Each owns its agents: close() them on shutdown. */
export function createPixApiAdapters(options: PixApiAdapterOptions = {}): PixApiAdapter[] {
  return PIX_API_PROFILES.map((profile) => new PixApiAdapter(profile, options));
}

/** pix-api and the seven banks, with the system clock and default timeouts. */
export const PIX_API_ADAPTERS: readonly PixApiAdapter[] = createPixApiAdapters();
