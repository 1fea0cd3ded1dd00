import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import os from 'node:os';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import autocannon from 'autocannon';
import Koa from 'koa';
import { closeServer } from '../../src/api/server';
import { createDb, type Db } from '../../src/db/knex';
import {
  checkInterrupted,
  HOST,
  isInterrupted,
  machineLine,
  onInterrupt,
  portOf,
  positiveInt,
  post,
  registerStop,
  runBench,
  say,
  seedMerchant,
  startLocalStack,
} from './harness';

/**
 * `npm run bench:evaluate`: POST /v1/evaluate throughput and latency on a throw-away local stack
 * (embedded Postgres with durable settings, in-memory Temporal dev server, one worker, the API),
 * against a bare Koa + one-INSERT baseline on the same Postgres. Everything binds to 127.0.0.1
 * and everything it starts is stopped again, on failure and on Ctrl-C too. docs/benchmarks.md.
 */

const SECONDS = positiveInt('BENCH_SECONDS', 10);
const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
const WARMUP_SECONDS = 2;
const TEST_CARD = '4111111111111111'; // sandbox: approves (docs/sandbox.md)
const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ of /proc on every Linux architecture Node runs on

let load: autocannon.Instance | undefined;

interface Scenario {
  name: string;
  url: string;
  headers: Record<string, string>;
  body: () => Record<string, unknown>;
  /** The outcome every answer must carry; anything else counts as a wrong answer. */
  outcome?: string;
}

interface Measured {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  wrong: number;
  statuses: string;
  /** CPU use during the run, in cores: per program of this benchmark, and everything else. */
  cpu: { programs: Record<string, number>; others: number } | undefined;
}

async function main(): Promise<void> {
  say(machineLine());
  say(`load: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per scenario`);

  const { config, apiUrl, apiDb, pgUrl, logger } = await startLocalStack();
  const baselineDb = createDb(pgUrl, config.database.poolMax, logger);
  registerStop('baseline pool', () => baselineDb.destroy());
  const baseline = await startBaseline(baselineDb);
  registerStop('baseline app', () => closeServer(baseline));
  const baselineUrl = `http://${HOST}:${portOf(baseline)}`;

  const { bearer, tokenizationKey } = await seedMerchant(apiDb, apiUrl);
  const card = await post(
    `${apiUrl}/v1/tokenize`,
    { 'x-tokenization-key': tokenizationKey },
    {
      cardNumber: TEST_CARD,
      expiryMonth: 12,
      expiryYear: new Date().getUTCFullYear() + 1,
    },
  );
  if (card.status !== 201 || typeof card.body.token !== 'string') {
    throw new Error(`tokenize failed: ${card.status} ${JSON.stringify(card.body)}`);
  }
  const token = card.body.token;

  const citBody = () => ({
    idempotencyKey: randomUUID(),
    externalOrderId: `bench-${randomUUID()}`,
    transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
    paymentMethod: { token },
  });
  const mitBody = () => ({ ...citBody(), isMIT: true, isRecurring: true, subscription: { intervalCount: 1 } });
  const auth = { authorization: `Bearer ${bearer}` };
  const scenarios: Scenario[] = [
    { name: 'baseline: Koa + 1 INSERT', url: `${baselineUrl}/baseline`, headers: {}, body: citBody },
    { name: 'CIT evaluate', url: `${apiUrl}/v1/evaluate`, headers: auth, body: citBody, outcome: 'APPROVED' },
    { name: 'async MIT evaluate', url: `${apiUrl}/v1/evaluate`, headers: auth, body: mitBody, outcome: 'SUBMITTED' },
  ];

  // One request each first: a wrong body or a broken stack fails here, not as 10 s of errors.
  for (const s of scenarios) {
    const res = await post(s.url, s.headers, s.body());
    if (res.status !== 200 || (s.outcome && res.body.outcome !== s.outcome)) {
      throw new Error(`${s.name}: smoke request answered ${res.status} ${JSON.stringify(res.body)}`);
    }
  }

  const results: Measured[] = [];
  for (const s of scenarios) {
    say(`${s.name}: warm-up ${WARMUP_SECONDS} s`);
    const warm = await measure(s, WARMUP_SECONDS);
    if (warm.errors + warm.non2xx + warm.wrong > 0) {
      say(`  warm-up: ${warm.errors} errors, ${warm.non2xx} non-2xx, ${warm.wrong} wrong answers (${warm.statuses})`);
    }
    checkInterrupted();
    await drain(apiDb);
    checkInterrupted();
    say(`${s.name}: measuring ${SECONDS} s`);
    results.push(await measure(s, SECONDS));
    await drain(apiDb);
    checkInterrupted();
  }
  printTable(results);
}

