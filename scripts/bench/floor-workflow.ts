import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';
import * as wf from '@temporalio/workflow';
import { SEARCH_ATTRIBUTES } from '../../src/domain/search-attributes';

/**
 * The "Temporal floor" of `npm run bench:evaluate` (bench-only, never registered in production):
 * the least an Update-With-Start can cost. The update answers at once and the workflow ends in the
 * same workflow task, so one request is one workflow start, one workflow task and one update.
 */
export const floorUpdate = wf.defineUpdate<string>('benchFloor');

export async function benchFloorWorkflow(): Promise<void> {
  let answered = false;
  wf.setHandler(floorUpdate, () => {
    answered = true;
    return 'FLOOR';
  });
  await wf.condition(() => answered);
}

/** The floors' activities: each answers at once (the processor's call; the read model's write). */
export interface FloorActivities {
  benchFloorCharge(): Promise<string>;
  benchFloorRecord(): Promise<void>;
}

const { benchFloorCharge } = wf.proxyActivities<FloorActivities>({ startToCloseTimeout: '10 seconds' });

/**
 * The floor of a CIT evaluate's shape: the least Temporal needs to decide a charge durably before
 * it is made (docs/architecture.md, invariant 1) and answer with its outcome. The update schedules
 * one activity (recorded in the history before it runs), which answers at once, and answers in
 * the next workflow task: two workflow tasks, one activity, three history writes.
 */
export async function benchFloorChargeWorkflow(): Promise<void> {
  let answered = false;
  wf.setHandler(floorUpdate, async () => {
    const outcome = await benchFloorCharge();
    answered = true;
    return outcome;
  });
  await wf.condition(() => answered);
}

/**
 * The floor of an async MIT evaluate's shape: the update answers at once and the workflow stays
 * open on a timer, as an accepted rescue waits on its first retry. The timer outlasts the bench.
 */
export async function benchFloorOpenWorkflow(): Promise<void> {
  await benchFloorWorkflow();
  await wf.sleep('1 hour');
}

const { benchFloorRecord } = wf.proxyLocalActivities<FloorActivities>({ startToCloseTimeout: '10 seconds' });
const orderStatus = defineSearchAttributeKey(SEARCH_ATTRIBUTES.orderStatus.name, SearchAttributeType.KEYWORD);

/** The order's attributes upserted with its new status, as each status change does. */
function upsertStatus(status: 'Processing' | 'Completed'): void {
  wf.upsertSearchAttributes([...wf.workflowInfo().typedSearchAttributes.getAll(), { key: orderStatus, value: status }]);
}

/** What a commit from the workflow costs Temporal: the read model's local activity, then the status upsert. */
async function recordedAs(status: 'Processing' | 'Completed'): Promise<void> {
  await benchFloorRecord();
  upsertStatus(status);
}

/**
 * Temporal's part of an async MIT evaluate's shipped shape: the left-open floor plus what an
 * accepted order records in Temporal. It starts with the order's search attributes (the route
 * sets them), its update runs one local activity that answers at once (where the order writes
 * its read model: a marker in the history and a second activation) and upserts the attributes
 * with the status, as the order's first commit does. What an evaluate costs beyond this is the
 * API's work, Postgres and the order workflow's own code.
 */
export async function benchFloorRecordedWorkflow(): Promise<void> {
  let answered = false;
  wf.setHandler(floorUpdate, async () => {
    await recordedAs('Processing');
    answered = true;
    return 'FLOOR';
  });
  await wf.condition(() => answered);
  await wf.sleep('1 hour');
}

/**
 * Temporal's part of a CIT evaluate's shipped shape: the charge floor plus what an approved CIT
 * order records in Temporal. It starts with the order's search attributes and waits for its first
 * evaluate on a timer (the order's first-evaluate hour, cancelled when decided); its update runs
 * the charge activity and upserts the status, and the run closes, as an approved sale does (the
 * order's charge records the decided order with its answer since 2026-11-27: no local activity
 * follows it). What a CIT evaluate costs beyond this is the API's work, Postgres and the order
 * workflow's own code.
 */
export async function benchFloorChargeRecordedWorkflow(): Promise<void> {
  let answered = false;
  wf.setHandler(floorUpdate, async () => {
    const outcome = await benchFloorCharge();
    upsertStatus('Completed');
    answered = true;
    return outcome;
  });
  await wf.condition(() => answered, '1 hour');
}
