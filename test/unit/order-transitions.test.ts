import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type Flow, ORDER_STATUS, type OrderStatusName } from '../../src/domain/orders/status';
import {
  declaredMove,
  isCancellable,
  isFinal,
  isRefundable,
  ORDER_MOVES,
  type OrderMove,
  type OrderTrigger,
  statusAfterRefund,
  timedTrigger,
  UndeclaredMoveError,
} from '../../src/domain/orders/transitions';
import { HISTORIES_DIR } from '../helpers/histories';

const STATUSES = Object.keys(ORDER_STATUS) as OrderStatusName[];
const FLOWS: Flow[] = ['CIT', 'SYNC_MIT', 'ASYNC_MIT'];
const TRIGGERS: OrderTrigger[] = [
  'evaluate',
  'challenge',
  'challenge-timeout',
  'retry',
  'window-end',
  'capture',
  'capture-deadline',
  'cancel',
  'refund',
];

/** What set off a write in a saved history: the Update in flight, or the workflow's own timer. */
type Cause = 'evaluate' | 'capture' | 'cancel' | 'challenge' | 'timer' | 'refund';
const CAUSES: Record<OrderTrigger, Cause[]> = {
  evaluate: ['evaluate'],
  challenge: ['challenge'],
  'challenge-timeout': ['timer'],
  retry: ['timer'],
  'window-end': ['timer'],
  // A Sync MIT further evaluate captures; a late capture or further evaluate finds the deadline passed.
  capture: ['capture', 'evaluate'],
  'capture-deadline': ['timer', 'capture', 'evaluate'],
  cancel: ['cancel'],
  refund: ['refund'],
};

interface Observed {
  from: OrderStatusName;
  to: OrderStatusName;
  flow: Flow | null;
  cause: Cause;
  history: string;
}

/** A value down a path of a history event (protobuf JSON), undefined where the path is absent. */
function at(value: unknown, ...keys: Array<string | number>): unknown {
  let v = value;
  for (const k of keys) v = v === null || typeof v !== 'object' ? undefined : (v as Record<string, unknown>)[k];
  return v;
}
/** A payload's JSON (its data is base64 in the protobuf JSON form). */
const decode = (payload: unknown): unknown => {
  const data = at(payload, 'data');
  return typeof data === 'string' ? JSON.parse(Buffer.from(data, 'base64').toString('utf8')) : undefined;
};

const UPSERT = 'EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES';

/**
 * The moves the saved histories (test/workflows/histories, recorded from the workflow tests) made:
 * each persistOrder write of an order workflow is a move from the status before it to the status
 * (and flow) the search attributes upserted right after it name (none: the same status), set off
 * by the Update then in flight or else by the workflow's timer; so is a first evaluate's charge that
 * recorded the order it decided (the evaluate's move, its result naming the status); each refund
 * workflow's answer is a refund's move of a Completed order.
 */
