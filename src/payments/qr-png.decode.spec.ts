import { Worker } from 'node:worker_threads';
import { createDynamicPix, createStaticPix, hasError } from 'pix-utils';
import { sandboxBrCode } from '../sandbox-psp/br-code';
import { QR_MASK_PATTERN, qrSymbol, renderQrPngDataUrl } from './qr-png';

// The renderer fixes the QR mask instead of scoring all eight per code (qr-png.ts says why).
// Any mask should decode; this proves it for the mask chosen, on a few thousand varied BR Codes
// read back by an independent decoder from the very PNG a payment carries.

const CODES = 2000;

/** A small seeded generator (mulberry32), so a failing code can be made again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const HEX = '0123456789abcdef';
// pix-utils takes the accents off names and cities (its normalizeName), so every code is ASCII.
const NAMES = ['LOJA TESTE', 'PIX GATEWAY SANDBOX', 'MERCADO DO JOAO LTDA', 'PADARIA SAO JOSE', 'Acme Comercio de Roupas', 'FULANO DE TAL', 'JOÃO DA CONCEIÇÃO', 'ELETRO & CIA'];
const CITIES = ['SAO PAULO', 'RIO DE JANEIRO', 'BELO HORIZONTE', 'CURITIBA', 'PORTO ALEGRE', 'RECIFE', 'BRASILIA', 'SÃO LUÍS', 'Florianopolis'];
const LOCATION_HOSTS = ['pix.example.com/qr/v2/', 'qr.banco.com.br/pix/v2/cobv/', 'api-pix.psp.com.br/qr/v3/at/', 'pix.bank.example/v2/'];

function corpus(count: number): string[] {
  const next = random(26);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chars = (alphabet: string, length: number) => Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
  const uuid = () => `${chars(HEX, 8)}-${chars(HEX, 4)}-4${chars(HEX, 3)}-${chars('89ab', 1)}${chars(HEX, 3)}-${chars(HEX, 12)}`;
  const name = () => pick(NAMES);
  const keys = [
    () => chars('0123456789', 11), // CPF
    () => chars('0123456789', 14), // CNPJ
    () => `${chars(ALNUM, 3 + Math.floor(next() * 20)).toLowerCase()}@${pick(['gmail.com', 'example.com.br', 'loja.com'])}`,
    () => `+55${chars('123456789', 2)}9${chars('0123456789', 8)}`, // phone
    uuid, // EVP
  ];
  const kinds = [
    // A static code, as a merchant's own or a PSP's fake writes it.
    () => {
      const pix = createStaticPix({
        merchantName: name(),
        merchantCity: pick(CITIES),
        pixKey: pick(keys)(),
        transactionAmount: Math.round(next() * 10 ** (1 + Math.floor(next() * 6))) / 100 + 0.01,
        txid: next() < 0.3 ? '***' : chars(ALNUM, 1 + Math.floor(next() * 25)),
        ...(next() < 0.3 ? { infoAdicional: `Pedido ${chars('0123456789', 6)}` } : {}),
      });
      if (hasError(pix)) throw new Error(pix.message);
      return pix.toBRCode();
    },
    // A dynamic code: a PSP's charge behind a location URL (the Pix API's).
    () => {
      const pix = createDynamicPix({
        merchantName: name(),
        merchantCity: pick(CITIES),
        url: `${pick(LOCATION_HOSTS)}${next() < 0.5 ? uuid() : chars(ALNUM, 25 + Math.floor(next() * 11))}`,
      });
      if (hasError(pix)) throw new Error(pix.message);
      return pix.toBRCode();
    },
    // The sandbox's code for a charge: a txid of 26 to 35 in field 62-05.
    () => sandboxBrCode(chars(ALNUM, 26 + Math.floor(next() * 10)), 1 + Math.floor(next() * 10_000_000)),
  ];
  const codes = new Set<string>();
  while (codes.size < count) codes.add(kinds[codes.size % kinds.length]!());
  return [...codes];
}

/**
 * The reader, in a worker thread. Jest runs a spec in a `vm` context where every read of a global
 * (`Math`, `Uint8ClampedArray`…) goes through an interceptor (a loop of Math.floor: 130 times
 * slower than in plain Node): pngjs and jsQR took ~250 ms a code there. A worker is a plain Node
 * context, and reads on the other core while the spec renders.
 *
 * The PNG is inflated and unpacked here (pngjs took ~10 ms for one, RGBA at 260 pixels a side),
 * checking its header and that every row has filter 0, as qr-png writes. jsQR reads one pixel per
 * module (2 per module cost it twice as much: its finder search dominates); every 100th code is
 * also read through pngjs and jsQR at the scale drawn. The mask a reader finds is in the format
 * information beside the top-left finder (column 8: rows 0-8 but the timing row's, then the bottom
 * 7), unmasked with the standard's 101010000010010: its bits 12-10.
 */
