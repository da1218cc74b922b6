import { hasIdShape, newId, randomBase62 } from './ids';

describe('ids', () => {
  it('are prefixed, 24 base62 characters, and never repeat', () => {
    const ids = Array.from({ length: 5000 }, () => newId('pay'));
    expect(ids.every((id) => hasIdShape(id, 'pay'))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draw every base62 character about equally (no modulo bias), across many refills of the byte pool', () => {
    const counts = new Map<string, number>();
    for (const char of randomBase62(620_000)) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 10,000 expected each; a biased tail would put the first 8 characters ~25% above the rest.
    for (const count of counts.values()) expect(Math.abs(count - 10_000)).toBeLessThan(600);
  });
});
