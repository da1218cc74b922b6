/**
 * The provider a failure's answer names: the error envelope's `provider` (docs/api.md, The
 * envelope). A service knows which provider handles a request, but only the HTTP layer writes the
 * request's state; so a service names the provider on what it throws, and the global filter
 * (exception.filter.ts) reads it. Any thrown object can be named, an AppError or not (a database
 * that went away mid-request answers 503 naming the payment's provider too).
 *
 * The step nearest the failure names it first, and an outer step keeps that name: a payment create
 * names "the first account on the route" around the whole create, and "the account that charged"
 * around what follows the charge. Kept beside the error rather than on it, so logs never show it.
 */
const named = new WeakMap<object, string>();

/** Names `provider` in the answer to `error`, unless a step nearer the failure named one already. */
export function nameProvider<E>(error: E, provider: string | undefined): E {
  if (provider !== undefined && typeof error === 'object' && error !== null && !named.has(error)) named.set(error, provider);
  return error;
}

/** The provider the answer to `error` names, if a service named one. */
export function providerNamedBy(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null ? named.get(error) : undefined;
}

/** Runs `work`; whatever it throws names `provider` in its answer (unless named already). */
export async function namingProvider<T>(provider: string | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw nameProvider(error, provider);
  }
}
