import { inspect } from 'node:util';

export interface EventuallyOptions {
  /** What is awaited, for the failure message: "order X to be Cancelled". A function is read at timeout. */
  describe: string | (() => string);
  /** How long to keep asking; 15 s unless told. */
  timeoutMs?: number;
  /** Pause between two probes; 100 ms unless told. */
  intervalMs?: number;
}

/** Thrown when the condition did not hold in time: says what was awaited and what was last seen. */
export class EventuallyTimeout extends Error {
  constructor(
    readonly description: string,
    readonly lastValue: unknown,
    readonly timeoutMs: number,
    readonly probes: number,
  ) {
    super(
      `timed out after ${timeoutMs} ms (${probes} probes) waiting for ${description}; last value seen: ${inspect(
        lastValue,
        { depth: 4, maxArrayLength: 20, maxStringLength: 2_000, breakLength: 120 },
      )}`,
    );
    this.name = 'EventuallyTimeout';
  }
}

/**
 * The one way tests wait: asks `probe` until `ok(value)` holds and returns that value. When the
 * time is up it throws with the description and the last value seen; it never hands back a value
 * that failed `ok`. The probe is always asked at least once, and once more after the deadline, so
 * a slow probe cannot make the last answer stale. An error thrown by `probe` or `ok` ends the wait
 * at once: a probe that expects failures while the system comes up catches them itself.
 */
export async function eventually<T>(
  probe: () => T | Promise<T>,
  ok: (value: T) => boolean,
  options: EventuallyOptions,
): Promise<T> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const intervalMs = options.intervalMs ?? 100;
  const deadline = Date.now() + timeoutMs;
  let probes = 0;
  for (;;) {
    const pastDeadline = Date.now() >= deadline;
    const value = await probe();
    probes += 1;
    if (ok(value)) return value;
    if (pastDeadline) {
      const description = typeof options.describe === 'function' ? options.describe() : options.describe;
      throw new EventuallyTimeout(description, value, timeoutMs, probes);
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, Math.max(0, deadline - Date.now()))));
  }
}
