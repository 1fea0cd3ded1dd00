import { randomUUID } from 'node:crypto';
import http, { type Server } from 'node:http';
import os from 'node:os';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import autocannon from 'autocannon';
import Koa from 'koa';
import { closeServer } from '../../src/api/server';
import { createDb, type Db } from '../../src/db/knex';
import { withCitChargeShapeSwitch } from './cit-charge-bundle';
import { LOCAL_CHARGE_PREFIX } from './cit-charge-marker';
import { coresBetween, cpuSnapshot } from './cpu-use';
import {
  FLOOR_CHARGE_PATH,
  FLOOR_CHARGE_RECORDED_PATH,
  FLOOR_OPEN_PATH,
  FLOOR_PATH,
  FLOOR_RECORDED_PATH,
  floorActivities,
  floorRoutes,
} from './floor-route';
import {
  checkInterrupted,
  commaList,
  HOST,
  isInterrupted,
  machineLine,
  onInterrupt,
  percentiles,
  portOf,
  positiveInt,
  post,
  registerStop,
  runBench,
  SANDBOX_CARDS,
  say,
  seedMerchant,
  startLocalStack,
  tokenizeCard,
} from './harness';

/**
 * `npm run bench:evaluate`: POST /v1/evaluate throughput and latency on a throw-away local stack
 * (embedded Postgres with durable settings, in-memory Temporal dev server, one worker, the API),
 * against yardsticks in the same run: the "Temporal floor" (an Update-With-Start of a trivial
 * workflow through the same app, worker and dev server), the floors of each evaluate's own shape
 * (SHAPED_FLOORS) and a bare Koa + one-INSERT baseline on the same Postgres. Closed-loop runs at each connection count, then open-loop runs at fixed
 * rates. Everything binds to 127.0.0.1 and everything it starts is stopped again, on failure and
 * on Ctrl-C too. docs/benchmarks.md.
 */

const SECONDS = positiveInt('BENCH_SECONDS', 10);
const CONNECTION_COUNTS = commaList('BENCH_CONNECTIONS', [1, 10]);
const OPEN_LOOP_RATES = commaList('BENCH_RATES', [20, 40]);
/** Which scenarios run, by key (e.g. BENCH_SCENARIOS=floor,cit for a profile); all by default. */
const ONLY = process.env.BENCH_SCENARIOS?.split(',').map((k) => k.trim().toLowerCase());
const WARMUP_SECONDS = 2;

/**
 * Each evaluate beside the floor of its own shape (scripts/bench/floor-workflow.ts): what Temporal
 * needs at the least for that flow, so the rest is what our code adds.
 */
const SHAPED_FLOORS = {
  cit: 'Temporal floor + activity',
  citRecorded: 'Temporal floor + activity, recorded',
  mit: 'Temporal floor, left open',
  mitRecorded: 'Temporal floor, left open, recorded',
} as const;
const EVALUATE_OF_SHAPE: Record<string, string> = {
  [SHAPED_FLOORS.cit]: 'CIT evaluate',
  [SHAPED_FLOORS.citRecorded]: 'CIT evaluate',
  [SHAPED_FLOORS.mit]: 'async MIT evaluate',
  [SHAPED_FLOORS.mitRecorded]: 'async MIT evaluate',
};

let load: autocannon.Instance | undefined;
/** SQL statements sent by the API's pool and the worker's, counted through knex's query event. */
const statements = { api: 0, worker: 0 };

interface Scenario {
  key:
    | 'base'
    | 'floor'
    | 'floor-charge'
    | 'floor-charge-recorded'
    | 'cit'
    | 'cit-local'
    | 'floor-open'
    | 'floor-recorded'
    | 'mit';
  name: string;
  url: string;
  headers: Record<string, string>;
  body: () => Record<string, unknown>;
  /** The outcome every answer must carry; anything else counts as a wrong answer. */
  outcome?: string;
}

interface Measured {
  name: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  wrong: number;
  statuses: string;
  /** This process's CPU (API, worker and load generator) per answered request, in ms. */
  nodeCpuMs: number;
  /** SQL statements per request, by pool. */
  sql: string;
  /** Where a request's time went on the worker side (the SDK's metrics), when measured. */
  worker?: string;
  /** CPU use during the run, in cores: per program of this benchmark, and everything else. */
  cpu: { programs: Record<string, number>; others: number } | undefined;
}

