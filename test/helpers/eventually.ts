/**
 * Reads until `done` holds, every 50 ms, and returns that value; throws with the last value after
 * `timeoutMs`. What tests wait with instead of a fixed sleep.
 */
export async function eventually<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
