import { type ChildProcess, spawn } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Client, Connection } from '@temporalio/client';
import { NativeConnection, type Worker } from '@temporalio/worker';
import { freePort } from '../../scripts/cluster/free-ports';
import { ensureTemporalCli } from '../../scripts/tools/temporal-cli';
import { closeServer, listen } from '../../src/api/server';
import { type Config, loadConfig } from '../../src/config';
import { startMetricsServer } from '../../src/observability/http';
import { startWorkerHealthServer } from '../../src/observability/worker-health';
import { connectTemporalClient, waitForTemporal } from '../../src/temporal/connect';
import { registerSearchAttributes } from '../../src/temporal/search-attributes';
import { createWorkers, startWorkerWithRelay } from '../../src/worker';
import { createTestDatabase, type TestDatabase } from '../helpers/database';
import { eventually } from '../helpers/eventually';
import { capturedLogger } from '../helpers/log-capture';
import { sharedWorkflowBundle, uniqueTaskQueue } from '../helpers/temporal';

/**
 * Operations surface (issue 13): liveness, readiness and /metrics on the real stack. An API pod's
 * readiness asks only its database: the workers are shared by every pod, so their absence must not
 * take every pod out of the load balancer. /v1/health/workers tells operators whether a worker of
 * the order task queue is live: its process's heartbeat row (written every second, stale after
 * READY_WORKER_HEARTBEAT_MAX_AGE_MS, 4 s) and a poller of the queue in DescribeTaskQueue. This file
 * runs its own Temporal dev server with the production long poll (1 min), so a poller's last access
 * time is no help in noticing a killed worker: the heartbeat must be. The worker process has probes
 * of its own (WORKER_HEALTH_PORT), for the chart and compose.
 */

const ROOT = path.resolve(__dirname, '../..');
/** The must-show bound: the workers' check fails within this of the last worker stopping (issue 13). */
const NOTICE_WITHIN_MS = 5_000;
/** Margin for the probe's own round trip (an HTTP request, two queries) on a busy shared machine. */
const PROBE_MARGIN_MS = 500;

let devServer: ChildProcess | undefined;
let temporalAddress: string;
let database: TestDatabase;
let connection: Connection;
let client: Client;
let config: Config;
let server: Server;
let base: string;
let taskQueue: string;
const logs = capturedLogger();

/** Until `check` answers (a failing probe, e.g. a port not yet listening, counts as no answer). */
function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  return eventually(
    () => check().catch(() => undefined),
    (value: T | undefined): value is T => value !== undefined,
    { describe: what, timeoutMs },
  ) as Promise<T>;
}

async function health(route: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}${route}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
const readiness = () => health('/v1/health/ready');
const workersCheck = () => health('/v1/health/workers');

const workersAre = (status: number) => async () => {
  const r = await workersCheck();
  return r.status === status ? r : undefined;
};

/** A worker process's own probe on its WORKER_HEALTH_PORT; status 0 when nothing answers there. */
async function workerProbe(port: number, path: string): Promise<{ status: number; body?: Record<string, unknown> }> {
  let res: Response;
  try {
    res = await fetch(`http://127.0.0.1:${port}${path}`);
  } catch {
    return { status: 0 };
  }
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

/** The worker as production runs it (src/worker.ts, its own process) on this file's stack. */
function spawnWorker(
  env: Record<string, string>,
  output: string[],
): { child: ChildProcess; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: database.url,
      TEMPORAL_ADDRESS: temporalAddress,
      TEMPORAL_TASK_QUEUE: taskQueue,
      WORKER_ROLE: 'orders',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => output.push(String(d)));
  child.stderr?.on('data', (d) => output.push(String(d)));
  return { child, exited: new Promise((r) => child.once('exit', (code) => r(code))) };
}

