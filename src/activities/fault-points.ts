/**
 * Test-only fault injection: a worker process started with FAULT_KILL_AT set SIGKILLs itself at
 * that point of a card charge (sale or authorization) in the charges ledger, so the kill-point
 * tests (test/processors/kill-points-*.test.ts) reach each point deterministically, whether the
 * charge runs as an ordinary or a local activity. Inert unless armed at start-up
 * (`armFaultPoints`, src/worker.ts); refused in production unless FC_TEST_FAULTS=1 says it is a
 * test (docs/architecture.md, "Money invariants").
 */
export const FAULT_POINTS = ['charge.after-intent', 'charge.after-answer', 'charge.after-record'] as const;
export type FaultPoint = (typeof FAULT_POINTS)[number];

let armed: FaultPoint | undefined;

/** The point FAULT_KILL_AT names, if any; throws on an unknown one, or in production without FC_TEST_FAULTS=1. */
export function faultPointOf(env: NodeJS.ProcessEnv): FaultPoint | undefined {
  const point = env.FAULT_KILL_AT;
  if (!point) return undefined;
  if (!(FAULT_POINTS as readonly string[]).includes(point))
    throw new Error(`FAULT_KILL_AT must be one of ${FAULT_POINTS.join(', ')}`);
  if ((env.FC_ENVIRONMENT ?? 'sandbox') !== 'sandbox' && env.FC_TEST_FAULTS !== '1')
    throw new Error('FAULT_KILL_AT is for tests: refused in production without FC_TEST_FAULTS=1');
  return point as FaultPoint;
}

/** Arms this process (the worker, once at start-up) at the point FAULT_KILL_AT names. */
export function armFaultPoints(env: NodeJS.ProcessEnv): FaultPoint | undefined {
  armed = faultPointOf(env);
  return armed;
}

/** Dies here, with no drain and nothing flushed, if this process was armed at this point. */
export function faultPoint(point: FaultPoint): void {
  if (armed === point) process.kill(process.pid, 'SIGKILL');
}
