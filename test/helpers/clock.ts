import type { Clock } from '../../src/domain/clock';

/**
 * Real time plus an offset the test moves by hand (token expiry, rotation grace). Paused, it is
 * the test's time only: it moves by advance() alone, so a test can run "30 s of traffic at 10 a
 * second" on the API's clock in however long the machine takes.
 */
export class ManualClock implements Clock {
  private offsetMs = 0;
  private pausedAtMs: number | undefined;
  now(): Date {
    return new Date((this.pausedAtMs ?? Date.now()) + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
  /** From now on only advance() moves the clock. */
  pause(): void {
    this.pausedAtMs ??= Date.now();
  }
}
