import type { AppConfig } from '../../config/app-config';
import { UpstreamError } from '../provider-adapter';
import { AccountBreakers, CircuitOpenError } from './account-breakers';

const config = (halfOpenMs: number) => ({ routingBreakerFailures: 3, routingBreakerHalfOpenMs: halfOpenMs }) as AppConfig;
const unavailable = () => Promise.reject(new UpstreamError({ kind: 'http', upstreamStatus: 503, message: 'HTTP 503' }));
const invalid = () => Promise.reject(new UpstreamError({ kind: 'http', upstreamStatus: 400, message: 'HTTP 400' }));
const ok = () => Promise.resolve('ok');

describe('AccountBreakers', () => {
  it('opens an account’s circuit after the configured consecutive failures, and refuses calls without making them', async () => {
    const breakers = new AccountBreakers(config(60_000));
    const changes: string[] = [];
    breakers.onStateChange((account, state) => changes.push(`${account}:${state}`));
    for (let i = 0; i < 3; i++) await expect(breakers.run('pa_a', unavailable)).rejects.toBeInstanceOf(UpstreamError);
    expect(breakers.health('pa_a')).toEqual({ circuit: 'open', consecutiveFailures: 3 });
    const call = jest.fn(ok);
    await expect(breakers.run('pa_a', call)).rejects.toBeInstanceOf(CircuitOpenError);
    expect(call).not.toHaveBeenCalled();
    expect(changes).toEqual(['pa_a:open']);
    // Another account is untouched.
    await expect(breakers.run('pa_b', ok)).resolves.toBe('ok');
    expect(breakers.health('pa_b')).toEqual({ circuit: 'closed', consecutiveFailures: 0 });
  });

  it('does not count a refusal about the payment itself, and a success resets the count', async () => {
    const breakers = new AccountBreakers(config(60_000));
    await expect(breakers.run('pa_a', unavailable)).rejects.toThrow();
    await expect(breakers.run('pa_a', unavailable)).rejects.toThrow();
    for (let i = 0; i < 5; i++) await expect(breakers.run('pa_a', invalid)).rejects.toThrow();
    expect(breakers.health('pa_a').circuit).toBe('closed');
    await breakers.run('pa_a', ok);
    expect(breakers.health('pa_a')).toEqual({ circuit: 'closed', consecutiveFailures: 0 });
  });

  it('lets one call try again after the half-open delay, and closes on its success', async () => {
    const breakers = new AccountBreakers(config(20));
    for (let i = 0; i < 3; i++) await expect(breakers.run('pa_a', unavailable)).rejects.toThrow();
    expect(breakers.health('pa_a').circuit).toBe('open');
    // cockatiel reads Date.now(): the delay is real, and short here.
    const deadline = Date.now() + 2000;
    let result: unknown;
    while (Date.now() < deadline) {
      result = await breakers.run('pa_a', ok).catch((error: unknown) => error);
      if (result === 'ok') break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(result).toBe('ok');
    expect(breakers.health('pa_a').circuit).toBe('closed');
  });

  it('guards only the adapter calls that reach the PSP for a payment', async () => {
    const breakers = new AccountBreakers(config(60_000));
    const adapter = { name: 'pix-api', getCharge: jest.fn(unavailable), check: jest.fn(ok) };
    const guarded = breakers.guard('pa_a', adapter as never) as unknown as typeof adapter;
    for (let i = 0; i < 3; i++) await expect(guarded.getCharge()).rejects.toThrow();
    await expect(guarded.getCharge()).rejects.toBeInstanceOf(CircuitOpenError);
    expect(adapter.getCharge).toHaveBeenCalledTimes(3);
    await expect(guarded.check()).resolves.toBe('ok');
    expect(guarded.name).toBe('pix-api');
  });
});
