import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Injectable } from '@nestjs/common';
import { usableBrandColor } from './render/brand';
import type { AssetLinks } from './render/layout';

/** Where the pages' assets are served; each name carries its content's hash, so it is cached for good. */
export const ASSETS_PATH = '/pay/assets';

/** An asset as it is sent: its bytes, and the same gzipped for browsers that take it. */
export interface Asset {
  type: string;
  body: Buffer;
  gzipped: Buffer;
}

/** Most brand-coloured stylesheets kept (one per colour in use); past it they are made again on demand. */
const MAX_BRANDED = 256;

/**
 * The checkout pages' one stylesheet and one script (src/checkout/assets/, copied beside the
 * compiled code by nest-cli.json's `assets`), read once at start. A merchant's colour is the same
 * stylesheet with `--brand` set after it (`?brand=rrggbb`), made only for a colour the pages may
 * use (usableBrandColor), so nothing a URL says reaches the CSS unchecked.
 */
@Injectable()
export class CheckoutAssets {
  private readonly css: string;
  private readonly hash: string;
  private readonly stylesheet: Asset;
  private readonly script: Asset;
  private readonly branded = new Map<string, Asset>();

  constructor() {
    const dir = join(__dirname, 'assets');
    this.css = readFileSync(join(dir, 'checkout.css'), 'utf8');
    const js = readFileSync(join(dir, 'checkout.mjs'));
    this.hash = createHash('sha256').update(this.css).update(js).digest('hex').slice(0, 12);
    this.stylesheet = asset('text/css; charset=utf-8', Buffer.from(this.css));
    this.script = asset('text/javascript; charset=utf-8', js);
  }

  /** Where a page links its stylesheet (in the merchant's colour when it has one the pages may use) and its script. */
  links(brandColor: string | null): AssetLinks {
    return {
      stylesheet: `${ASSETS_PATH}/checkout.${this.hash}.css${brandColor ? `?brand=${brandColor.slice(1)}` : ''}`,
      script: `${ASSETS_PATH}/checkout.${this.hash}.js`,
    };
  }

  /** The asset a file name under ASSETS_PATH names, or undefined for any other name (an old hash included). */
  find(file: string, brand: unknown): Asset | undefined {
    if (file === `checkout.${this.hash}.js`) return this.script;
    if (file !== `checkout.${this.hash}.css`) return undefined;
    const color = typeof brand === 'string' && /^[0-9a-fA-F]{6}$/.test(brand) ? usableBrandColor(`#${brand}`) : null;
    if (!color) return this.stylesheet;
    let branded = this.branded.get(color);
    if (!branded) {
      if (this.branded.size >= MAX_BRANDED) this.branded.clear();
      branded = asset(this.stylesheet.type, Buffer.from(`${this.css}\n:root {\n  --brand: ${color};\n}\n`));
      this.branded.set(color, branded);
    }
    return branded;
  }
}

function asset(type: string, body: Buffer): Asset {
  return { type, body, gzipped: gzipSync(body, { level: 9 }) };
}

let shared: CheckoutAssets | undefined;

/** This process's assets, read once: the pages' module provides them, and the router's own 404s under /pay and /l use them too. */
export function checkoutAssets(): CheckoutAssets {
  return (shared ??= new CheckoutAssets());
}
