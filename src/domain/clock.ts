/** Time, injected so tests can move it (API key rotation grace, token expiry) without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
