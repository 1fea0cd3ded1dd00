import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { freePort } from '../../scripts/cluster/free-ports';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { startTestStack, type TestStack } from '../helpers/stack';
import { killWorker, startApiProcess, startWorkerProcess, stopApiProcess } from '../helpers/worker-process';

/**
 * "Metrics that count" (issue "Show what was rescued", part 4): the API and the worker as
 * production runs them, each its own process with its own METRICS_PORT. Evaluates of every
 * outcome are counted exactly once each on the API process's metrics port (replays of the same
 * idempotencyKey not again); /metrics is not served on the API port; the worker's metrics port
 * serves its own series (recovered amounts, the webhook backlog) and the Temporal SDK's.
 */

const nextYear = new Date().getUTCFullYear() + 1;
/** Evaluates of each outcome. */
const N = 2;
const AMOUNT = 2500;

type Sample = { name: string; labels: Record<string, string>; value: number };

/** Prometheus text format: `name{label="v",...} value` lines into samples. */
function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      if (key !== undefined && value !== undefined) labels[key] = value;
    }
    samples.push({ name: m[1] as string, labels, value: Number(m[3]) });
  }
  return samples;
}

async function scrape(port: number): Promise<Sample[]> {
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  if (res.status !== 200) throw new Error(`metrics port ${port} answered ${res.status}`);
  return parseMetrics(await res.text());
}

const sum = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((total, s) => total + s.value, 0);