/** One autocannon run; every request gets a fresh body (unique idempotencyKey and externalOrderId). */
async function measure(s: Scenario, seconds: number): Promise<Measured> {
  let wrong = 0;
  // autocannon's histogram keeps whole milliseconds, too coarse for the baseline: keep the exact
  // response times of the 2xx answers (as autocannon does) and take the percentiles here.
  const latencies: number[] = [];
  const cpuBefore = cpuSnapshot();
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    // The callback form: it returns the instance, whose stop() a signal needs.
    const instance = autocannon(
      {
        url: s.url,
        method: 'POST',
        connections: CONNECTIONS,
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
  const cpuAfter = cpuSnapshot();
  latencies.sort((a, b) => a - b);
  const percentile = (p: number) => latencies[Math.max(0, Math.ceil((p / 100) * latencies.length) - 1)] ?? Number.NaN;
  const statuses = Object.entries(r.statusCodeStats ?? {})
    .map(([code, { count }]) => `${code}: ${count ?? 0}`)
    .join(', ');
  return {
    name: s.name,
    // Completed requests over the run's duration: autocannon's per-second mean counts a partial last second.
    rps: r.requests.total / r.duration,
    p50: percentile(50),
    p99: percentile(99),
    errors: r.errors,
    non2xx: r.non2xx,
    wrong,
    statuses,
    cpu: cpuBefore && cpuAfter ? cpuUse(cpuBefore, cpuAfter) : undefined,
  };
}

/** Cores per program and, at the measured rate, CPU milliseconds per request. */
function cpuLine(cpu: NonNullable<Measured['cpu']>, rps: number): string {
  const programs = Object.entries(cpu.programs).sort(([, a], [, b]) => b - a);
  const perRequest = programs.map(([name, cores]) => `${name} ${((cores * 1000) / rps).toFixed(2)}`).join(', ');
  return `${programs.map(([name, cores]) => `${name} ${cores.toFixed(2)}`).join(', ')}; other processes ${cpu.others.toFixed(2)} | CPU ms per request: ${perRequest}`;
}

function printTable(results: Measured[]): void {
  const base = results[0] as Measured;
  const ratio = (x: number, y: number) => (y > 0 ? `${(x / y).toPrecision(3)}x` : 'n/a');
  const ms = (v: number) => v.toFixed(v < 10 ? 2 : 1);
  const header = [
    'scenario',
    'req/s',
    'p50 ms',
    'p99 ms',
    'errors',
    'non-2xx',
    'wrong',
    'req/s vs base',
    'p50 vs base',
    'p99 vs base',
  ];
  const rows = results.map((r) => [
    r.name,
    r.rps.toFixed(1),
    ms(r.p50),
    ms(r.p99),
    String(r.errors),
    String(r.non2xx),
    String(r.wrong),
    r === base ? '-' : ratio(r.rps, base.rps),
    r === base ? '-' : ratio(r.p50, base.p50),
    r === base ? '-' : ratio(r.p99, base.p99),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ')} |`;
  const out = [
    '',
    line(header),
    `|${widths.map((w, i) => (i === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...rows.map(line),
    '',
    ...results.flatMap((r) => [
      `${r.name}: status codes ${r.statuses || 'none'}`,
      `  CPU, cores: ${r.cpu ? cpuLine(r.cpu, r.rps) : 'not measured (not Linux)'}`,
    ]),
    `${CONNECTIONS} connections, ${SECONDS} s per scenario after ${WARMUP_SECONDS} s warm-up; ${os.cpus().length} CPUs, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}`,
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

/**
 * CPU time so far (Linux /proc, in clock ticks): the whole machine's busy time, and that of each
 * program of this benchmark (this process and its descendants: Postgres, the Temporal dev server).
 * Over a run, it shows where the CPU went, and what other processes took on a shared machine.
 */
interface CpuSnapshot {
  at: number;
  machine: number;
  ours: Map<string, number>;
}
function cpuSnapshot(): CpuSnapshot | undefined {
  try {
    const cpu = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
    const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0); // idle + iowait
    const machine = cpu.reduce((a, b) => a + b, 0) - idle;
    const procs = readdirSync('/proc')
      .filter((d) => /^\d+$/.test(d))
      .flatMap((pid) => procStat(pid) ?? []);
    const children = new Map<number, typeof procs>();
    for (const p of procs) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p]);
    const ours = new Map<string, number>();
    const todo = procs.filter((p) => p.pid === process.pid);
    for (let p = todo.pop(); p; p = todo.pop()) {
      ours.set(p.comm, (ours.get(p.comm) ?? 0) + p.ticks);
      todo.push(...(children.get(p.pid) ?? []));
    }
    return { at: performance.now(), machine, ours };
  } catch {
    return undefined; // not Linux: the table goes without it
  }
}

/** Program name, parent and user + system CPU ticks of a process; undefined once it is gone. */
function procStat(pid: string): { pid: number; ppid: number; comm: string; ticks: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const comm = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
    return { pid: Number(pid), ppid: Number(fields[1]), comm, ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

/** Cores used between two snapshots: per program of this benchmark, and by everything else. */
function cpuUse(before: CpuSnapshot, after: CpuSnapshot): Measured['cpu'] {
  const ticks = ((after.at - before.at) / 1000) * CLOCK_TICKS_PER_SECOND;
  const programs: Record<string, number> = {};
  let ours = 0;
  for (const [comm, total] of after.ours) {
    const used = (total - (before.ours.get(comm) ?? 0)) / ticks;
    ours += used;
    if (used >= 0.005) programs[comm] = used;
  }
  return { programs, others: Math.max(0, (after.machine - before.machine) / ticks - ours) };
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
