import type { Clock } from '../../src/domain/clock';

/** A clock the test moves by hand (token expiry, rotation grace). Starts at the real time. */
export class ManualClock implements Clock {
  private current = Date.now();
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
}