describe('metrics of the API and worker processes, each on its own METRICS_PORT', () => {
  let stack: TestStack;
  let api: ChildProcess | undefined;
  let worker: ChildProcess | undefined;
  let apiUrl: string;
  let apiMetricsPort: number;
  let workerMetricsPort: number;
  let token: string;
  const output: string[] = [];

  beforeAll(async () => {
    stack = await startTestStack({ inProcessWorker: false });
    workerMetricsPort = await freePort();
    worker = await startWorkerProcess(stack, output, undefined, { METRICS_PORT: String(workerMetricsPort) });
    const apiPort = await freePort();
    apiMetricsPort = await freePort();
    apiUrl = `http://127.0.0.1:${apiPort}`;
    ({ process: api } = await startApiProcess(stack, output, apiPort, {
      METRICS_PORT: String(apiMetricsPort),
      RATE_LIMIT_BURST: '100000',
      RATE_LIMIT_PER_SECOND: '100000',
      LOG_LEVEL: 'warn',
    }));
    const merchant = await seedMerchant(stack.db);
    token = await accessToken(apiUrl, await seedKey(stack.db, merchant));
    const settings = await callApi(apiUrl, token, 'PUT', `/v1/merchants/${merchant.mid}/settings`, {
      authorizeCapability: true,
    });
    expect(settings.status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await stopApiProcess(api);
    if (worker && worker.exitCode === null) await killWorker(worker);
    await stack?.stop();
  });

  const card = (cardNumber: string) => ({ cardNumber, expiryMonth: 12, expiryYear: nextYear });
  const evaluateBody = (overrides: Record<string, unknown>) => ({
    idempotencyKey: randomUUID(),
    externalOrderId: `metrics-${randomUUID()}`,
    transaction: { amount: AMOUNT, currency: 'USD', responseCode: '51' },
    paymentMethod: card('4111111111111111'),
    ...overrides,
  });
  /** The sandbox cards of docs/sandbox.md, and the flow each evaluate takes. */
  const OUTCOMES = {
    APPROVED: { flow: 'cit', body: () => evaluateBody({}) },
    DECLINED: { flow: 'cit', body: () => evaluateBody({ paymentMethod: card('4000000000000002') }) },
    CHALLENGE: { flow: 'cit', body: () => evaluateBody({ paymentMethod: card('4000000000003220') }) },
    CAPTUREREQUIRED: { flow: 'cit', body: () => evaluateBody({ transactionType: 'AUTHORIZATION' }) },
    SUBMITTED: {
      flow: 'async_mit',
      body: () =>
        evaluateBody({
          isMIT: true,
          isRecurring: true,
          subscription: { intervalCount: 1 },
          expiryDateUtc: new Date(Date.now() + 3_600_000).toISOString(),
          paymentMethod: card('4000000000009995'),
        }),
    },
  } as const;

  it('counts N evaluates of each outcome exactly N times, by outcome and flow; replays are not counted', async () => {
    const before = await scrape(apiMetricsPort);
    const replayable: Record<string, unknown>[] = [];
    for (const [outcome, { body }] of Object.entries(OUTCOMES)) {
      for (let i = 0; i < N; i++) {
        const sent = body();
        const res = await callApi(apiUrl, token, 'POST', '/v1/evaluate', sent);
        expect(res.status).toBe(200);
        expect(res.body.outcome).toBe(outcome);
        if (i === 0) replayable.push(sent);
      }
    }
    // The same request with the same idempotencyKey: the stored answer again, not a new evaluate.
    for (const sent of replayable) {
      const replay = await callApi(apiUrl, token, 'POST', '/v1/evaluate', sent);
      expect(replay.status).toBe(200);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    }

    const after = await scrape(apiMetricsPort);
    for (const [outcome, { flow }] of Object.entries(OUTCOMES)) {
      const labels = { outcome: outcome.toLowerCase(), flow };
      expect({ outcome, counted: sum(after, 'rescue_evaluates_total', labels) }).toEqual({
        outcome,
        counted: sum(before, 'rescue_evaluates_total', labels) + N,
      });
    }
    const total = (samples: Sample[]) => sum(samples, 'rescue_evaluates_total');
    expect(total(after) - total(before)).toBe(N * Object.keys(OUTCOMES).length);
    expect(
      sum(after, 'rescue_idempotency_outcomes_total', { outcome: 'replayed' }) -
        sum(before, 'rescue_idempotency_outcomes_total', { outcome: 'replayed' }),
    ).toBe(replayable.length);
    // The API process's own series: its requests, never the worker's SDK metrics.
    expect(sum(after, 'http_requests_total', { route: '/v1/evaluate', status: '200' })).toBeGreaterThanOrEqual(
      N * Object.keys(OUTCOMES).length,
    );
    expect(after.some((s) => s.name.startsWith('temporal_'))).toBe(false);
  }, 120_000);

  it('answers 404 for /metrics on the API port', async () => {
    const res = await fetch(`${apiUrl}/metrics`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('# TYPE');
  });

  it("serves the worker's own series on the worker's metrics port: recovered amounts, the webhook backlog, the SDK's", async () => {
    // The approved sales above completed: what they captured is recovered, counted by the worker.
    const samples = await eventually(
      () => scrape(workerMetricsPort),
      (s) =>
        sum(s, 'rescue_recovered_amount_total', { currency: 'USD', flow: 'cit' }) >= N * AMOUNT &&
        s.some((x) => x.name.startsWith('temporal_') && x.labels.task_queue === stack.taskQueue),
      { describe: "the worker's recovered amount and its SDK metrics", timeoutMs: 30_000 },
    );
    expect(sum(samples, 'rescue_recovered_amount_total', { currency: 'USD', flow: 'cit' })).toBe(N * AMOUNT);
    expect(sum(samples, 'rescue_order_events_total', { event: 'order.completed', flow: 'cit' })).toBe(N);
    expect(samples.some((s) => s.name.startsWith('temporal_worker_task_slots_available'))).toBe(true);
    expect(samples.some((s) => s.name.startsWith('temporal_workflow_task_schedule_to_start_latency'))).toBe(true);
    // The backlog, read from the database: nothing pending for a merchant without endpoints.
    expect(sum(samples, 'rescue_webhook_deliveries_pending', { state: 'retrying' })).toBe(0);
    expect(samples.some((s) => s.name === 'rescue_webhook_oldest_pending_age_seconds')).toBe(true);
    // Not the API's series: the worker answered no HTTP requests and counted no evaluates.
    expect(sum(samples, 'http_requests_total')).toBe(0);
    expect(sum(samples, 'rescue_evaluates_total')).toBe(0);
    expect((await fetch(`http://127.0.0.1:${workerMetricsPort}/other`)).status).toBe(404);
  }, 60_000);

  it('counts refunds by kind as the amount decides: the whole capture sent as amountToRefund is full', async () => {
    const before = await scrape(apiMetricsPort);
    const completed = async () => {
      const res = await callApi(apiUrl, token, 'POST', '/v1/evaluate', OUTCOMES.APPROVED.body());
      expect(res.body.outcome).toBe('APPROVED');
      return res.body.orderId as string;
    };
    // As ActiveMerchant refunds: always with amountToRefund, the whole captured amount (25.00 USD).
    const whole = await callApi(apiUrl, token, 'POST', `/v1/orders/${await completed()}/refund`, {
      amountToRefund: AMOUNT / 100,
    });
    const part = await callApi(apiUrl, token, 'POST', `/v1/orders/${await completed()}/refund`, {
      amountToRefund: 10,
      idempotencyKey: randomUUID(),
    });
    expect([whole.status, part.status]).toEqual([200, 200]);
    const after = await scrape(apiMetricsPort);
    const counted = (kind: string) =>
      sum(after, 'rescue_refunds_total', { result: 'succeeded', kind }) -
      sum(before, 'rescue_refunds_total', { result: 'succeeded', kind });
    expect({ full: counted('full'), partial: counted('partial') }).toEqual({ full: 1, partial: 1 });
  }, 60_000);
});