const READER = `
const { parentPort, workerData } = require('node:worker_threads');
const { inflateSync } = require('node:zlib');
const jsQR = require(workerData.jsqr).default;
const { PNG } = require(workerData.pngjs);

/** Whether each pixel is light, from the PNG's IDAT, after checking the header and each row's filter. */
function pixels(png) {
  if (png.toString('latin1', 12, 16) !== 'IHDR' || png[24] !== 1 || png[25] !== 0) throw new Error('not a 1-bit greyscale PNG');
  const side = png.readUInt32BE(16);
  const idat = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = Math.ceil(side / 8) + 1;
  if (raw.length !== stride * side) throw new Error('IDAT holds ' + raw.length + ' bytes');
  for (let y = 0; y < side; y++) if (raw[y * stride] !== 0) throw new Error('row ' + y + ' has filter ' + raw[y * stride]);
  return { side, light: (x, y) => (raw[y * stride + 1 + (x >> 3)] >> (7 - (x & 7))) & 1 };
}

/** Pixels a module, from the top-left finder: the first dark run of the first dark row is 7 modules. */
function scaleOf(side, light) {
  for (let y = 0; y < side; y++) {
    let x = 0;
    while (x < side && light(x, y)) x++;
    if (x === side) continue;
    let run = 0;
    while (!light(x + run, y)) run++;
    return run / 7;
  }
  throw new Error('no dark pixel');
}

/** jsQR on one pixel per module (the top-left one of each): what it reads, 16 times fewer pixels than drawn. */
function read(side, light, scale) {
  const n = side / scale;
  const rgba = new Uint8ClampedArray(n * n * 4);
  for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) rgba.fill(light(x * scale, y * scale) * 255, (y * n + x) * 4, (y * n + x) * 4 + 4);
  return jsQR(rgba, n, n, { inversionAttempts: 'dontInvert' })?.data;
}

/** The mask in the format information beside the top-left finder (column 8). */
function maskOf(light, scale, size) {
  const dark = (row, col) => !light((col + 4) * scale, (row + 4) * scale);
  let bits = 0;
  for (let i = 0; i < 15; i++) if (dark(i < 6 ? i : i < 8 ? i + 1 : size - 15 + i, 8)) bits |= 1 << i;
  return ((bits ^ 0b101010000010010) >> 10) & 7;
}

parentPort.on('message', ({ index, url }) => {
  if (url === undefined) return parentPort.close();
  const png = Buffer.from(url.slice('data:image/png;base64,'.length), 'base64');
  const { side, light } = pixels(png);
  const scale = scaleOf(side, light);
  const size = side / scale - 8; // modules a side, without the quiet zone of 4
  const answer = { index, text: read(side, light, scale), mask: maskOf(light, scale, size), version: (size - 17) / 4 };
  if (index % 100 === 0) {
    const full = PNG.sync.read(png);
    answer.fullScale = jsQR(new Uint8ClampedArray(full.data), full.width, full.height, { inversionAttempts: 'dontInvert' })?.data;
  }
  parentPort.postMessage(answer);
});
`;

interface Answer {
  index: number;
  text?: string;
  mask: number;
  version: number;
  fullScale?: string;
}

describe('renderQrPngDataUrl with its fixed mask', () => {
  const codes = corpus(CODES);

  it('draws thousands of distinct BR Codes that an independent reader decodes back', async () => {
    expect(new Set(codes).size).toBe(CODES);
    const lengths = codes.map((code) => code.length);
    // The lengths real codes have (static, dynamic, the sandbox's), so several QR versions are covered.
    expect(Math.min(...lengths)).toBeLessThan(140);
    expect(Math.max(...lengths)).toBeGreaterThan(190);

    const reader = new Worker(READER, { eval: true, workerData: { jsqr: require.resolve('jsqr'), pngjs: require.resolve('pngjs') } });
    const answers: Answer[] = [];
    const done = new Promise<void>((resolve, reject) => {
      reader.on('message', (answer: Answer) => answers.push(answer));
      reader.on('error', reject);
      reader.on('exit', () => resolve());
    });
    // Rendering is the spec's share of the time (in Jest's slow context): each code once.
    codes.forEach((code, index) => reader.postMessage({ index, url: renderQrPngDataUrl(code) }));
    reader.postMessage({});
    await done;

    expect(answers).toHaveLength(CODES);
    const failures: string[] = [];
    const versions = new Set<number>();
    for (const { index, text, mask, version, fullScale } of answers) {
      versions.add(version);
      const code = codes[index]!;
      if (text !== code || mask !== QR_MASK_PATTERN) failures.push(`${code}: read ${text}, image mask ${mask}`);
      if (index % 100 === 0 && fullScale !== code) failures.push(`${code}: read ${fullScale} at the full scale`);
    }
    expect(failures).toEqual([]);
    expect(versions.size).toBeGreaterThan(1);
  });

  it('draws one byte-mode segment at level M, in the smallest version that holds it', () => {
    // ISO/IEC 18004 table 7: characters a version holds in byte mode at level M. The image's mask is checked above.
    const capacity: Record<number, number> = { 6: 106, 7: 122, 8: 152, 9: 180, 10: 213, 11: 251 };
    for (const code of codes.filter((_, index) => index % 10 === 0)) {
      const version = Number(Object.keys(capacity).find((v) => capacity[Number(v)]! >= Buffer.byteLength(code)));
      expect({ code, size: qrSymbol(code).size }).toEqual({ code, size: 4 * version + 17 });
    }
  });
});
