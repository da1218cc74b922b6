import { Clock } from '../domain/clock';

/** A clock a test moves by hand: `advance()` instead of waiting for time to pass. */
export class FakeClock extends Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-15T12:00:00.000Z') {
    super();
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): Date {
    this.current += ms;
    return this.now();
  }

  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }
}
