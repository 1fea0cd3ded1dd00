/**
 * The reference model of one order, written from the interface (/work/shared/spec/interface.md:
 * states and transitions, cancellable states by flow, capture window, Sync MIT cutoff, refunds)
 * and, where it is silent, docs/orders.md. It never reads src/: the model test
 * (test/workflows/order-model.test.ts) checks the service against it, step by step.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const AMOUNT = 1999;
/** The merchant default capture window for authorize flows (interface, Limits: 5 minutes). */
export const CAPTURE_WINDOW_MS = 5 * MINUTE;
/** A challenge unanswered this long cancels the order (docs/orders.md, Challenge). */
export const CHALLENGE_TIMEOUT_MS = 15 * MINUTE;
/** The rescue windows the test sends as expiryDateUtc (short, so a sequence can reach them). */
export const SYNC_MIT_WINDOW_MS = 2 * HOUR;
export const ASYNC_MIT_WINDOW_MS = 7 * HOUR;
/** Async MIT retry offsets from acceptance (docs/orders.md, "Async MIT retry schedule"), as far as a 7-hour window goes. */
const RETRY_OFFSETS_MS = [1 * MINUTE, 1 * HOUR, 6 * HOUR, 24 * HOUR].filter((o) => o < ASYNC_MIT_WINDOW_MS);
/** Partial refunds: each idempotencyKey the test uses always carries the same amount. */
export const PARTIAL_REFUNDS: Record<string, number> = { p1: 500, p2: 700, p3: 1300 };

export type Flow = 'CIT' | 'SYNC_MIT' | 'ASYNC_MIT';
export type Status =
  | 'Onhold'
  | 'Cancelled'
  | 'Problem'
  | 'Processing'
  | 'Capturerequired'
  | 'Returned'
  | 'Completed'
  | 'Declined';

/** What the (scripted) processor answers a new charge; `approved_after_timeout` loses its first answer. */
export type ProcessorAnswer =
  | 'approved'
  | 'approved_after_timeout'
  | 'soft_decline'
  | 'hard_decline'
  | 'challenge_required'
  | 'unavailable';

export interface OrderSetup {
  flow: Flow;
  transactionType: 'SALE' | 'AUTHORIZATION';
  scoring: 'approve' | 'decline';
  firstAnswer: ProcessorAnswer;
}

/** What a call answers: an outcome word (evaluate), plain success, or an error's six-digit id. */
export type Expected = { outcome: string } | { ok: true } | { error: string };

/** The error identifiers of the catalogue the model expects (docs/errors.md). */
export const ERR = {
  notCapturable: '409004',
  notCancellable: '409005',
  refundExceedsCaptured: '409006',
  notRefundable: '409007',
  captureExceedsAuthorized: '409008',
  rescueUnavailable: '503002',
} as const;

type Deadline = { at: number; what: 'capture' | 'challenge' | 'retry' | 'window' };

export class OrderModel {
  status: Status = 'Processing';
  events: string[] = [];
  captured = 0;
  refunded = 0;
  authorized = 0;
  /** Processor calls the order should have made: new charge keys, captures, voids, refunds. */
  charges = 0;
  captures = 0;
  voids = 0;
  refunds = new Map<string, number>();
  /** Keys whose first answer was lost (sent twice under the same key). */
  resentCharges = 0;
  /** What the processor answers the next new charge (async MIT retries decline softly unless told). */
  nextAnswer: ProcessorAnswer;
  windowEnd = Number.POSITIVE_INFINITY;
  private captureBefore = Number.POSITIVE_INFINITY;
  private challengeUntil = Number.POSITIVE_INFINITY;
  private retriesDone = 0;
  private createdAt = 0;

  constructor(readonly setup: OrderSetup) {
    this.nextAnswer = setup.firstAnswer;
  }

  get isMIT(): boolean {
    return this.setup.flow !== 'CIT';
  }

  private get authorizes(): boolean {
    return this.setup.flow === 'SYNC_MIT' || this.setup.transactionType === 'AUTHORIZATION';
  }

  /** The first evaluate, sent at `now` (`windowEnd`: the expiryDateUtc it carries, MIT only). */
  evaluate(now: number, windowEnd: number): Expected {
    this.createdAt = now;
    this.windowEnd = windowEnd;
    if (this.setup.scoring === 'decline') return this.move('Declined', 'DECLINED');
    if (this.setup.flow === 'ASYNC_MIT') return this.move('Processing', 'SUBMITTED');
    return this.chargeAtEvaluate(now);
  }

  private chargeAtEvaluate(now: number): Expected {
    switch (this.charge()) {
      case 'approved':
        return this.approved(now);
      case 'challenge_required':
        this.challengeUntil = now + CHALLENGE_TIMEOUT_MS;
        this.events.push('challenge.presented');
        return this.move('Onhold', 'CHALLENGE');
      case 'unavailable':
        this.status = 'Problem';
        return { error: ERR.rescueUnavailable };
      default:
        return this.move('Declined', 'DECLINED');
    }
  }

  /** A new charge (a new processor key): what the processor answers it. */
  private charge(): 'approved' | Exclude<ProcessorAnswer, 'approved_after_timeout'> {
    const answer = this.nextAnswer;
    this.nextAnswer = 'soft_decline';
    this.charges += 1;
    if (answer === 'approved_after_timeout') {
      this.resentCharges += 1;
      return 'approved';
    }
    return answer;
  }

