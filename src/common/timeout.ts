/**
 * `promise`, or what `onTimeout` returns (or throws) when it has not settled within `ms`. The timer
 * is cleared either way, so a settled race never holds the process open.
 */
export function within<T, F>(promise: Promise<T>, ms: number, onTimeout: () => F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<F>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(onTimeout());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