/** Prometheus text format: `name{label="v",...} value` lines into samples. */
function parseMetrics(text: string): Array<{ name: string; labels: Record<string, string>; value: number }> {
  const samples: Array<{ name: string; labels: Record<string, string>; value: number }> = [];
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

async function scrape(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return parseMetrics(await res.text());
}

function requestCount(samples: ReturnType<typeof parseMetrics>, route: string, status: string): number {
  return samples
    .filter((s) => s.name === 'http_requests_total' && s.labels.route === route && s.labels.status === status)
    .reduce((sum, s) => sum + s.value, 0);
}

beforeAll(async () => {
  const cliPath = await ensureTemporalCli();
  if (!cliPath) throw new Error('this test needs the Temporal CLI (npm run tools)');
  const port = await freePort();
  temporalAddress = `127.0.0.1:${port}`;
  devServer = spawn(
    cliPath,
    ['server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--headless', '--log-level', 'error'],
    { stdio: 'ignore' },
  );
  await waitForTemporal(temporalAddress, 60_000);
  taskQueue = uniqueTaskQueue('ops');
  config = loadConfig({
    LOG_LEVEL: 'info',
    TEMPORAL_TASK_QUEUE: taskQueue,
    OPEN_RATE_LIMIT_BURST: '100000',
    OPEN_RATE_LIMIT_PER_SECOND: '100000',
  });
  database = await createTestDatabase();
  ({ connection, client } = await connectTemporalClient(temporalAddress, 'default'));
  await registerSearchAttributes(connection, 'default');
  server = await listen(
    { config, db: database.db, temporal: connection, temporalClient: client, logger: logs.logger },
    '127.0.0.1',
    0,
    config.http,
  );
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  if (server) await closeServer(server);
  await connection?.close();
  await database?.drop();
  if (devServer && devServer.exitCode === null) {
    const exited = new Promise((r) => devServer?.once('exit', r));
    devServer.kill('SIGKILL');
    await exited;
  }
});

describe('probes', () => {
  it('liveness answers without asking any dependency; /v1/health keeps its shape', async () => {
    const live = await fetch(`${base}/v1/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'ok', time: expect.any(String) });

    const health = await fetch(`${base}/v1/health`);
    expect(health.status).toBe(200);
    const body = (await health.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['buildId', 'checks', 'environment', 'status', 'time', 'version']);
    expect(Object.keys(body.checks as object).sort()).toEqual(['database', 'temporal']);
  });

  it('readiness asks only the database; /v1/health/workers fails within 5 s of the last worker stopping (cleanly or SIGKILL) and recovers', async () => {
    // No worker yet: ready all the same (the database answers); the workers' check says none is live.
    const before = await readiness();
    expect(before).toMatchObject({ status: 200, body: { status: 'ok', checks: { database: { status: 'ok' } } } });
    expect(Object.keys(before.body.checks as object)).toEqual(['database']);
    const none = await workersCheck();
    expect(none.status).toBe(503);
    expect(none.body.checks).toEqual({
      worker: { status: 'down', latencyMs: expect.any(Number), taskQueue, pollers: 0, heartbeat: false },
    });

    // An in-process worker polls: the workers' check sees it.
    const startInProcess = () =>
      startWorkerWithRelay({
        address: temporalAddress,
        client,
        config,
        db: database.db,
        logger: logs.logger,
        workflowBundle: sharedWorkflowBundle(),
        roles: ['orders'],
      });
    const worker = await startInProcess();
    const live = await waitFor('the workers check with a worker', workersAre(200), 15_000);
    expect(live.body.checks).toMatchObject({ worker: { status: 'ok', taskQueue, heartbeat: true } });
    // It stays so while the worker idles (its heartbeat keeps coming; no flapping).
    for (const until = Date.now() + 5_000; Date.now() < until; ) {
      expect((await workersCheck()).status).toBe(200);
      await new Promise((r) => setTimeout(r, 250));
    }

    // The last worker stops cleanly: its heartbeat row goes first, so 503 well within 5 s.
    const stoppedAt = Date.now();
    await worker.stop();
    const down = await waitFor('the workers check without a worker', workersAre(503), NOTICE_WITHIN_MS);
    expect(Date.now() - stoppedAt).toBeLessThanOrEqual(NOTICE_WITHIN_MS + PROBE_MARGIN_MS);
    expect(down.body.checks).toMatchObject({ worker: { status: 'down', heartbeat: false } });
    // Neither liveness nor readiness moves: no restart, and the API stays in rotation to answer
    // merchants itself (503 503010 with Retry-After, test/api/no-worker-deadline.test.ts).
    expect((await fetch(`${base}/v1/health/live`)).status).toBe(200);
    expect((await readiness()).status).toBe(200);

    // A worker returns, as production runs it (its own process, the SDK's metrics exported).
    const metricsPort = await freePort();
    const output: string[] = [];
    const { child, exited } = spawnWorker({ TEMPORAL_METRICS_BIND_ADDRESS: `127.0.0.1:${metricsPort}` }, output);
    try {
      await waitFor('the workers check with the worker process', workersAre(200), 90_000).catch((err: Error) => {
        throw new Error(`${err.message}\nworker output:\n${output.join('')}`);
      });

      // The worker's Temporal SDK metrics, scraped from its Prometheus exporter.
      const sdk = await waitFor(
        'the worker SDK metrics',
        async () => {
          const samples = await scrape(`http://127.0.0.1:${metricsPort}/metrics`);
          return samples.some((s) => s.name.startsWith('temporal_') && s.labels.task_queue === taskQueue)
            ? samples
            : undefined;
        },
        30_000,
      );
      expect(sdk.some((s) => s.name.startsWith('temporal_worker_task_slots_available'))).toBe(true);

      // SIGKILL: no drain, no goodbye. Temporal still lists its poller (the long poll is 1 min),
      // so only the stale heartbeat can tell; it does within 5 s.
      child.kill('SIGKILL');
      await exited;
      const killedAt = Date.now();
      const gone = await waitFor(
        'the workers check after the worker process was killed',
        workersAre(503),
        NOTICE_WITHIN_MS,
      );
      expect(Date.now() - killedAt).toBeLessThanOrEqual(NOTICE_WITHIN_MS + PROBE_MARGIN_MS);
      expect(gone.body.checks).toMatchObject({ worker: { status: 'down', heartbeat: false } });
      expect((gone.body.checks as { worker: { pollers: number } }).worker.pollers).toBeGreaterThan(0);
      expect((await readiness()).status).toBe(200);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    }

    // And it recovers when a worker returns again.
    const again = await startInProcess();
    try {
      await waitFor('the workers check with a worker back', workersAre(200), 15_000);
    } finally {
      await again.stop();
    }
  }, 180_000);

  it('the worker process answers its own probes (WORKER_HEALTH_PORT): live and ready while it polls, neither once stopped', async () => {
    const healthPort = await freePort();
    const output: string[] = [];
    const { child, exited } = spawnWorker({ WORKER_HEALTH_PORT: String(healthPort) }, output);
    try {
      const ready = await waitFor(
        'the worker process to be ready',
        async () => {
          const r = await workerProbe(healthPort, '/health/ready');
          return r.status === 200 ? r : undefined;
        },
        90_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}\nworker output:\n${output.join('')}`);
      });
      expect(ready.body).toMatchObject({ status: 'ok', workers: [{ taskQueue, state: 'RUNNING' }] });
      expect(await workerProbe(healthPort, '/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } });
      expect((await workerProbe(healthPort, '/elsewhere')).status).toBe(404);

      // SIGTERM: the worker drains (not ready), stops, and the process exits: its probes fail.
      child.kill('SIGTERM');
      const stopped = await waitFor(
        'the stopped worker process to fail its readiness probe',
        async () => {
          const r = await workerProbe(healthPort, '/health/ready');
          return r.status !== 200 ? r : undefined;
        },
        30_000,
      );
      expect([0, 503]).toContain(stopped.status);
      expect(await exited).toBe(0);
      expect((await workerProbe(healthPort, '/health/live')).status).toBe(0);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    }
  }, 120_000);

  it("the worker probes follow the Temporal workers' state: not ready until they poll or once shut down, not alive once stopped", async () => {
    const nativeConnection = await NativeConnection.connect({ address: temporalAddress });
    const workers = await createWorkers(
      {
        connection: nativeConnection,
        config,
        db: database.db,
        logger: logs.logger,
        workflowBundle: sharedWorkflowBundle(),
      },
      ['orders'],
    );
    const [worker] = workers as [Worker];
    const probes = await startWorkerHealthServer('127.0.0.1', 0, () => workers);
    const port = (probes.address() as AddressInfo).port;
    try {
      expect(await workerProbe(port, '/health/live')).toMatchObject({ status: 200 });
      expect(await workerProbe(port, '/health/ready')).toMatchObject({
        status: 503,
        body: { status: 'unavailable', workers: [{ taskQueue, state: 'INITIALIZED' }] },
      });
      const running = worker.run();
      await waitFor(
        'the worker to poll',
        async () => ((await workerProbe(port, '/health/ready')).status === 200 ? true : undefined),
        15_000,
      );
      worker.shutdown();
      expect((await workerProbe(port, '/health/ready')).status).toBe(503); // draining or drained
      await running;
      expect(await workerProbe(port, '/health/live')).toMatchObject({
        status: 503,
        body: { workers: [{ taskQueue, state: 'STOPPED' }] },
      });
      expect((await workerProbe(port, '/health/ready')).status).toBe(503);
    } finally {
      probes.close();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await nativeConnection.close();
    }
  }, 60_000);
});

describe('metrics', () => {
  let metricsServer: Server;
  let metricsUrl: string;
  beforeAll(async () => {
    // The API process's own port for /metrics (METRICS_PORT), as src/api/server.ts starts it.
    metricsServer = await startMetricsServer('127.0.0.1', 0, undefined);
    metricsUrl = `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}/metrics`;
  });
  afterAll(() => metricsServer?.close());

  it('serves Prometheus text on the metrics port: request counts by route pattern and status, latency, process metrics', async () => {
    const before = await scrape(metricsUrl);
    const liveBefore = requestCount(before, '/v1/health/live', '200');
    await fetch(`${base}/v1/health/live`);
    await fetch(`${base}/v1/health/live`);
    const orderId = '5b0f2a7e-8f8e-4f49-9a8e-1c1f3c6d2e11';
    const unauthorized = await fetch(`${base}/v1/orders/${orderId}`);
    expect(unauthorized.status).toBe(401);

    const after = await scrape(metricsUrl);
    expect(requestCount(after, '/v1/health/live', '200') - liveBefore).toBe(2);
    // The route pattern, never the raw path: the order id is nowhere in the labels.
    expect(requestCount(after, '/v1/orders/:id', '401')).toBeGreaterThanOrEqual(1);
    expect(after.some((s) => Object.values(s.labels).some((v) => v.includes(orderId)))).toBe(false);
    const latency = after.find(
      (s) =>
        s.name === 'http_request_duration_seconds_count' &&
        s.labels.route === '/v1/health/live' &&
        s.labels.method === 'GET',
    );
    expect(latency?.value).toBeGreaterThanOrEqual(2);
    expect(after.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(after.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
    // The business counters exist from the start (declared in src/observability/metrics.ts).
    const text = await (await fetch(metricsUrl)).text();
    for (const name of [
      'rescue_evaluates_total',
      'rescue_recovered_amount_total',
      'rescue_refunds_total',
      'rescue_webhook_attempts_total',
      'rescue_webhook_deliveries_failed_total',
      'rescue_webhook_endpoints_disabled_total',
    ]) {
      expect(text).toContain(`# TYPE ${name} counter`);
    }
  });

  it('is never served on the API port: /metrics there answers 404, and is counted as unmatched', async () => {
    const onApiPort = await fetch(`${base}/metrics`);
    expect(onApiPort.status).toBe(404);
    expect(await onApiPort.text()).not.toContain('http_requests_total');
    const samples = await scrape(metricsUrl);
    expect(requestCount(samples, 'unmatched', '404')).toBeGreaterThanOrEqual(1);
  });

  it('with METRICS_TOKEN a scrape of the metrics port needs the bearer token', async () => {
    const token = 'metrics-token-0123456789abcdef';
    const own = await startMetricsServer('127.0.0.1', 0, token);
    try {
      const ownUrl = `http://127.0.0.1:${(own.address() as AddressInfo).port}/metrics`;
      const refused = await fetch(ownUrl);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect((await fetch(ownUrl, { headers: { authorization: 'Bearer wrong-token-0123456789abc' } })).status).toBe(
        401,
      );
      const samples = await scrape(ownUrl, { authorization: `Bearer ${token}` });
      expect(samples.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
      // Only /metrics is served there.
      expect((await fetch(ownUrl.replace('/metrics', '/v1/health/live'))).status).toBe(404);
    } finally {
      own.close();
    }
  });
});

describe('npm run migrate', () => {
  it('applies nothing on an up-to-date schema, reports its status, frees a lock, exits 0', async () => {
    const run = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/migrate.ts', ...args], {
          cwd: ROOT,
          env: { ...env, DATABASE_URL: database.url },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        child.once('exit', (code) => resolve({ code, out }));
      });
    const latest = await run([]);
    expect(latest).toMatchObject({ code: 0 });
    expect(latest.out).toContain('schema up to date');
    const status = await run(['--status']);
    expect(status.code).toBe(0);
    expect(status.out).toMatch(/pending: none/);
    const unlock = await run(['--unlock']);
    expect(unlock).toMatchObject({ code: 0 });
    expect(unlock.out).toContain('migration lock freed');
    // The Helm Job is given DATABASE_URL alone, in production: no other setting is asked for.
    const { CARD_VAULT_KEYS: _, ...withoutVault } = process.env;
    const jobLike = await run([], { ...withoutVault, FC_ENVIRONMENT: 'production' });
    expect(jobLike).toMatchObject({ code: 0 });
    expect(jobLike.out).toContain('schema up to date');
  }, 60_000);
});
