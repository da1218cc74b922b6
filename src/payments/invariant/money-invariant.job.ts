import { Injectable } from '@nestjs/common';
import { type Reconciler, Reconciles } from '../../common/jobs/reconciliation';
import { MoneyInvariantService } from './money-invariant.service';

/**
 * The daily money invariant check, beside reconciliation's runs: every JOB_INTERVAL_MS (0: never)
 * each process asks whether today's run (UTC, from INVARIANT_CHECK_HOUR) is due and unclaimed; the
 * database lets one process claim the day, and that one runs it. A run stopped by a shutdown or
 * abandoned by a crash gives the day back, so another process (or this one, restarted) runs it.
 */
@Injectable()
@Reconciles('MoneyInvariant')
export class MoneyInvariantJob implements Reconciler {
  constructor(private readonly invariant: MoneyInvariantService) {}

  runOnce(): Promise<unknown> {
    return this.invariant.runDaily();
  }

  /** The run is told to stop first: waiting for the tick alone would wait for the whole run. */
  stop(): Promise<void> {
    return this.invariant.stop();
  }
}
