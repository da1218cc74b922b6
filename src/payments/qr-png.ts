import { crc32, deflateSync } from 'node:zlib';
import { correction, generate, mode, type Mask } from 'lean-qr';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const EMPTY = Buffer.alloc(0);
/** Pixels per QR module (4: the raster below writes a module as half a byte), and the quiet zone in modules (the standard asks for 4). */
const SCALE = 4;
const QUIET_ZONE = 4;
/**
 * The mask, fixed rather than chosen per code. Choosing applies and scores all eight masks (the
 * standard's penalty rules): that was ~0.8 ms of the ~1.05 ms a code's PNG took, where one mask
 * costs ~0.07 ms (means over 3000 varied BR Codes of 124 to 197 characters, measured 2026-11-26 on a
 * busy 2-core machine). Any mask decodes; the penalty only steers away from patterns that may
 * trouble a reader. Mask 2 (every third column) is the one automatic choice picked for 82% of those
 * codes, and its penalty is on average 1% above the best mask's (27% at worst; the other masks are
 * 14% to 43% above on average). qr-png.decode.spec.ts reads thousands of codes drawn with it back
 * with jsQR, and checks the mask in their format bits.
 */
export const QR_MASK_PATTERN: Mask = 2;

/** A drawn symbol: its side in modules, and whether the module at column x, row y is dark. */
export interface QrSymbol {
  size: number;
  get(x: number, y: number): boolean;
}

/**
 * The deflated image of a code is 0.5 to 0.8 KB; zlib's default output chunk is 16 KB, which each
 * create allocated and held until the garbage collector came (with a fresh raster, 21 KB of buffers
 * a code; 2.7 KB now: docs/performance.md, What was changed).
 */
const DEFLATE_CHUNK = 1024;

/**
 * zlib's window and state for an image of ~8 KB whose repeats are a few rows (33 bytes each) apart:
 * a 512-byte window and a small hash table compress these codes to 562 bytes on average where the
 * defaults (32 KB window, 256 KB of state set up per call) gave 690, in 47 against 68 µs (1,000 BR
 * Codes, 2026-11-26). PNG decoders read any window up to 32 KB (the zlib header names it).
 */
const DEFLATE_OPTIONS = { chunkSize: DEFLATE_CHUNK, windowBits: 9, memLevel: 4 };

/** The image's rows are written here, one code at a time (rendering is synchronous), instead of into a new buffer per code. */
let scratch = Buffer.alloc(0);

function chunk(type: string, data: Buffer): Buffer {
  // allocUnsafe takes small buffers from Node's shared pool; every byte of both is written below.
  const head = Buffer.allocUnsafe(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.allocUnsafe(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * The symbol `renderQrPngDataUrl` draws. `lean-qr` builds it (encoding, Reed-Solomon, the fixed
 * mask): it allocates ~10 KB a code where `qrcode` allocated ~79 KB, mostly the copies its
 * polynomial division makes, and a create's allocation is what the garbage collector's work follows
 * (docs/performance.md, What was changed: Issue 43). One byte-mode segment at level M: a search for
 * the smallest mix of modes (a shortest path over every split of the text) costs ten times the
 * symbol, to save one version (53 to 57 modules a side), which phones read just as well.
 */
export function qrSymbol(text: string): QrSymbol {
  return generate(mode.bytes(Buffer.from(text, 'utf8')), { minCorrectionLevel: correction.M, maxCorrectionLevel: correction.M, mask: QR_MASK_PATTERN });
}

/**
 * The QR code of `text` as a PNG data URL: the symbol from `qrSymbol`, written here as a 1-bit
 * greyscale image, because a general renderer (an RGBA raster through pngjs) took ~10 ms per code
 * against ~0.2 ms for this, and a QR is rendered on every payment creation.
 */
export function renderQrPngDataUrl(text: string): string {
  return qrSymbolToPngDataUrl(qrSymbol(text));
}

/** A symbol as a 1-bit greyscale PNG data URL, with the quiet zone: SCALE pixels a module, so two modules a byte. */
export function qrSymbolToPngDataUrl(symbol: QrSymbol): string {
  const modules = symbol.size + 2 * QUIET_ZONE;
  const side = modules * SCALE;
  const stride = Math.ceil(side / 8) + 1; // filter byte + packed bits
  if (scratch.length < stride * side) scratch = Buffer.alloc(stride * side);
  const raw = scratch.subarray(0, stride * side);
  for (let my = 0; my < modules; my++) {
    const row = raw.subarray(my * SCALE * stride, (my * SCALE + 1) * stride);
    row.fill(0);
    const y = my - QUIET_ZONE;
    const inside = y >= 0 && y < symbol.size;
    // 1 = white in 1-bit greyscale; a light module is the high or the low nibble of its byte.
    for (let mx = 0; mx < modules; mx++) {
      const x = mx - QUIET_ZONE;
      if (inside && x >= 0 && x < symbol.size && symbol.get(x, y)) continue;
      row[1 + (mx >> 1)]! |= mx & 1 ? 0x0f : 0xf0;
    }
    // The module row's other pixel rows are copies (every byte of raw is written).
    for (let copy = 1; copy < SCALE; copy++) row.copy(raw, (my * SCALE + copy) * stride);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const png = Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, DEFLATE_OPTIONS)), chunk('IEND', EMPTY)]);
  return `data:image/png;base64,${png.toString('base64')}`;
}
