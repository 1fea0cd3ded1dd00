import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { orderModelProperty } from '../helpers/order-model/commands';
import { OrderSystem } from '../helpers/order-model/system';

/**
 * Model-based test of the order workflow (docs/orders.md, "The model test"): random sequences of
 * evaluate, further evaluate, capture, cancel, external-cancel, full and partial refunds,
 * processor answers and timer expiries, each step checked against the reference model of the
 * interface's rules (test/helpers/order-model/model.ts). `npm run test:model -- --runs 5000` runs
 * more; a failure prints fast-check's seed and path, which MODEL_TEST_SEED / MODEL_TEST_PATH replay.
 */
const runs = Number(process.env.MODEL_TEST_RUNS ?? 200);
const seed = process.env.MODEL_TEST_SEED ? Number(process.env.MODEL_TEST_SEED) : undefined;
const path = process.env.MODEL_TEST_PATH || undefined;

describe('order workflow against its reference model', () => {
  let system: OrderSystem;
  beforeAll(async () => {
    system = await OrderSystem.start();
  });
  afterAll(async () => {
    await system?.stop();
  });

  it(
    `agrees with the model on ${runs} random command sequences`,
    async () => {
      const details = await fc.check(orderModelProperty(system), {
        numRuns: runs,
        // A sequence that hangs (a call never answered) is a divergence too, reported with its counterexample.
        timeout: 60_000,
        ...(seed !== undefined ? { seed } : {}),
        ...(path ? { path } : {}),
      });
      const report = process.env.MODEL_TEST_REPORT;
      if (report)
        writeFileSync(
          report,
          JSON.stringify({
            sequences: details.numRuns,
            divergences: details.failed ? 1 : 0,
            seed: details.seed,
            path: details.counterexamplePath,
            counterexample: details.counterexample ? fc.stringify(details.counterexample) : null,
            error: details.errorInstance ? String(details.errorInstance) : null,
          }),
        );
      if (details.failed)
        throw new Error(
          `${fc.defaultReportMessage(details) ?? 'the model and the system diverged'}\n${details.errorInstance}`,
        );
      // A replay (`path`) runs the one counterexample; otherwise every sequence asked for ran.
      if (!path) expect(details.numRuns).toBe(runs);
    },
    120_000 + runs * 3_000,
  );
});
