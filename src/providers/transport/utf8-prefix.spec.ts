import { utf8Prefix } from './http-transport';

describe('utf8Prefix', () => {
  const bytes = (text: string) => Buffer.from(text, 'utf8');

  it('keeps a buffer that fits whole', () => {
    expect(utf8Prefix(bytes('{"ok":true}'), 1024)).toBe('{"ok":true}');
    expect(utf8Prefix(bytes('ção'), 5)).toBe('ção');
  });

  it('cuts before a character that would not fit whole: two, three and four bytes long', () => {
    expect(utf8Prefix(bytes('aç'), 2)).toBe('a');
    expect(utf8Prefix(bytes('a€b'), 3)).toBe('a');
    expect(utf8Prefix(bytes('a€b'), 4)).toBe('a€');
    expect(utf8Prefix(bytes('a😀'), 4)).toBe('a');
    expect(utf8Prefix(bytes('a😀b'), 5)).toBe('a😀');
  });

  it('never answers more than the bytes allowed', () => {
    const text = 'x'.repeat(3) + '😀€ç'.repeat(400);
    for (const max of [1, 2, 3, 4, 5, 1023, 1024]) expect(Buffer.byteLength(utf8Prefix(bytes(text), max), 'utf8')).toBeLessThanOrEqual(max);
  });
});
