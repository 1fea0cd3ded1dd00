import type { Clock } from '../../src/domain/clock';

/** Real time plus an offset the test moves by hand (token expiry, rotation grace). */
export class ManualClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
