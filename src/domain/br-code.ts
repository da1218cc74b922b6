/**
 * The BR Code's checksum: CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF) over everything before it,
 * field 63's value as four upper-case hex digits. The sandbox writes it; the Pix API adapter checks it.
 */
export function brCodeCrc(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}
