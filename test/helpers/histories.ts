import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

/**
 * The replay safety net's recorder (docs/changing-workflows.md). With CAPTURE_HISTORIES=1 the
 * workflow tests note each workflow they start and, after the file, save its history under
 * test/workflows/histories/ (one JSON file per workflow, named after the test that ran it);
 * test/workflows/replay.test.ts replays every saved history against the current code.
 */
export const HISTORIES_DIR = path.resolve(__dirname, '../workflows/histories');
const capturing = process.env.CAPTURE_HISTORIES === '1';
const tracked: Array<{ name: string; workflowId: string; runId?: string }> = [];

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 90);

/** A saved history, as runReplayHistories takes it. */
export function historyFromFile(text: string): temporal.api.history.v1.History {
  return temporal.api.history.v1.History.fromObject(JSON.parse(text));
}

/** Notes a workflow the current test started, its latest run or `runId` (a no-op unless capturing). */
export function trackHistory(kind: string, workflowId: string, runId?: string): void {
  if (!capturing) return;
  const test = slug(expect.getState().currentTestName ?? 'setup');
  const sameTest = tracked.filter((t) => t.name.startsWith(`${kind}--${test}--`)).length;
  tracked.push({ name: `${kind}--${test}--${sameTest + 1}`, workflowId, runId });
}

/** Saves the histories of the tracked workflows (call in afterAll, before the environment stops). */
export async function saveTrackedHistories(client: Client): Promise<void> {
  if (!capturing) return;
  await mkdir(HISTORIES_DIR, { recursive: true });
  for (const { name, workflowId, runId } of tracked.splice(0)) {
    const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
    // protobufjs's own JSON form (the SDK's historyToJSON trips over two protobufjs versions here).
    const json = temporal.api.history.v1.History.fromObject(history).toJSON();
    await writeFile(path.join(HISTORIES_DIR, `${name}.json`), `${JSON.stringify(json)}\n`);
  }
}
