import { Injectable } from '@nestjs/common';
import { BrokenCircuitError, CircuitBreakerPolicy, CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhen } from 'cockatiel';
import { AppConfig } from '../../config/app-config';
import type { ProviderAdapter } from '../provider-adapter';
import { UpstreamError } from '../provider-adapter';
import { countsAgainstAccount } from '../provider-errors';

export type CircuitStateName = 'closed' | 'open' | 'half_open';

/** One account's breaker as this process sees it. */
export interface CircuitHealth {
  circuit: CircuitStateName;
  consecutiveFailures: number;
}

/**
 * A call refused by an open circuit: an UpstreamError (502 wherever it surfaces, as if the PSP could
 * not be reached, which is what the breaker concluded), that routing tells apart as `circuit_open`.
 */
export class CircuitOpenError extends UpstreamError {
  constructor(readonly accountId: string) {
    super({ kind: 'network', message: `The circuit of provider account ${accountId} is open: not calling its PSP.` });
    this.name = 'CircuitOpenError';
  }
}

/** The adapter calls that reach the PSP on a payment's behalf; `check` and webhooks stay outside so an operator's check always asks the PSP. */
const GUARDED = new Set<string | symbol>(['createCharge', 'getCharge', 'cancelCharge', 'refund', 'getRefund']);

/**
 * One circuit breaker per stored provider account (cockatiel's, ConsecutiveBreaker), shared by every
 * call of that account in this process: charges, reads, cancels, refunds. Only failures that say
 * the PSP is failing count (countsAgainstAccount); a 4xx about a payment does not. cockatiel reads
 * Date.now() itself, so the half-open delay is real time (ROUTING_BREAKER_HALF_OPEN_MS).
 */
@Injectable()
export class AccountBreakers {
  private readonly breakers = new Map<string, { policy: CircuitBreakerPolicy; counter: ConsecutiveBreaker }>();
  private readonly listeners: ((accountId: string, state: CircuitStateName) => void)[] = [];

  constructor(private readonly config: AppConfig) {}

  /** Runs `call` through the account's breaker; an open circuit throws CircuitOpenError without calling. */
  async run<T>(accountId: string, call: () => Promise<T>): Promise<T> {
    try {
      return await this.breaker(accountId).policy.execute(call);
    } catch (error) {
      if (error instanceof BrokenCircuitError) throw new CircuitOpenError(accountId);
      throw error;
    }
  }

  /** The adapter with its PSP calls for `accountId` going through that account's breaker. */
  guard<A extends ProviderAdapter>(accountId: string, adapter: A): A {
    return new Proxy(adapter, {
      get: (target, property, receiver) => {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (!GUARDED.has(property) || typeof value !== 'function') return value;
        return (...args: unknown[]) => this.run(accountId, () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      },
    });
  }

  health(accountId: string): CircuitHealth {
    const entry = this.breakers.get(accountId);
    if (!entry) return { circuit: 'closed', consecutiveFailures: 0 };
    return { circuit: stateName(entry.policy.state), consecutiveFailures: entry.counter.state };
  }

  /** Every breaker this process holds, for the circuit-state gauge. */
  all(): { accountId: string; circuit: CircuitStateName }[] {
    return [...this.breakers.entries()].map(([accountId, entry]) => ({ accountId, circuit: stateName(entry.policy.state) }));
  }

  onStateChange(listener: (accountId: string, state: CircuitStateName) => void): void {
    this.listeners.push(listener);
  }

  /** Forgets an account's breaker (the account was deleted). */
  forget(accountId: string): void {
    this.breakers.delete(accountId);
  }

  private breaker(accountId: string): { policy: CircuitBreakerPolicy; counter: ConsecutiveBreaker } {
    let entry = this.breakers.get(accountId);
    if (!entry) {
      const counter = new ConsecutiveBreaker(this.config.routingBreakerFailures);
      const policy = circuitBreaker(handleWhen(countsAgainstAccount), { halfOpenAfter: this.config.routingBreakerHalfOpenMs, breaker: counter });
      policy.onStateChange((state) => {
        for (const listener of this.listeners) listener(accountId, stateName(state));
      });
      entry = { policy, counter };
      this.breakers.set(accountId, entry);
    }
    return entry;
  }
}

function stateName(state: CircuitState): CircuitStateName {
  switch (state) {
    case CircuitState.Closed:
      return 'closed';
    case CircuitState.HalfOpen:
      return 'half_open';
    case CircuitState.Open:
    case CircuitState.Isolated:
      return 'open';
  }
}