async function main(): Promise<void> {
  say(machineLine());
  say(
    `load: ${CONNECTION_COUNTS.join(' and ')} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per scenario; open loop at ${OPEN_LOOP_RATES.join(' and ')} req/s`,
  );

  const { config, apiUrl, apiDb, workerDb, pgUrl, logger, metricsUrl } = await startLocalStack({
    workflowsPath: require.resolve('./bench-workflows'),
    webpackConfigHook: withCitChargeShapeSwitch,
    extraActivities: floorActivities,
    extraRoutes: floorRoutes,
  });
  apiDb.on('query', () => {
    statements.api += 1;
  });
  workerDb.on('query', () => {
    statements.worker += 1;
  });
  const baselineDb = createDb(pgUrl, config.database.poolMax, logger);
  registerStop('baseline pool', () => baselineDb.destroy());
  const baseline = await startBaseline(baselineDb);
  registerStop('baseline app', () => closeServer(baseline));
  const baselineUrl = `http://${HOST}:${portOf(baseline)}`;

  const { bearer, tokenizationKey } = await seedMerchant(apiDb, apiUrl);
  const token = await tokenizeCard(apiUrl, tokenizationKey, SANDBOX_CARDS.approves);

  const citBody = () => ({
    idempotencyKey: randomUUID(),
    externalOrderId: `bench-${randomUUID()}`,
    transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
    paymentMethod: { token },
  });
  const mitBody = () => ({ ...citBody(), isMIT: true, isRecurring: true, subscription: { intervalCount: 1 } });
  const auth = { authorization: `Bearer ${bearer}` };
  const all: Scenario[] = [
    { key: 'base', name: 'baseline: Koa + 1 INSERT', url: `${baselineUrl}/baseline`, headers: {}, body: citBody },
    {
      key: 'floor',
      name: 'Temporal floor',
      url: `${apiUrl}${FLOOR_PATH}`,
      headers: {},
      body: citBody,
      outcome: 'FLOOR',
    },
    {
      key: 'floor-charge',
      name: SHAPED_FLOORS.cit,
      url: `${apiUrl}${FLOOR_CHARGE_PATH}`,
      headers: {},
      body: citBody,
      outcome: 'CHARGED',
    },
    {
      // Informative: Temporal's part of the CIT shape as shipped (not the issue's yardstick).
      key: 'floor-charge-recorded',
      name: SHAPED_FLOORS.citRecorded,
      url: `${apiUrl}${FLOOR_CHARGE_RECORDED_PATH}`,
      headers: {},
      body: citBody,
      outcome: 'CHARGED',
    },
    {
      key: 'cit',
      name: 'CIT evaluate',
      url: `${apiUrl}/v1/evaluate`,
      headers: auth,
      body: citBody,
      outcome: 'APPROVED',
    },
    {
      // The same CIT evaluate, its charge a local activity (scripts/bench/cit-charge-shape.ts).
      key: 'cit-local',
      name: 'CIT evaluate, local charge',
      url: `${apiUrl}/v1/evaluate`,
      headers: auth,
      body: () => ({ ...citBody(), externalOrderId: `${LOCAL_CHARGE_PREFIX}${randomUUID()}` }),
      outcome: 'APPROVED',
    },
    {
      key: 'floor-open',
      name: SHAPED_FLOORS.mit,
      url: `${apiUrl}${FLOOR_OPEN_PATH}`,
      headers: {},
      body: citBody,
      outcome: 'FLOOR',
    },
    {
      // Informative: Temporal's part of the async MIT shape as shipped (not the issue's yardstick).
      key: 'floor-recorded',
      name: SHAPED_FLOORS.mitRecorded,
      url: `${apiUrl}${FLOOR_RECORDED_PATH}`,
      headers: {},
      body: citBody,
      outcome: 'FLOOR',
    },
    {
      key: 'mit',
      name: 'async MIT evaluate',
      url: `${apiUrl}/v1/evaluate`,
      headers: auth,
      body: mitBody,
      outcome: 'SUBMITTED',
    },
  ];
  const scenarios = all.filter((s) => !ONLY || ONLY.includes(s.key));

  // One request each first: a wrong body or a broken stack fails here, not as 10 s of errors.
  for (const s of scenarios) {
    const res = await post(s.url, s.headers, s.body());
    if (res.status !== 200 || (s.outcome && res.body.outcome !== s.outcome)) {
      throw new Error(`${s.name}: smoke request answered ${res.status} ${JSON.stringify(res.body)}`);
    }
  }

  // Async MIT orders retry a minute after they are accepted (the production schedule), inside this
  // process: measured last, so their retries cannot load the other rows or the open loop. Their
  // floor is measured just before them, as CIT's is: this machine's speed drifts over minutes, and
  // a ratio is only as good as the two rows' closeness in time.
  const results: Measured[] = [];
  const closedLoop = async (rows: Scenario[]) => {
    for (const connections of CONNECTION_COUNTS) {
      for (const s of rows) results.push(await closedLoopRow(s, connections));
    }
  };
  const lastPair = (s: Scenario) => s.key === 'floor-open' || s.key === 'floor-recorded' || s.key === 'mit';
  await closedLoop(scenarios.filter((s) => !lastPair(s)));

  const open: OpenLoopMeasured[] = [];
  const openScenarios = scenarios.filter(
    (s) => s.key === 'floor' || s.key === 'floor-charge' || s.key === 'cit' || s.key === 'cit-local',
  );
  for (const rate of OPEN_LOOP_RATES) {
    for (const s of openScenarios) {
      say(`${s.name}: open loop at ${rate} req/s for ${SECONDS} s`);
      open.push(await openLoop(s, rate, SECONDS));
      await drain(apiDb);
      checkInterrupted();
    }
  }

  await closedLoop(scenarios.filter(lastPair));
  printTable(results);
  printShapedFloors(results);
  printOpenLoop(open);

  async function closedLoopRow(s: Scenario, connections: number): Promise<Measured> {
    say(`${s.name}, ${connections} connections: warm-up ${WARMUP_SECONDS} s`);
    const warm = await measure(s, WARMUP_SECONDS, connections);
    if (warm.errors + warm.non2xx + warm.wrong > 0) {
      say(`  warm-up: ${warm.errors} errors, ${warm.non2xx} non-2xx, ${warm.wrong} wrong answers (${warm.statuses})`);
    }
    checkInterrupted();
    await drain(apiDb);
    checkInterrupted();
    say(`${s.name}, ${connections} connections: measuring ${SECONDS} s`);
    const before = await scrape(metricsUrl);
    const measured = await measure(s, SECONDS, connections);
    measured.worker = workerTimes(before, await scrape(metricsUrl), measured.rps * SECONDS);
    await drain(apiDb);
    checkInterrupted();
    return measured;
  }
}

