import { crc32, deflateSync } from 'node:zlib';
import QRCode, { type QRCode as QrSymbol, type QRCodeMaskPattern } from 'qrcode';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const EMPTY = Buffer.alloc(0);
/** Pixels per QR module, and the quiet zone in modules (the standard asks for 4). */
const SCALE = 4;
const QUIET_ZONE = 4;
/**
 * The mask, fixed rather than chosen per code. qrcode's automatic choice applies and scores all
 * eight masks (the standard's penalty rules): that was ~0.8 ms of the ~1.05 ms a code's PNG took,
 * where one mask costs ~0.07 ms, so a code now takes ~0.27 ms (means over 3000 varied BR Codes of
 * 124 to 197 characters, measured 2026-11-26 on a busy 2-core machine). Any mask decodes; the
 * penalty only steers away from patterns that may trouble a reader. Mask 2 (every third column) is
 * the one automatic choice picked for 82% of those codes, and its penalty is on average 1% above the
 * best mask's (27% at worst; the other masks are 14% to 43% above on average).
 * qr-png.decode.spec.ts reads thousands of codes drawn with it back with jsQR.
 */
export const QR_MASK_PATTERN: QRCodeMaskPattern = 2;

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

/** The symbol `renderQrPngDataUrl` draws: exported for its tests, which check the mask. */
export function qrSymbol(text: string): QrSymbol {
  // One byte-mode segment: qrcode's search for the smallest mix of modes (a shortest-path over
  // every split of the text) cost about half of the symbol's time for a BR Code, to save one
  // version (53 to 57 modules a side), which phones read just as well.
  return QRCode.create([{ data: Buffer.from(text, 'utf8'), mode: 'byte' }], { errorCorrectionLevel: 'M', maskPattern: QR_MASK_PATTERN });
}

/**
 * The QR code of `text` as a PNG data URL. `qrcode` builds the symbol (encoding, error correction,
 * the fixed mask above); the PNG is written here as a 1-bit greyscale image because `qrcode`'s own
 * PNG renderer (through pngjs, RGBA) took ~10 ms per code against ~0.2 ms for this, and a QR is
 * rendered on every payment creation.
 */
export function renderQrPngDataUrl(text: string): string {
  return qrModulesToPngDataUrl(qrSymbol(text).modules);
}

/** A symbol's modules (from `QRCode.create`) as a 1-bit greyscale PNG data URL, with the quiet zone. */
export function qrModulesToPngDataUrl(modules: QrSymbol['modules']): string {
  const side = (modules.size + 2 * QUIET_ZONE) * SCALE;
  const stride = Math.ceil(side / 8) + 1; // filter byte + packed bits
  if (scratch.length < stride * (side + 1)) scratch = Buffer.alloc(stride * (side + 1));
  const raw = scratch.subarray(0, stride * side);
  // Each module row becomes one pixel row, written once and copied SCALE times (every byte of raw).
  const row = scratch.subarray(stride * side, stride * (side + 1));
  for (let my = -QUIET_ZONE; my < modules.size + QUIET_ZONE; my++) {
    row.fill(0);
    for (let mx = -QUIET_ZONE; mx < modules.size + QUIET_ZONE; mx++) {
      const dark = my >= 0 && mx >= 0 && mx < modules.size && my < modules.size && modules.get(my, mx) === 1;
      if (dark) continue;
      // 1 = white in 1-bit greyscale; the module's SCALE pixels.
      for (let x = (mx + QUIET_ZONE) * SCALE, end = x + SCALE; x < end; x++) row[1 + (x >> 3)]! |= 0x80 >> (x & 7);
    }
    for (let copy = 0; copy < SCALE; copy++) row.copy(raw, ((my + QUIET_ZONE) * SCALE + copy) * stride);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const png = Buffer.concat([PNG_SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, DEFLATE_OPTIONS)), chunk('IEND', EMPTY)]);
  return `data:image/png;base64,${png.toString('base64')}`;
}
