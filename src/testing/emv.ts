/**
 * An independent reader of EMV MPM (BR Code) payloads for tests, so generated codes are not checked
 * by the library that made them.
 */

/** CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR), as BR Code field 63 uses. */
export function crc16Ccitt(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** Top-level TLV fields (id → value); throws if a length runs past the end. */
export function emvFields(payload: string): Map<string, string> {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < payload.length) {
    const id = payload.slice(at, at + 2);
    const length = Number(payload.slice(at + 2, at + 4));
    if (!/^\d{2}$/.test(id) || !Number.isInteger(length) || at + 4 + length > payload.length) throw new Error(`bad TLV at ${at}`);
    fields.set(id, payload.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

/** True when field 63 is last and holds the CRC of everything before its value. */
export function hasValidCrc(payload: string): boolean {
  const fields = emvFields(payload);
  const crc = fields.get('63');
  return crc !== undefined && payload.endsWith(`6304${crc}`) && crc16Ccitt(payload.slice(0, -4)) === crc;
}
