import * as wf from '@temporalio/workflow';
import type { ChargeAttempt } from '../../domain/orders/charge-attempts';
import type {
  DecisionPlan,
  EvaluateInput,
  EvaluateResult,
  OrderState,
  OrderWorkflowInput,
} from '../../domain/orders/contracts';
import type { OrderDomainEvent } from '../../domain/orders/domain-events';
import { FAILURE } from '../../domain/orders/failures';
import { committedState, persistInputOf } from '../../domain/orders/order-commit';
import { declaredMove, type OrderTrigger, UndeclaredMoveError } from '../../domain/orders/transitions';
import { changedSearchAttributes, sameSearchAttributes } from '../search-attributes';
import { store } from './activities';
import { ChargeCalls } from './charge-calls';

/** What the workflow records; the public EventData is built from it outside (persistOrder). */
export type EventToRecord = OrderDomainEvent;

/**
 * The order entity: all of the workflow's state, and the one way to change it (`commit`). The
 * state is adopted only after it is durable in Postgres, so a failed write leaves the order as
 * it was. Commands and the workflow's own timed steps run one at a time (`exclusive`); while one
 * runs, the order is `busy` and new commands are turned away by the update validators, so a
 * workflow task never carries two commands whose side effects could interleave.
 */
export class Order {
  /** Null until the first evaluate's outcome is durable. */
  private current: OrderState | null = null;
  /** The first evaluate's state while it is being decided (version 0, never persisted as such). */
  private draft: OrderState | null = null;
  /** The first evaluate as the API sent it (settings, 3-D Secure data). */
  evaluation: EvaluateInput | null = null;
  /** The first evaluate's answer, for the same request sent again (by its idempotencyKey). */
  firstAnswer: EvaluateResult | null = null;
  challengeAttempts = 0;
  /** The idempotencyKeys of every evaluate taken as the first: each is answered `firstAnswer`. */
  readonly firstEvaluateKeys = new Set<string>();
  /** Every processor call this run made, and the charge answer the next commit records. */
  readonly charges = new ChargeCalls(() => this.state);
  /** The ledger refused this run's charge: the externalOrderId's order is another run's. It closes. */
  superseded = false;
  /** The first evaluate's hour is over: evaluates are turned away while the run closes. */
  closing = false;
  private running: Promise<unknown> = Promise.resolve();
  private inFlight = 0;

  constructor(readonly start: OrderWorkflowInput) {}

  get busy(): boolean {
    return this.inFlight > 0;
  }

  get evaluated(): boolean {
    return this.current !== null;
  }

  /** The state, for the query and for reading; throws before the first evaluate is decided. */
  get state(): OrderState {
    const s = this.current ?? this.draft;
    if (!s) throw wf.ApplicationFailure.create({ type: FAILURE.orderNotEvaluated, message: 'order not evaluated yet' });
    return s;
  }

  snapshot(): OrderState | null {
    return this.current;
  }

  /** The first evaluate's working state. */
  begin(draft: OrderState, evaluation: EvaluateInput): void {
    this.draft = draft;
    this.evaluation = evaluation;
  }

  /**
   * The first evaluate could not be decided: the order stays unevaluated and a retry starts over,
   * unless a charge was sent: then the draft is kept, so the retry settles that charge first.
   */
  abandonDraft(): void {
    if (this.unsettledCharge) return;
    this.draft = null;
    this.evaluation = null;
  }

  /** The charge sent whose answer the order has not recorded (intent, sent or unknown), if any. */
  get unsettledCharge(): ChargeAttempt | undefined {
    return this.charges.unsettled;
  }

  authorizationId(): string {
    const id = this.state.authorizationId;
    if (!id) throw wf.ApplicationFailure.nonRetryable(`order in ${this.state.status} has no authorization`);
    return id;
  }

  captureBefore(): Date {
    const at = this.state.captureBeforeUtc;
    if (!at) throw wf.ApplicationFailure.nonRetryable(`order in ${this.state.status} has no capture deadline`);
    return new Date(at);
  }

  windowEnd(): Date {
    const at = this.state.windowEndsAtUtc;
    if (!at) throw wf.ApplicationFailure.nonRetryable(`order in ${this.state.status} has no rescue window`);
    return new Date(at);
  }

  /** Runs `step` after every step already queued, marking the order busy meanwhile. */
  exclusive<T>(step: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    const run = this.running.then(step).finally(() => {
      this.inFlight -= 1;
    });
    this.running = run.catch(() => undefined);
    return run;
  }

  /**
   * Writes the next state (with its transition and events) to Postgres, then adopts it. A move the
   * transition table (src/domain/orders/transitions.ts) does not declare for this trigger, with
   * exactly these events, throws before anything is written.
   */
  async commit(
    trigger: OrderTrigger,
    changes: Partial<OrderState>,
    reason: string,
    events: EventToRecord[] = [],
  ): Promise<void> {
    const from = this.recordedFrom;
    // A charge's answer is recorded by this write, or lost with it (then sent again: unsettledCharge).
    const next = this.nextState(changes, new Date());
    // A run decides from Draft (a new attempt too: its first evaluate decides the order afresh).
    const decidedFrom = this.current ? this.state.status : 'Draft';
    try {
      declaredMove(
        decidedFrom,
        trigger,
        next.flow,
        next.status,
        events.map((e) => e.name),
      );
    } catch (err) {
      if (err instanceof UndeclaredMoveError) throw wf.ApplicationFailure.nonRetryable(err.message);
      throw err;
    }
    await store.persistOrder(persistInputOf(next, from, reason, events));
    this.adopt(next);
  }

  /** The status a write records the move from: a run's first has none, or the one a new attempt resumed. */
  private get recordedFrom(): OrderState['status'] | null {
    return this.current ? this.current.status : (this.start.resume?.status ?? null);
  }

  /** What the first evaluate's charge decides once it is recorded with the answer: the plan it is sent. */
  decisionPlan(): DecisionPlan {
    return {
      draft: this.state,
      from: this.recordedFrom,
      calls: [...this.charges.all],
      captureWindowMinutes: this.captureWindowMinutes,
    };
  }

  /** The merchant's capture window for an authorization, as the first evaluate brought it. */
  get captureWindowMinutes(): number {
    return this.evaluation?.settings.captureWindowMinutes ?? 5;
  }

  /**
   * The first evaluate's charge recorded the order its answer decided (ChargeInput.decides): the
   * same next state as its write, made from the draft, the changes and that write's time.
   */
  adoptRecorded(changes: Partial<OrderState>, at: Date): void {
    this.adopt(this.nextState(changes, at));
  }

  /** The state after `changes`, recording the charge answer waiting for it (lost with a refused write). */
  private nextState(changes: Partial<OrderState>, at: Date): OrderState {
    const { answered, calls } = this.charges.recording();
    return committedState(this.state, changes, { answered, calls, unsettled: this.unsettledCharge }, at);
  }

  /** The next state is durable in Postgres: it is the order's. */
  private adopt(next: OrderState): void {
    // A run's first commit sets the attributes its start lacks (the order's status).
    const unchanged = this.current !== null && sameSearchAttributes(this.current, next);
    this.current = next;
    this.draft = null;
    this.charges.recorded(next.attempts);
    if (!unchanged) wf.upsertSearchAttributes(changedSearchAttributes(wf.workflowInfo().typedSearchAttributes, next));
  }
}
