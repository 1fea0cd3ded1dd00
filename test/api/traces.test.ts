import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../../scripts/cluster/free-ports';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { type ReceivedSpan, startOtlpReceiver } from '../helpers/otlp-receiver';
import { shared } from '../helpers/shared-env';
import { startTestStack, type TestStack } from '../helpers/stack';
import { killWorker, startApiProcess, startWorkerProcess, stopApiProcess } from '../helpers/worker-process';

/**
 * "Traces" (issue "Show what was rescued", part 5): the API and the worker as production runs
 * them, each its own process, exporting over OTLP/HTTP to a collector in the test. One evaluate
 * is one trace, across both processes: the API's request, its Update-With-Start (the Temporal
 * client), the order workflow's Update handler and the activities it runs; and the API's access
 * log line names that trace.
 */

const API = 'payment-rescue-api';
const WORKER = 'payment-rescue-worker';

describe('one evaluate is one trace across the API and worker processes', () => {
  jest.setTimeout(120_000);
  let stack: TestStack;
  let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let api: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  let apiUrl: string;
  const apiOutput: string[] = [];
  const workerOutput: string[] = [];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    // OTEL_BSP_SCHEDULE_DELAY (the SDK's own variable): batches leave within 200 ms, not 5 s.
    const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint, OTEL_BSP_SCHEDULE_DELAY: '200' };
    stack = await startTestStack({ inProcessWorker: false });
    worker = await startWorkerProcess(stack, workerOutput, undefined, tracing);
    const apiPort = await freePort();
    apiUrl = `http://127.0.0.1:${apiPort}`;
    ({ process: api } = await startApiProcess(stack, apiOutput, apiPort, { ...tracing, LOG_LEVEL: 'info' }));
  }, 120_000);

  afterAll(async () => {
    await stopApiProcess(api);
    if (worker && worker.exitCode === null) await killWorker(worker);
    await stack?.stop();
    await receiver?.stop();
    await appendFile(
      path.join(shared('logDir'), `traces-${process.pid}.log`),
      apiOutput.join('') + workerOutput.join(''),
    );
  });

  it('links the request, the Update, the update handler and the activities by one trace id', async () => {
    const merchant = await seedMerchant(stack.db);
    const token = await accessToken(apiUrl, await seedKey(stack.db, merchant));
    const externalOrderId = `traces-${randomUUID()}`;
    const evaluate = await callApi(apiUrl, token, 'POST', '/v1/evaluate', {
      idempotencyKey: randomUUID(),
      externalOrderId,
      transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
      paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 },
    });
    expect(evaluate.status).toBe(200);

    // The API's access log line of the evaluate names its trace.
    const logLine = await eventually(
      async () =>
        apiOutput
          .join('')
          .split('\n')
          .filter((line) => line.startsWith('{'))
          .map((line) => JSON.parse(line) as Record<string, unknown>)
          .find((entry) => entry.msg === 'request' && entry.path === '/v1/evaluate'),
      (entry) => entry !== undefined,
      { describe: 'the access log line of the evaluate' },
    );
    const traceId = String(logLine?.traceId);
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);

    const find = (spans: ReceivedSpan[], service: string, name: string | RegExp) =>
      spans.filter((s) => s.service === service && (typeof name === 'string' ? s.name === name : name.test(s.name)));
    const inTrace = await eventually(
      async () => receiver.spans.filter((s) => s.traceId === traceId),
      (spans) =>
        find(spans, API, 'POST /v1/evaluate').length === 1 &&
        find(spans, API, 'UpdateWithStartWorkflow:evaluate').length === 1 &&
        find(spans, WORKER, 'HandleUpdate:evaluate').length === 1 &&
        find(spans, WORKER, /^RunActivity:/).length > 0,
      { describe: () => `the evaluate's spans from both processes in trace ${traceId}`, timeoutMs: 30_000 },
    );

    // Every part is there, each from the process that did it, all of one trace.
    const [request] = find(inTrace, API, 'POST /v1/evaluate');
    const [update] = find(inTrace, API, 'UpdateWithStartWorkflow:evaluate');
    const [handler] = find(inTrace, WORKER, 'HandleUpdate:evaluate');
    expect(request?.parentSpanId).toBeUndefined(); // the trace's root: the request as the API received it
    expect(request?.attributes['http.route']).toBe('/v1/evaluate');
    expect(find(inTrace, API, /^pg\./).length).toBeGreaterThan(0); // the API's queries (pg instrumentation)
    // The handler continues the client's Update, in the other process: its parent is the API's span.
    expect(handler?.parentSpanId).toBe(update?.spanId);
    expect(inTrace.some((s) => s.spanId === update?.parentSpanId)).toBe(true);
    // Each activity ran under the workflow's span that scheduled it.
    const scheduled = find(inTrace, WORKER, /^StartActivity:/);
    const ran = find(inTrace, WORKER, /^RunActivity:/);
    for (const activity of ran) {
      const parent = scheduled.find((s) => s.spanId === activity.parentSpanId);
      expect(parent?.name.replace('StartActivity:', '')).toBe(activity.name.replace('RunActivity:', ''));
    }
    expect(new Set(inTrace.map((s) => s.traceId))).toEqual(new Set([traceId]));
    // No other evaluate shares it: the trace is this request's alone.
    expect(receiver.spans.filter((s) => s.name === 'POST /v1/evaluate')).toHaveLength(1);
  });

  it("never exports a challenge report's orderSessionKey (a credential) in the request's span", async () => {
    const orderSessionKey = randomUUID();
    const report = await callApi(
      apiUrl,
      '',
      'POST',
      `/v1/challenges/${orderSessionKey}/passed?probe=${orderSessionKey}`,
    );
    expect(report.status).toBe(404);
    const [span] = await eventually(
      async () => receiver.spans.filter((s) => s.service === API && s.name.startsWith('POST /v1/challenges/')),
      (spans) => spans.length > 0,
      { describe: "the challenge report's request span", timeoutMs: 30_000 },
    );
    expect(span?.attributes['http.target']).toBe('/v1/challenges/:orderSessionKey/:result');
    expect(JSON.stringify(receiver.spans)).not.toContain(orderSessionKey);
  });
});
