import { within } from './timeout';

describe('within', () => {
  it('resolves with the promise when it settles first', async () => {
    await expect(within(Promise.resolve('done'), 1_000, () => 'late')).resolves.toBe('done');
  });

  it('passes the promise’s rejection through when it settles first', async () => {
    await expect(within(Promise.reject(new Error('refused')), 1_000, () => 'late')).rejects.toThrow('refused');
  });

  it('resolves with the fallback, or rejects with what it throws, when the promise is too slow', async () => {
    const never = new Promise<string>(() => {
      // never settles
    });
    await expect(within(never, 5, () => 'late')).resolves.toBe('late');
    await expect(
      within(never, 5, () => {
        throw new Error('timed out');
      }),
    ).rejects.toThrow('timed out');
  });
});
