import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { bodyParser } from '@koa/bodyparser';
import Router from '@koa/router';
import type { Worker } from '@temporalio/worker';
import { NativeConnection } from '@temporalio/worker';
import autocannon from 'autocannon';
import Koa from 'koa';
import { closeServer, listen } from '../../src/api/server';
import { loadConfig } from '../../src/config';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres';
import { createDb, type Db } from '../../src/db/knex';
import { migrateToLatest } from '../../src/db/migrate';
import { createApiKey } from '../../src/db/repositories/api-keys';
import { SCOPES } from '../../src/domain/scopes';
import { generateSecret, hashSecret } from '../../src/domain/secrets';
import { createLogger } from '../../src/logger';
import { startOutboxRelay } from '../../src/outbox-relay';
import { connectTemporalClient } from '../../src/temporal/connect';
import { registerSearchAttributes } from '../../src/temporal/search-attributes';
import { createWorker, installTemporalLogging } from '../../src/worker';
import { ensureTemporalCli } from '../tools/temporal-cli';
import { startTemporalDevServer } from '../tools/temporal-dev-server';

/**
 * `npm run bench:evaluate`: POST /v1/evaluate throughput and latency on a throw-away local stack
 * (embedded Postgres with durable settings, in-memory Temporal dev server, one worker, the API),
 * against a bare Koa + one-INSERT baseline on the same Postgres. Everything binds to 127.0.0.1
 * and everything it starts is stopped again, on failure and on Ctrl-C too. docs/benchmarks.md.
 */

const SECONDS = positiveInt('BENCH_SECONDS', 10);
const CONNECTIONS = positiveInt('BENCH_CONNECTIONS', 10);
const WARMUP_SECONDS = 2;
const HOST = '127.0.0.1';
const TEST_CARD = '4111111111111111'; // sandbox: approves (docs/sandbox.md)
const CLOCK_TICKS_PER_SECOND = 100; // USER_HZ of /proc on every Linux architecture Node runs on

const stops: Array<{ name: string; stop: () => Promise<unknown> }> = [];
let load: autocannon.Instance | undefined;
const say = (line: string) => process.stdout.write(`[bench] ${line}\n`);

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
  say(
    `machine: ${os.cpus().length} CPUs (${os.cpus()[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, Node ${process.version}, ${os.platform()} ${os.release()}`,
  );
  say(`load: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${SECONDS} s per scenario`);

  const workDir = await mkdtemp(path.join(os.tmpdir(), 'prs-bench-'));
  stops.push({ name: 'temp directory', stop: () => rm(workDir, { recursive: true, force: true }) });
  await chmod(workDir, 0o755); // as root, Postgres runs as the postgres user and must reach its cluster

  const config = loadConfig({
    FC_ENVIRONMENT: 'sandbox',
    HOST,
    LOG_LEVEL: 'warn',
    DATABASE_POOL_MAX: process.env.DATABASE_POOL_MAX,
    TEMPORAL_TASK_QUEUE: `bench-${randomUUID()}`,
    // The benchmark measures the service, not the per-merchant limiter: the schema's maximum.
    RATE_LIMIT_BURST: '100000',
    RATE_LIMIT_PER_SECOND: '100000',
  });
  const logger = createLogger({ level: config.logLevel, name: 'bench' });

  say('starting embedded Postgres and the Temporal dev server');
  // allSettled, not all: when one fails, the other must be registered for stopping before we unwind.
  const [pgStarted, temporalStarted] = await Promise.allSettled([
    (async () => {
      const directory = path.join(workDir, 'postgres');
      const pg = await startEmbeddedPostgres({
        directory,
        port: await freePort(),
        database: 'payment_rescue',
        unsafeFast: false, // fsync and synchronous commit on: the numbers include real commits
      });
      // Ctrl-C reaches Postgres too, and embedded-postgres's stop() waits forever for the exit of
      // a server that has already gone: Postgres removes postmaster.pid once it is down.
      const running = () => existsSync(path.join(directory, 'cluster', 'postmaster.pid'));
      stops.push({ name: 'embedded Postgres', stop: async () => (running() ? pg.stop() : undefined) });
      return pg;
    })(),
    (async () => {
      const cliPath = await ensureTemporalCli();
      if (!cliPath) throw new Error('no Temporal CLI (run `npm run tools` or set TEMPORAL_CLI_PATH)');
      const server = await startTemporalDevServer({
        cliPath,
        port: await freePort(),
        namespace: config.temporal.namespace,
        logFile: path.join(workDir, 'temporal.log'),
      });
      stops.push({ name: 'Temporal dev server', stop: () => server.stop() });
      return server;
    })(),
  ]);
  if (pgStarted.status === 'rejected') throw pgStarted.reason;
  if (temporalStarted.status === 'rejected') throw temporalStarted.reason;
  const [pg, temporal] = [pgStarted.value, temporalStarted.value];
  checkInterrupted();

  // Two pools, as in production where the API and the worker are separate processes.
  const apiDb = createDb(pg.url, config.database.poolMax, logger);
  const workerDb = createDb(pg.url, config.database.poolMax, logger);
  stops.push({ name: 'database pools', stop: () => Promise.all([apiDb.destroy(), workerDb.destroy()]) });
  await migrateToLatest(apiDb);

  const { connection, client } = await connectTemporalClient(temporal.address, config.temporal.namespace);
  stops.push({ name: 'Temporal client', stop: () => connection.close() });
  await registerSearchAttributes(connection, config.temporal.namespace);

  say('worker: bundling workflows and starting');
  installTemporalLogging(logger);
  const nativeConnection = await NativeConnection.connect({ address: temporal.address });
  const worker: Worker = await createWorker({
    connection: nativeConnection,
    config: { ...config, environment: 'sandbox' },
    db: workerDb,
    logger,
  });
  const running = worker.run();
  running.catch(() => {}); // awaited (and reported) when stopping; never an unhandled rejection
  // The outbox relay runs beside every worker (as in `npm start`): its event polling is part of the load.
  const relay = startOutboxRelay({ db: workerDb, client, taskQueue: config.temporal.taskQueue, logger });
  stops.push({
    name: 'worker',
    stop: async () => {
      await relay.stop();
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await nativeConnection.close();
    },
  });

  const api = await listen(
    { config, db: apiDb, temporal: connection, temporalClient: client, logger },
    HOST,
    0, // an ephemeral port: never collides with a running `npm start`
  );
  stops.push({ name: 'API', stop: () => closeServer(api) });
  const apiUrl = `http://${HOST}:${portOf(api)}`;
  checkInterrupted();

  const baselineDb = createDb(pg.url, config.database.poolMax, logger);
  stops.push({ name: 'baseline pool', stop: () => baselineDb.destroy() });
  const baseline = await startBaseline(baselineDb);
  stops.push({ name: 'baseline app', stop: () => closeServer(baseline) });
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
    rps: r.requests.average,
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
    if (!row?.count || interrupted) return;
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

