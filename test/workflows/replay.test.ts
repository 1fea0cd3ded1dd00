import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker, type WorkflowBundle } from '@temporalio/worker';
import { workflowSpanSinks } from '../../src/observability/temporal-tracing';
import { bundleWorkflows } from '../../src/workflow-bundles';
import { quietBundlerLogger } from '../helpers/bundler-logger';
import { HISTORIES_DIR, historyFromFile } from '../helpers/histories';
import { sharedWorkflowBundle } from '../helpers/temporal';

/**
 * The replay safety net (docs/changing-workflows.md): every saved history of every order, refund
 * and webhook delivery scenario must replay against the current workflow code. Orders stay open
 * for weeks, so a change that would make a running one non-deterministic fails here, not in
 * production: guard it with patched(), or (for a new behaviour) add a fixture.
 *
 * Each history replays twice: on the bundle a worker runs with tracing off (no workflow
 * interceptors) and on the one it runs with tracing on (tracing's interceptors). Histories were
 * recorded under both (those ending in `--untraced-N` without them), so tracing can be turned on or
 * off while orders run (src/observability/temporal-tracing.ts).
 *
 * The number of saved histories is pinned, so a fixture lost (or one added without a word) fails
 * here: change HISTORIES when, and only when, fixtures are added or replaced on purpose.
 */
const HISTORIES = 99;
describe('saved workflow histories replay against the current code', () => {
  jest.setTimeout(120_000);
  let traced: WorkflowBundle;

  beforeAll(async () => {
    traced = await bundleWorkflows(true, { logger: quietBundlerLogger });
    expect(traced.code).toContain('OpenTelemetryInboundInterceptor');
  });

  it.each([
    ['with tracing off', () => sharedWorkflowBundle()],
    ['with tracing on', () => traced],
  ])('replays every history in test/workflows/histories without a determinism error, %s', async (_, bundle) => {
    const files = (await readdir(HISTORIES_DIR)).filter((f) => f.endsWith('.json')).sort();
    expect(files).toHaveLength(HISTORIES);
    // Both ways round: histories recorded with the interceptors and without them.
    expect(files.filter((f) => /--untraced-\d+\.json$/.test(f)).length).toBeGreaterThan(0);
    const histories = await Promise.all(
      files.map(async (file) => ({
        workflowId: file.replace(/\.json$/, ''),
        history: historyFromFile(await readFile(path.join(HISTORIES_DIR, file), 'utf8')),
      })),
    );
    const failures: string[] = [];
    let replayed = 0;
    for await (const result of Worker.runReplayHistories(
      { workflowBundle: bundle(), sinks: workflowSpanSinks() },
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