/** One autocannon run; every request gets a fresh body (unique idempotencyKey and externalOrderId). */
async function measure(s: Scenario, seconds: number, connections: number): Promise<Measured> {
  let wrong = 0;
  // autocannon's histogram keeps whole milliseconds, too coarse for the baseline: keep the exact
  // response times of the 2xx answers (as autocannon does) and take the percentiles here.
  const latencies: number[] = [];
  const cpuBefore = cpuSnapshot();
  const nodeBefore = process.cpuUsage();
  const sqlBefore = { ...statements };
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    // The callback form: it returns the instance, whose stop() a signal needs.
    const instance = autocannon(
      {
        url: s.url,
        method: 'POST',
        connections,
        duration: seconds,
        headers: { 'content-type': 'application/json', ...s.headers },
        requests: [
          {
            setupRequest: (request) => ({ ...request, body: JSON.stringify(s.body()) }),
            onResponse: (status, body) => {
              if (status >= 200 && status < 300 && s.outcome && !body.includes(`"outcome":"${s.outcome}"`)) wrong += 1;
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status >= 200 && status < 300) latencies.push(responseTime);
    });
    load = instance;
  }).finally(() => {
    load = undefined;
  });
  const nodeUsed = process.cpuUsage(nodeBefore);
  const cpuAfter = cpuSnapshot();
  const percentile = percentiles(latencies);
  const perRequest = (n: number) => (n / Math.max(1, r.requests.total)).toFixed(1);
  const statuses = Object.entries(r.statusCodeStats ?? {})
    .map(([code, { count }]) => `${code}: ${count ?? 0}`)
    .join(', ');
  return {
    name: s.name,
    connections,
    nodeCpuMs: (nodeUsed.user + nodeUsed.system) / 1000 / Math.max(1, r.requests.total),
    sql: `API ${perRequest(statements.api - sqlBefore.api)}, worker ${perRequest(statements.worker - sqlBefore.worker)}`,
    // Completed requests over the run's duration: autocannon's per-second mean counts a partial last second.
    rps: r.requests.total / r.duration,
    p50: percentile(50),
    p99: percentile(99),
    errors: r.errors,
    non2xx: r.non2xx,
    wrong,
    statuses,
    cpu: cpuBefore && cpuAfter ? coresBetween(cpuBefore, cpuAfter) : undefined,
  };
}

