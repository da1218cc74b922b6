import { Injectable } from '@nestjs/common';
import { GatewayMetrics } from '../../metrics/gateway-metrics';
import { AccountBreakers, type CircuitStateName } from '../../providers/routing/account-breakers';

const GAUGE: Record<CircuitStateName, number> = { closed: 0, half_open: 1, open: 2 };

/** Keeps the circuit-state gauge in step with this process's breakers (the provider layer cannot see metrics). */
@Injectable()
export class CircuitMetrics {
  constructor(breakers: AccountBreakers, metrics: GatewayMetrics) {
    breakers.onStateChange((account, state) => metrics.routingCircuitState.set({ account }, GAUGE[state]));
  }
}
