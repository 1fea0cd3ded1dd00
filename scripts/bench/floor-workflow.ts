import * as wf from '@temporalio/workflow';

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