/** Cores per program and, at the measured rate, CPU milliseconds per request. */
function cpuLine(cpu: NonNullable<Measured['cpu']>, rps: number): string {
  const programs = Object.entries(cpu.programs).sort(([, a], [, b]) => b - a);
  const perRequest = programs.map(([name, cores]) => `${name} ${((cores * 1000) / rps).toFixed(2)}`).join(', ');
  return `${programs.map(([name, cores]) => `${name} ${cores.toFixed(2)}`).join(', ')}; other processes ${cpu.others.toFixed(2)} | CPU ms per request: ${perRequest}`;
}

const ratio = (x: number, y: number | undefined) => (y && y > 0 ? `${(x / y).toPrecision(3)}x` : 'n/a');
const ms = (v: number) => v.toFixed(v < 10 ? 2 : 1);

/** A markdown table, numbers right-aligned. */
function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  return [
    line(header),
    `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...rows.map(line),
  ];
}

/** Percentiles of a list of latencies (nearest rank). */
/** Each row beside the floor and the baseline measured at the same connection count. */
function printTable(results: Measured[]): void {
  const header = [
    'scenario',
    'conns',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'Node CPU ms/req',
    'req/s vs floor',
    'p50 vs floor',
    'p99 vs floor',
    'CPU vs floor',
    'req/s vs base',
    'p50 vs base',
    'p99 vs base',
  ];
  const rows = results.map((r) => {
    const same = results.filter((x) => x.connections === r.connections);
    const base = same.find((x) => x.name.startsWith('baseline'));
    const floor = same.find((x) => x.name === 'Temporal floor');
    const vsFloor =
      r === floor || r === base
        ? ['-', '-', '-', '-']
        : [
            ratio(r.rps, floor?.rps),
            ratio(r.p50, floor?.p50),
            ratio(r.p99, floor?.p99),
            ratio(r.nodeCpuMs, floor?.nodeCpuMs),
          ];
    const vsBase =
      r === base ? ['-', '-', '-'] : [ratio(r.rps, base?.rps), ratio(r.p50, base?.p50), ratio(r.p99, base?.p99)];
    return [
      r.name,
      String(r.connections),
      r.rps.toFixed(1),
      ms(r.p50),
      ms(r.p99),
      String(r.errors + r.non2xx + r.wrong),
      r.nodeCpuMs.toFixed(2),
      ...vsFloor,
      ...vsBase,
    ];
  });
  const out = [
    '',
    ...table(header, rows),
    '',
    ...results.flatMap((r) => [
      `${r.name}, ${r.connections} connections: status codes ${r.statuses || 'none'}`,
      `  CPU, cores: ${r.cpu ? cpuLine(r.cpu, r.rps) : 'not measured (not Linux)'}`,
      `  SQL statements per request: ${r.sql}`,
      ...(r.worker ? [`  worker, per request: ${r.worker}`] : []),
    ]),
    `${SECONDS} s per scenario after ${WARMUP_SECONDS} s warm-up; errors = transport errors + non-2xx + wrong answers; Node CPU = this process (API, worker, load generator); ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}`,
    '',
  ];
  process.stdout.write(out.join('\n'));
  const failed = results.filter((r) => r.errors + r.non2xx + r.wrong > 0);
  if (failed.length) say(`WARNING: errors, non-2xx or wrong answers in: ${failed.map((r) => r.name).join(', ')}`);
  const disturbed = results.filter((r) => (r.cpu?.others ?? 0) > 0.1);
  if (disturbed.length) {
    say(`WARNING: other processes used CPU during: ${disturbed.map((r) => r.name).join(', ')} (numbers are low)`);
  }
}

/** Histogram sums and counts of the SDK's metrics, by metric name and operation / task queue kind. */
type Histograms = Map<string, { sum: number; count: number }>;
async function scrape(url: string): Promise<Histograms> {
  const out: Histograms = new Map();
  const text = await fetch(url)
    .then((r) => r.text())
    .catch(() => '');
  for (const line of text.split('\n')) {
    const m = /^temporal_(\w+?)_(sum|count)(?:\{([^}]*)\})? ([0-9.e+-]+)$/.exec(line);
    if (!m) continue;
    const [, name, part, labels = '', value] = m;
    const operation = /operation="([^"]+)"/.exec(labels)?.[1];
    // Durations in seconds or milliseconds, depending on the SDK's settings: kept in seconds.
    const unit = /_(seconds|milliseconds)$/.exec(name as string);
    const base = unit ? (name as string).slice(0, unit.index) : (name as string);
    const key = operation ? `${base}{${operation}}` : base;
    const entry = out.get(key) ?? { sum: 0, count: 0 };
    const scale = part === 'sum' && unit?.[1] === 'milliseconds' ? 1 / 1000 : 1;
    entry[part as 'sum' | 'count'] += Number(value) * scale;
    out.set(key, entry);
  }
  return out;
}

/**
 * Worker-side account of a run: mean workflow task schedule-to-start (the server's matching until
 * a poller took the task), mean workflow task execution (the SDK and our workflow code), tasks per
 * request, local activity time, and the RPCs the worker made (completing a task is the server's
 * history write).
 */
function workerTimes(before: Histograms, after: Histograms, requests: number): string | undefined {
  if (!after.size || requests <= 0) return undefined;
  const parts: string[] = [];
  for (const [key, label] of [
    ['workflow_task_schedule_to_start_latency', 'WFT schedule-to-start'],
    ['workflow_task_execution_latency', 'WFT execution'],
    ['local_activity_execution_latency', 'local activity'],
    ['activity_execution_latency', 'activity'],
    ['request_latency{RespondWorkflowTaskCompleted}', 'RespondWorkflowTaskCompleted'],
    ['request_latency{RespondActivityTaskCompleted}', 'RespondActivityTaskCompleted'],
  ] as const) {
    const a = after.get(key);
    const b = before.get(key) ?? { sum: 0, count: 0 };
    if (!a || a.count <= b.count) continue;
    const n = a.count - b.count;
    parts.push(`${label} ${(((a.sum - b.sum) / n) * 1000).toFixed(1)} ms x ${(n / requests).toFixed(2)}`);
  }
  return parts.join(', ');
}

interface OpenLoopMeasured {
  name: string;
  rate: number;
  sent: number;
  answered: number;
  failed: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
  nodeCpuMs: number;
  cpu: Measured['cpu'];
}

/**
 * Open loop: requests leave on a fixed schedule (one every 1000/rate ms) whether or not earlier
 * ones have been answered, as merchants' checkouts arrive; each latency runs from the request's
 * scheduled time, so a stalled server shows as latency (no coordinated omission).
 */
async function openLoop(s: Scenario, rate: number, seconds: number): Promise<OpenLoopMeasured> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
  const total = rate * seconds;
  const latencies: number[] = [];
  let failed = 0;
  const cpuBefore = cpuSnapshot();
  const nodeBefore = process.cpuUsage();
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total && !isInterrupted(); i++) {
    const scheduled = started + (i * 1000) / rate;
    const wait = scheduled - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    inFlight.push(
      send(agent, s).then(
        (ok) => {
          if (ok) latencies.push(performance.now() - scheduled);
          else failed += 1;
        },
        () => {
          failed += 1;
        },
      ),
    );
  }
  await Promise.all(inFlight);
  const nodeUsed = process.cpuUsage(nodeBefore);
  const cpuAfter = cpuSnapshot();
  agent.destroy();
  const p = percentiles(latencies);
  return {
    name: s.name,
    rate,
    sent: inFlight.length,
    answered: latencies.length,
    failed,
    p50: p(50),
    p99: p(99),
    p999: p(99.9),
    max: p(100),
    nodeCpuMs: (nodeUsed.user + nodeUsed.system) / 1000 / Math.max(1, inFlight.length),
    cpu: cpuBefore && cpuAfter ? coresBetween(cpuBefore, cpuAfter) : undefined,
  };
}

/** One request; true when answered 2xx with the expected outcome. */
function send(agent: http.Agent, s: Scenario): Promise<boolean> {
  const payload = JSON.stringify(s.body());
  return new Promise((resolve, reject) => {
    const req = http.request(
      s.url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...s.headers },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          body += chunk;
        });
        res.on('end', () => {
          const ok = (res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300;
          resolve(ok && (!s.outcome || body.includes(`"outcome":"${s.outcome}"`)));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** CPU ms per request of every program of the run (Node, Temporal, Postgres), from /proc. */
function allCpuMs(r: Measured): number | undefined {
  if (!r.cpu || r.rps <= 0) return undefined;
  return (Object.values(r.cpu.programs).reduce((a, b) => a + b, 0) * 1000) / r.rps;
}

/** Each evaluate against the floor of its own shape, at the same connection count. */
function printShapedFloors(results: Measured[]): void {
  const rows = results.flatMap((floor) => {
    const evaluate = results.find(
      (r) => r.connections === floor.connections && r.name === EVALUATE_OF_SHAPE[floor.name],
    );
    if (!evaluate) return [];
    const [cpu, floorCpu] = [allCpuMs(evaluate), allCpuMs(floor)];
    return [
      [
        evaluate.name,
        String(floor.connections),
        floor.name,
        floor.rps.toFixed(1),
        ms(floor.p50),
        ratio(evaluate.rps, floor.rps),
        ratio(evaluate.p50, floor.p50),
        ratio(evaluate.p99, floor.p99),
        ratio(evaluate.nodeCpuMs, floor.nodeCpuMs),
        cpu === undefined || floorCpu === undefined ? 'n/a' : ratio(cpu, floorCpu),
      ],
    ];
  });
  if (!rows.length) return;
  const header = [
    'against its own shape',
    'conns',
    'floor of that shape',
    'its req/s',
    'its p50 ms',
    'req/s vs it',
    'p50 vs it',
    'p99 vs it',
    'Node CPU vs it',
    'all CPU vs it',
  ];
  process.stdout.write(
    [
      '',
      ...table(header, rows),
      '',
      'all CPU = Node, Temporal and Postgres per request (/proc); the shaped floors: scripts/bench/floor-workflow.ts',
      '',
    ].join('\n'),
  );
}

function printOpenLoop(results: OpenLoopMeasured[]): void {
  const header = [
    'open loop',
    'req/s',
    'sent',
    'failed',
    'p50 ms',
    'p99 ms',
    'p99.9 ms',
    'max ms',
    'Node CPU ms/req',
    'p50 vs floor',
    'p99 vs floor',
    'p99.9 vs floor',
  ];
  const rows = results.map((r) => {
    const floor = results.find((x) => x.rate === r.rate && x.name === 'Temporal floor');
    const vs =
      r === floor ? ['-', '-', '-'] : [ratio(r.p50, floor?.p50), ratio(r.p99, floor?.p99), ratio(r.p999, floor?.p999)];
    return [
      r.name,
      String(r.rate),
      String(r.sent),
      String(r.failed),
      ms(r.p50),
      ms(r.p99),
      ms(r.p999),
      ms(r.max),
      r.nodeCpuMs.toFixed(2),
      ...vs,
    ];
  });
  const out = [
    '',
    ...table(header, rows),
    '',
    ...results.map(
      (r) => `${r.name} at ${r.rate} req/s: CPU, cores: ${r.cpu ? cpuLine(r.cpu, r.rate) : 'not measured'}`,
    ),
    ...results.flatMap((floor) => {
      const evaluate = results.find((r) => r.rate === floor.rate && r.name === EVALUATE_OF_SHAPE[floor.name]);
      return evaluate
        ? [
            `${evaluate.name} against ${floor.name} at ${floor.rate} req/s: p50 ${ratio(evaluate.p50, floor.p50)}, p99 ${ratio(evaluate.p99, floor.p99)}, p99.9 ${ratio(evaluate.p999, floor.p999)}`,
          ]
        : [];
    }),
    '',
  ];
  process.stdout.write(out.join('\n'));
}

/**
 * When a run ends, autocannon drops its connections with requests still in flight; their handlers
 * carry on (Update-With-Start, idempotency writes). Waiting for their idempotency claims to settle
 * keeps that tail out of the next scenario, and keeps shutdown from closing the Temporal client
 * under a call still in flight.
 */
async function drain(db: Db, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await db('idempotency_keys').where({ state: 'in_flight' }).count<{ count: number }[]>('* as count');
    if (!row?.count || isInterrupted()) return;
    if (Date.now() > deadline) {
      say(`WARNING: ${row.count} evaluate requests still in flight after ${timeoutMs / 1000} s`);
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The baseline: what one HTTP round trip with a parsed JSON body and one committed INSERT costs. */
async function startBaseline(db: Db): Promise<Server> {
  await db.raw(
    'create table if not exists bench_baseline (id uuid primary key, body jsonb not null, created_at timestamptz not null)',
  );
  const router = new Router();
  router.post('/baseline', async (ctx) => {
    const id = randomUUID();
    await db('bench_baseline').insert({ id, body: ctx.request.body, created_at: new Date() });
    ctx.body = { id };
  });
  const app = new Koa();
  app.use(bodyParser()).use(router.routes());
  const server = app.listen(0, HOST);
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  return server;
}

onInterrupt(() => load?.stop());
runBench(main);
