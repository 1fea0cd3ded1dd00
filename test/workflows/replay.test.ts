import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { workflowSpanSinks } from '../../src/observability/temporal-tracing';
import { HISTORIES_DIR, historyFromFile } from '../helpers/histories';
import { sharedWorkflowBundle } from '../helpers/temporal';

/**
 * The replay safety net (docs/changing-workflows.md): every saved history of every order, refund
 * and webhook delivery scenario must replay against the current workflow code. Orders stay open
 * for weeks, so a change that would make a running one non-deterministic fails here, not in
 * production: guard it with patched(), or (for a new behaviour) add a fixture.
 *
 * The number of saved histories is pinned, so a fixture lost (or one added without a word) fails
 * here: change HISTORIES when, and only when, fixtures are added or replaced on purpose.
 */
const HISTORIES = 68;
describe('saved workflow histories replay against the current code', () => {
  it('replays every history in test/workflows/histories without a determinism error', async () => {
    const files = (await readdir(HISTORIES_DIR)).filter((f) => f.endsWith('.json')).sort();
    expect(files).toHaveLength(HISTORIES);
    const histories = await Promise.all(
      files.map(async (file) => ({
        workflowId: file.replace(/\.json$/, ''),
        history: historyFromFile(await readFile(path.join(HISTORIES_DIR, file), 'utf8')),
      })),
    );
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: sharedWorkflowBundle(), sinks: workflowSpanSinks() },
      histories,
    )) {
      replayed += 1;
      if (result.error) failures.push(`${result.workflowId}: ${result.error.message}`);
    }
    expect(failures).toEqual([]);
    expect(replayed).toBe(files.length);
    // Each kind of workflow is covered.
    for (const kind of ['order--', 'refund--', 'webhook-endpoint--'])
      expect(files.some((f) => f.startsWith(kind))).toBe(true);
  });
});