  /** An approval: completed (sale) or waiting for capture (authorize flows, Sync MIT always). */
  private approved(now: number): Expected {
    this.authorized = AMOUNT;
    if (!this.authorizes) {
      this.captured = AMOUNT;
      this.events.push('order.completed');
      return this.move('Completed', 'APPROVED');
    }
    // Sync MIT: capture (or a further evaluate) before the window's hard cutoff.
    this.captureBefore = this.setup.flow === 'SYNC_MIT' ? this.windowEnd : now + CAPTURE_WINDOW_MS;
    this.events.push('order.capturerequired');
    return this.move('Capturerequired', 'CAPTUREREQUIRED');
  }

  private move(status: Status, outcome: string): Expected {
    this.status = status;
    return { outcome };
  }

  private completeCapture(amount: number): void {
    this.captures += 1;
    this.captured = amount;
    this.status = 'Completed';
    this.events.push('order.completed');
  }

  /** A further evaluate (same payment, another idempotencyKey): never a new charge. */
  furtherEvaluate(now: number): Expected {
    if (this.status === 'Problem') return { error: ERR.rescueUnavailable };
    if (this.setup.flow === 'SYNC_MIT') {
      // Hard cutoff, no grace: DECLINED after it, even for an order that was rescued.
      if (now >= this.windowEnd) return { outcome: 'DECLINED' };
      if (this.status === 'Capturerequired') {
        this.completeCapture(this.authorized);
        return { outcome: 'APPROVED' };
      }
    }
    // The order's current outcome; a Returned order (completed, then refunded) stays APPROVED.
    const outcome: Partial<Record<Status, string>> = {
      Completed: 'APPROVED',
      Returned: 'APPROVED',
      Processing: 'SUBMITTED',
      Onhold: 'CHALLENGE',
      Capturerequired: 'CAPTUREREQUIRED',
    };
    return { outcome: outcome[this.status] ?? 'DECLINED' };
  }

  /** POST /v1/capture: `amount` in minor units, null for all that was authorized. */
  capture(now: number, amount: number | null): Expected {
    // Captured already, and asked again for the same amount (or all) under another key: a capture
    // whose answer was lost (docs/orders.md). It answers as that capture did; nothing is sent.
    if (this.status === 'Completed' && this.captures > 0 && (amount === null || amount === this.captured))
      return { ok: true };
    if (this.status !== 'Capturerequired' || now >= this.captureBefore) return { error: ERR.notCapturable };
    const toCapture = amount ?? this.authorized;
    if (toCapture > this.authorized) return { error: ERR.captureExceedsAuthorized };
    this.completeCapture(toCapture);
    return { ok: true };
  }

  /** Cancel and external-cancel: one operation (a cancelled order answers 200 again, nothing sent). */
  cancel(): Expected {
    if (this.status === 'Cancelled') return { ok: true };
    const cancellable = this.isMIT
      ? this.status === 'Processing' || this.status === 'Capturerequired'
      : this.status === 'Capturerequired';
    if (!cancellable) return { error: ERR.notCancellable };
    this.endUncaptured('order.cancelled');
    return { ok: true };
  }

  /** Cancelled (status 2) with `event`; an open authorization is voided (cancel acts like a void). */
  private endUncaptured(event: 'order.cancelled' | 'order.expired'): void {
    if (this.status === 'Capturerequired') this.voids += 1;
    this.status = 'Cancelled';
    this.events.push(event);
  }

  /**
   * A refund: full (`key` null: de-duplicated by order) or partial (by its idempotencyKey). Only a
   * Completed order; never beyond what was captured; everything refunded: Returned.
   */
  refund(key: string | null): Expected {
    const id = key ?? 'full';
    if (this.refunds.has(id)) return { ok: true }; // the same refund again: answered, nothing moves
    if (this.status !== 'Completed') return { error: ERR.notRefundable };
    const remaining = this.captured - this.refunded;
    const amount = key === null ? remaining : (PARTIAL_REFUNDS[key] as number);
    if (amount <= 0 || amount > remaining) return { error: ERR.refundExceedsCaptured };
    this.refunds.set(id, amount);
    this.refunded += amount;
    this.events.push('order.refunded');
    if (this.refunded >= this.captured) this.status = 'Returned';
    return { ok: true };
  }

  /** The order's own timers, earliest first, while it waits in a status. */
  deadlines(): Deadline[] {
    const due: Deadline[] = [];
    if (this.status === 'Onhold') due.push({ at: this.challengeUntil, what: 'challenge' });
    if (this.status === 'Capturerequired') due.push({ at: this.captureBefore, what: 'capture' });
    if (this.status === 'Processing') {
      const offset = RETRY_OFFSETS_MS[this.retriesDone];
      if (offset !== undefined) due.push({ at: this.createdAt + offset, what: 'retry' });
      due.push({ at: this.windowEnd, what: 'window' });
    }
    return due.sort((a, b) => a.at - b.at);
  }

  /** Time has passed up to `now`: every timer due by then fires, in order. */
  advance(now: number): void {
    for (let next = this.deadlines()[0]; next && next.at <= now; next = this.deadlines()[0]) this.fire(next);
  }

  private fire({ at, what }: Deadline): void {
    if (what === 'challenge') {
      this.status = 'Cancelled';
      this.events.push('order.cancelled');
    } else if (what === 'capture') {
      // A CIT authorization lapses as a cancel by the system; an MIT rescue expires (interface, Events).
      this.endUncaptured(this.setup.flow === 'CIT' ? 'order.cancelled' : 'order.expired');
    } else if (what === 'window') {
      this.endUncaptured('order.expired');
    } else {
      this.retriesDone += 1;
      const answer = this.charge();
      if (answer === 'approved') this.approved(at);
      // A hard decline on a retry ends the rescue at once (docs/orders.md).
      else if (answer === 'hard_decline') this.endUncaptured('order.expired');
    }
  }
}