/** A partner, merchant and tokenization key (as onboarding would), a merchant API key, its bearer token. */
async function seedMerchant(db: Db, apiUrl: string): Promise<{ bearer: string; tokenizationKey: string }> {
  const [partner] = await db('partners').insert({ name: 'Bench Partner' }).returning('id');
  const [merchant] = await db('merchants').insert({ partner_id: partner.id, name: 'Bench Merchant' }).returning('id');
  const tokenizationKey = generateSecret('tk_sandbox');
  await db('tokenization_keys').insert({ merchant_id: merchant.id, key_hash: hashSecret(tokenizationKey) });
  const { row, secret } = await createApiKey(db, {
    ownerType: 'merchant',
    partnerId: partner.id,
    merchantId: merchant.id,
    name: 'bench key',
    scopes: [...SCOPES],
    environment: 'sandbox',
  });
  const res = await post(
    `${apiUrl}/v1/oauth2/token`,
    {},
    { grant_type: 'client_credentials', client_id: row.id, client_secret: secret },
  );
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { bearer: String(res.body.access_token), tokenizationKey };
}

async function post(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

function portOf(server: Server): number {
  return (server.address() as net.AddressInfo).port;
}

/** A TCP port that was free a moment ago on 127.0.0.1 (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function positiveInt(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** Stops everything in reverse order of start, once; each step bounded so a stuck one cannot hang the exit. */
let stopping: Promise<void> | undefined;
function stopAll(): Promise<void> {
  stopping ??= (async () => {
    load?.stop();
    for (let next = stops.pop(); next; next = stops.pop()) {
      const { name, stop } = next;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('timed out after 20 s')), 20_000);
      });
      await Promise.race([stop(), timeout])
        .catch((err: unknown) => say(`stopping ${name}: ${err instanceof Error ? err.message : String(err)}`))
        .finally(() => clearTimeout(timer));
    }
  })();
  return stopping;
}

// A signal ends the current step (a load run stops at once; a start-up step finishes, so whatever
// it started is known and stopped), then main unwinds through stopAll. A second signal forces it.
let interrupted = false;
function checkInterrupted(): void {
  if (interrupted) throw new Error('interrupted');
}

// embedded-postgres installs an exit hook that stops Postgres and exits at once on a signal,
// racing the orderly shutdown (worker drain, API close): this script owns the signals. Only the
// visible listeners go: the tsx CLI's own (hidden from process.listeners) tells its parent that
// the signal arrived; without it the parent SIGKILLs this process 30 ms later, leaving no cleanup.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  for (const listener of process.listeners(signal)) process.off(signal, listener);
  process.on(signal, () => {
    if (interrupted) {
      say(`${signal} again: stopping now`);
      void stopAll().then(() => process.exit(130));
      return;
    }
    interrupted = true;
    say(`${signal}: stopping after the current step`);
    load?.stop();
  });
}

main().then(
  async () => {
    await stopAll();
    process.exit(0);
  },
  async (err: unknown) => {
    if (!interrupted) {
      process.stderr.write(`[bench] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    }
    await stopAll();
    process.exit(interrupted ? 130 : 1);
  },
);
