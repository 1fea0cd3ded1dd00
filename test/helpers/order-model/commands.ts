import { deepStrictEqual, ok } from 'node:assert/strict';
import fc from 'fast-check';
import { type Expected, OrderModel, type OrderSetup, PARTIAL_REFUNDS, type ProcessorAnswer } from './model';
import type { OrderSystem, SystemOrder } from './system';

/**
 * The model test's commands (fast-check's model-based testing): each runs on the model and on
 * the system and checks that they agree on the answer, the order's status and amounts, the
 * `order.*` events written, and the processor calls made (one key per charge, one charge per key).
 */

export type Model = OrderModel;
export interface Real {
  system: OrderSystem;
  order: SystemOrder;
}
type OrderCommand = fc.AsyncCommand<Model, Real>;

const MINUTE = 60_000;
/** The idempotencyKey (a GUID) each partial refund of the model is sent under. */
const PARTIAL_REFUND_KEYS: Record<string, string> = {
  p1: '7d3b2a10-0000-4000-8000-000000000001',
  p2: '7d3b2a10-0000-4000-8000-000000000002',
  p3: '7d3b2a10-0000-4000-8000-000000000003',
};
/** A wait never ends this close to one of the order's timers: real time passes between calls. */
const MARGIN_MS = MINUTE;

/** The answer, then everything the system shows of the order, against the model. */
export async function agree(step: string, model: Model, real: Real, expected: Expected, actual: Expected) {
  deepStrictEqual(actual, expected, `${step}: the answer`);
  const seen = await real.order.observe();
  deepStrictEqual(
    seen,
    { status: model.status, captured: model.captured, refunded: model.refunded, events: model.events },
    `${step}: the order (status, amounts, events)`,
  );
  const p = real.system.processor;
  const calls = (keys: string[]) => keys.map((k) => p.callsPerKey.get(k) ?? 0);
  const chargeCalls = calls(p.chargeKeys);
  // One key per charge attempt (1, 2, ...), and each key sent once, or twice when its answer was lost.
  deepStrictEqual(
    [...p.chargeAttempts.values()].sort((a, b) => a - b),
    Array.from({ length: model.charges }, (_, i) => i + 1),
    `${step}: charge attempts (one processor key each)`,
  );
  deepStrictEqual(
    chargeCalls.filter((n) => n === 2).length,
    model.resentCharges,
    `${step}: keys sent again after a lost answer`,
  );
  ok(
    chargeCalls.every((n) => n <= 2),
    `${step}: a charge key sent more often than its lost answer explains`,
  );
  deepStrictEqual(
    { captures: p.captures.length, voids: p.voids.length, reversals: p.reversals.length },
    { captures: model.captures, voids: model.voids, reversals: 0 },
    `${step}: captures, voids and reversals`,
  );
  deepStrictEqual(
    [...p.refunds.values()].sort((a, b) => a - b),
    [...model.refunds.values()].sort((a, b) => a - b),
    `${step}: processor refunds (one per refund)`,
  );
}

/** MODEL_TEST_TRACE=1: every sequence and step on stderr (jest holds console output until a test ends). */
const trace = (s: string) => process.env.MODEL_TEST_TRACE && process.stderr.write(`${new Date().toISOString()} ${s}\n`);

/** Runs a command on both sides at the test server's current time (the model's timers due by then fire first). */
async function step(
  name: string,
  model: Model,
  real: Real,
  onModel: (now: number) => Expected,
  onSystem: () => Promise<Expected>,
) {
  trace(name);
  const now = await real.system.now();
  model.advance(now);
  const actual = await onSystem();
  await agree(name, model, real, onModel(now), actual);
}

class FurtherEvaluate implements OrderCommand {
  check = () => true;
  run = (m: Model, r: Real) =>
    step(
      this.toString(),
      m,
      r,
      (now) => m.furtherEvaluate(now),
      () => r.order.furtherEvaluate(),
    );
  toString = () => 'furtherEvaluate';
}

class Capture implements OrderCommand {
  constructor(readonly amount: number | null) {}
  check = () => true;
  run = (m: Model, r: Real) =>
    step(
      this.toString(),
      m,
      r,
      (now) => m.capture(now, this.amount),
      () => r.order.capture(this.amount),
    );
  toString = () => `capture(${this.amount ?? 'all'})`;
}

class Cancel implements OrderCommand {
  constructor(readonly via: 'cancel' | 'external-cancel') {}
  check = () => true;
  run = (m: Model, r: Real) =>
    step(
      this.toString(),
      m,
      r,
      () => m.cancel(),
      () => r.order.cancel(this.via),
    );
  toString = () => this.via;
}

class Refund implements OrderCommand {
  /** `key` null: the full refund; else a partial one under that idempotencyKey. */
  constructor(readonly key: string | null) {}
  check = () => true;
  run = (m: Model, r: Real) =>
    step(
      this.toString(),
      m,
      r,
      () => m.refund(this.key),
      () =>
        this.key === null
          ? r.order.refund(null, null)
          : r.order.refund(PARTIAL_REFUND_KEYS[this.key] as string, PARTIAL_REFUNDS[this.key] as number),
    );
  toString = () => (this.key === null ? 'refund(full)' : `refund(partial ${this.key})`);
}