function observedMoves(): Observed[] {
  const moves: Observed[] = [];
  for (const file of readdirSync(HISTORIES_DIR).filter((f) => /^(order|refund)--.*\.json$/.test(f))) {
    const events = at(JSON.parse(readFileSync(path.join(HISTORIES_DIR, file), 'utf8')), 'events') as unknown[];
    if (file.startsWith('refund--')) {
      const done = events.find((e) => at(e, 'eventType') === 'EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED');
      const result = decode(at(done, 'workflowExecutionCompletedEventAttributes', 'result', 'payloads', 0));
      if (at(result, 'kind') === 'refunded')
        moves.push({
          from: 'Completed',
          to: at(result, 'status') as OrderStatusName,
          flow: null,
          cause: 'refund',
          history: file,
        });
      continue;
    }
    let status: OrderStatusName = 'Draft';
    // The flow an order starts with (the API sets it), unless an upsert names it again.
    const fields = (e: unknown, attributes: string) => at(e, attributes, 'searchAttributes', 'indexedFields');
    let flow = (decode(at(fields(events[0], 'workflowExecutionStartedEventAttributes'), 'FcFlow')) ??
      null) as Flow | null;
    const inFlight: Array<{ id: unknown; name: Cause }> = [];
    events.forEach((e, i) => {
      switch (at(e, 'eventType')) {
        case 'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED': {
          const request = at(e, 'workflowExecutionUpdateAcceptedEventAttributes', 'acceptedRequest');
          inFlight.push({ id: at(request, 'meta', 'updateId'), name: at(request, 'input', 'name') as Cause });
          break;
        }
        case 'EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_COMPLETED': {
          const id = at(e, 'workflowExecutionUpdateCompletedEventAttributes', 'meta', 'updateId');
          const index = inFlight.findIndex((u) => u.id === id);
          if (index >= 0) inFlight.splice(index, 1);
          break;
        }
        case 'EVENT_TYPE_ACTIVITY_TASK_COMPLETED': {
          // The first evaluate's charge that recorded the order it decided (ChargeInput.decides).
          const result = decode(at(e, 'activityTaskCompletedEventAttributes', 'result', 'payloads', 0));
          const to = at(result, 'decided', 'changes', 'status') as OrderStatusName | undefined;
          if (!to) return;
          const upsert = events.slice(i + 1).find((n) => at(n, 'eventType') === UPSERT);
          flow = (decode(at(fields(upsert, 'upsertWorkflowSearchAttributesEventAttributes'), 'FcFlow')) ??
            flow) as Flow;
          // The evaluate's move, even when its run takes the order up only as its hour ends.
          moves.push({ from: status, to, flow, cause: 'evaluate', history: file });
          status = to;
          break;
        }
        case 'EVENT_TYPE_MARKER_RECORDED': {
          const marker = at(e, 'markerRecordedEventAttributes');
          const data = decode(at(marker, 'details', 'data', 'payloads', 0));
          if (at(data, 'activity_type') !== 'persistOrder' || at(marker, 'failure')) return;
          // Every status change upserts the order's attributes that changed right after the write (all
          // of them, its flow among them, in histories recorded before 2026-11-28).
          const upserted = fields(events[i + 1], 'upsertWorkflowSearchAttributesEventAttributes');
          flow = (decode(at(upserted, 'FcFlow')) ?? flow) as Flow;
          const to = (decode(at(upserted, 'FcOrderStatus')) ?? status) as OrderStatusName;
          moves.push({ from: status, to, flow, cause: inFlight.at(-1)?.name ?? 'timer', history: file });
          status = to;
        }
      }
    });
  }
  return moves;
}

/**
 * Declared moves that only the API tests make today (test/api: challenge reports), or that no test
 * makes yet: each needs a scenario in test/workflows (and so a saved history). The list can only
 * shrink: a move made by a saved history must leave it (the test below fails otherwise).
 */
const NOT_YET_IN_A_SAVED_HISTORY = [
  'Onhold --challenge (failed)--> Declined',
  'Onhold --challenge (the charge after a pass is declined)--> Declined',
  'Onhold --challenge (the charge after a pass is approved, authorize)--> Capturerequired',
  'Onhold --challenge (the charge after a pass is approved, sale)--> Completed',
  'Onhold --challenge-timeout (the unanswered charge, settled, authorized)--> Capturerequired',
  'Onhold --challenge-timeout (the unanswered charge, settled, declined)--> Declined',
];

describe('the order transition table (src/domain/orders/transitions.ts)', () => {
  const observed = observedMoves();

  it('reads moves from the saved histories', () => {
    expect(observed.length).toBeGreaterThan(50);
  });

  const label = (m: OrderMove) => `${m.from} --${m.trigger} (${m.when})--> ${m.to}`;
  const made = (m: OrderMove) =>
    observed.some(
      (o) =>
        o.from === m.from &&
        o.to === m.to &&
        (o.flow === null || m.flows.includes(o.flow)) &&
        CAUSES[m.trigger].includes(o.cause),
    );

  it.each(ORDER_MOVES.filter((m) => !NOT_YET_IN_A_SAVED_HISTORY.includes(label(m))).map((m) => [label(m), m] as const))(
    'every declared move is made by a workflow test whose history is saved: %s',
    (_, m) => {
      expect(made(m)).toBe(true);
    },
  );

  it('the moves no saved history makes yet are exactly the ones listed (add a workflow scenario, then shrink the list)', () => {
    expect(ORDER_MOVES.filter((m) => !made(m)).map(label)).toEqual(NOT_YET_IN_A_SAVED_HISTORY);
  });

  it('every move the saved histories made is declared', () => {
    const undeclared = observed.filter(
      (o) =>
        !ORDER_MOVES.some(
          (m) =>
            m.from === o.from &&
            m.to === o.to &&
            (o.flow === null || m.flows.includes(o.flow)) &&
            CAUSES[m.trigger].includes(o.cause),
        ),
    );
    expect(undeclared).toEqual([]);
  });

  it('every undeclared move throws: each (from, trigger, flow, to) the table does not list', () => {
    let checked = 0;
    for (const from of STATUSES)
      for (const to of STATUSES)
        for (const trigger of TRIGGERS)
          for (const flow of FLOWS) {
            const row = ORDER_MOVES.find(
              (m) => m.from === from && m.to === to && m.trigger === trigger && m.flows.includes(flow),
            );
            if (row) continue;
            checked += 1;
            expect(() => declaredMove(from, trigger, flow, to, [])).toThrow(UndeclaredMoveError);
            expect(() => declaredMove(from, trigger, flow, to, ['order.cancelled'])).toThrow(UndeclaredMoveError);
          }
    expect(checked).toBeGreaterThan(STATUSES.length * STATUSES.length * 20);
  });

  it('a declared move with other events than the table says throws', () => {
    for (const m of ORDER_MOVES)
      for (const flow of m.flows) {
        expect(declaredMove(m.from, m.trigger, flow, m.to, m.events)).toBe(m);
        const other = [...m.events, 'order.refunded' as const];
        expect(() => declaredMove(m.from, m.trigger, flow, m.to, other)).toThrow(UndeclaredMoveError);
      }
  });

  it('cancellable: MIT orders in Processing or CAPTUREREQUIRED, CIT orders in CAPTUREREQUIRED only', () => {
    const cancellable = FLOWS.flatMap((flow) =>
      STATUSES.filter((s) => isCancellable(flow, s)).map((s) => `${flow} ${s}`),
    );
    // The interface also names an MIT Draft; here Draft never meets a cancel (see the table's comment).
    expect(cancellable.sort()).toEqual(
      ['ASYNC_MIT Capturerequired', 'ASYNC_MIT Processing', 'CIT Capturerequired', 'SYNC_MIT Capturerequired'].sort(),
    );
  });

  it('refundable: Completed orders only; the refund that settles the rest makes the order Returned', () => {
    expect(STATUSES.filter((s) => isRefundable('CIT', s))).toEqual(['Completed']);
    expect(statusAfterRefund('CIT', 'Completed', 600, 1999)).toBe('Completed');
    expect(statusAfterRefund('ASYNC_MIT', 'Completed', 1999, 1999)).toBe('Returned');
    expect(() => statusAfterRefund('CIT', 'Returned', 1999, 1999)).toThrow(UndeclaredMoveError);
  });

  it('the workflow waits in Processing, Onhold and Capturerequired (one timed trigger each) and closes in the rest', () => {
    expect(STATUSES.filter((s) => !isFinal(s)).sort()).toEqual(['Capturerequired', 'Draft', 'Onhold', 'Processing']);
    expect(Object.fromEntries(STATUSES.map((s) => [s, timedTrigger(s)]).filter(([, t]) => t))).toEqual({
      Processing: 'retry',
      Onhold: 'challenge-timeout',
      Capturerequired: 'capture-deadline',
    });
  });
});