/** The processor will answer the next new charge so (async MIT: its next retry). */
class ProcessorWillAnswer implements OrderCommand {
  constructor(readonly answer: ProcessorAnswer) {}
  check = (m: Readonly<Model>) => m.setup.flow === 'ASYNC_MIT';
  run = async (m: Model, r: Real) => {
    m.nextAnswer = this.answer;
    r.system.processor.next = this.answer;
  };
  toString = () => `processorWillAnswer(${this.answer})`;
}

/**
 * Time passes on the test server: to a margin past the order's next timer, to a margin before it,
 * or a couple of minutes (never ending within the margin of a timer: real time passes meanwhile).
 */
class Wait implements OrderCommand {
  constructor(readonly until: 'past-next-timer' | 'before-next-timer' | 'two-minutes') {}
  check = () => true;
  run = async (m: Model, r: Real) => {
    const now = await r.system.now();
    m.advance(now);
    const next = m.deadlines()[0]?.at;
    let target = now + 2 * MINUTE;
    if (next !== undefined && this.until === 'past-next-timer') target = next + MARGIN_MS;
    if (next !== undefined && this.until === 'before-next-timer') target = Math.max(now, next - MARGIN_MS);
    for (let near = nearTimer(m, target); near; near = nearTimer(m, target)) target = near + MARGIN_MS;
    trace(`${this} ${target - now} ms`);
    if (target > now) await r.system.env.sleep(target - now);
    m.advance(target);
    await agree(this.toString(), m, r, { ok: true }, { ok: true });
  };
  toString = () => `wait(${this.until})`;
}

/** A timer of the order within the margin of `at`, if any. */
function nearTimer(m: Model, at: number): number | undefined {
  return m.deadlines().find((d) => Math.abs(d.at - at) < MARGIN_MS)?.at;
}

const ALL_ANSWERS: ProcessorAnswer[] = [
  'approved',
  'approved_after_timeout',
  'soft_decline',
  'hard_decline',
  'challenge_required',
  'unavailable',
];
/** The processor asks for a cardholder challenge only on customer-initiated charges. */
const MIT_ANSWERS = ALL_ANSWERS.filter((a) => a !== 'challenge_required');
/** A processor answer, approvals weighted up so that sequences reach capture and refunds often. */
const answerFrom = (answers: ProcessorAnswer[]) =>
  fc.oneof({ arbitrary: fc.constant('approved' as const), weight: answers.length }, fc.constantFrom(...answers));

/** An order's flow, scoring and the processor's answer to its first charge. */
export const orderSetup: fc.Arbitrary<OrderSetup> = fc
  .constantFrom(
    { flow: 'CIT', transactionType: 'SALE' } as const,
    { flow: 'CIT', transactionType: 'AUTHORIZATION' } as const,
    // Sync MIT authorizes whatever the transactionType says (interface, Evaluate request fields).
    { flow: 'SYNC_MIT', transactionType: 'SALE' } as const,
    { flow: 'ASYNC_MIT', transactionType: 'SALE' } as const,
    { flow: 'ASYNC_MIT', transactionType: 'AUTHORIZATION' } as const,
  )
  .chain((f) =>
    fc.record({
      flow: fc.constant(f.flow),
      transactionType: fc.constant(f.transactionType),
      scoring: fc.oneof({ arbitrary: fc.constant('approve' as const), weight: 6 }, fc.constant('decline' as const)),
      firstAnswer: answerFrom(f.flow === 'CIT' ? ALL_ANSWERS : MIT_ANSWERS),
    }),
  );

export const orderCommands = [
  fc.constant(new FurtherEvaluate()),
  fc.constantFrom(null, 1000, 2500).map((a) => new Capture(a)),
  fc.constantFrom('cancel', 'external-cancel' as const).map((v) => new Cancel(v)),
  fc.constantFrom(null, ...Object.keys(PARTIAL_REFUNDS)).map((k) => new Refund(k)),
  answerFrom(MIT_ANSWERS).map((a) => new ProcessorWillAnswer(a)),
  fc.constantFrom('past-next-timer', 'before-next-timer', 'two-minutes' as const).map((u) => new Wait(u)),
];

/** One sequence: a new order, its first evaluate, then the commands, each checked against the model. */
export function orderModelProperty(system: OrderSystem, maxCommands = 8) {
  return fc.asyncProperty(orderSetup, fc.commands(orderCommands, { maxCommands }), async (setup, commands) => {
    trace(`sequence ${JSON.stringify(setup)}`);
    const model = new OrderModel(setup);
    const order = system.newOrder(setup);
    try {
      const now = await system.now();
      const { answer, windowEnd } = await order.evaluate(now);
      await agree('evaluate', model, { system, order }, model.evaluate(now, windowEnd), answer);
      await fc.asyncModelRun(() => ({ model, real: { system, order } }), commands);
      trace(`end ${model.status} ${model.events.join(',')}`);
    } finally {
      await order.close();
    }
  });
}
