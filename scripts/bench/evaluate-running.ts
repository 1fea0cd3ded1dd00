import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { commaList, machineLine, onInterrupt, positiveInt, post, runBench, say } from './harness';

/**
 * `npm run bench:evaluate:running`: POST /v1/evaluate against an `npm start` that is already
 * running (the layout as a developer runs it: separate API and worker processes), where
 * `npm run bench:evaluate` builds its own in-process stack. It reads the sandbox credentials
 * (BENCH_CREDENTIALS, default $DATA_DIR/sandbox-credentials.json), runs CIT and async MIT evaluates
 * closed-loop at BENCH_CONNECTIONS (10), and prints req/s, p50/p99 and the CPU each process of the
 * `npm start` tree used (API, worker, Postgres, Temporal). Start the target with the merchant
 * rate limit out of the way: RATE_LIMIT_PER_SECOND=100000 RATE_LIMIT_BURST=100000 npm start.
 * docs/benchmarks.md.
 */

const SECONDS = positiveInt('BENCH_SECONDS', 10);
const WARMUP_SECONDS = 2;
const CONNECTION_COUNTS = commaList('BENCH_CONNECTIONS', [10]);
const CREDENTIALS =
  process.env.BENCH_CREDENTIALS || path.join(process.env.DATA_DIR || '.data', 'sandbox-credentials.json');
const CLOCK_TICKS_PER_SECOND = 100;

let load: autocannon.Instance | undefined;

async function main(): Promise<void> {
  say(machineLine());
  const credentials = JSON.parse(readFileSync(CREDENTIALS, 'utf8')) as Record<string, string>;
  const api = String(credentials.apiBaseUrl);
  const root = startTree();
  say(`target: ${api} (npm start pid ${root ?? 'not found: CPU per process not measured'})`);

  const grant = await post(
    `${api}/v1/oauth2/token`,
    {},
    { grant_type: 'client_credentials', client_id: credentials.clientId, client_secret: credentials.clientSecret },
  );
  if (grant.status !== 200) throw new Error(`token: ${grant.status} ${JSON.stringify(grant.body)}`);
  const auth = { authorization: `Bearer ${grant.body.access_token}` };
  const card = await post(
    `${api}/v1/tokenize`,
    { 'x-tokenization-key': String(credentials.tokenizationKey) },
    { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: new Date().getUTCFullYear() + 1 },
  );
  if (card.status !== 201 && card.status !== 200)
    throw new Error(`tokenize: ${card.status} ${JSON.stringify(card.body)}`);
  const cit = () => ({
    idempotencyKey: randomUUID(),
    externalOrderId: `bench-${randomUUID()}`,
    transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
    paymentMethod: { token: card.body.token },
  });
  const mit = () => ({ ...cit(), isMIT: true, isRecurring: true, subscription: { intervalCount: 1 } });
  const scenarios = [
    { name: 'CIT evaluate', body: cit, outcome: 'APPROVED' },
    { name: 'async MIT evaluate', body: mit, outcome: 'SUBMITTED' },
  ];
  for (const s of scenarios) {
    const res = await post(`${api}/v1/evaluate`, auth, s.body());
    if (res.status !== 200 || res.body.outcome !== s.outcome) {
      throw new Error(`${s.name}: smoke request answered ${res.status} ${JSON.stringify(res.body)}`);
    }
  }

  const rows: string[] = [];
  for (const connections of CONNECTION_COUNTS) {
    for (const s of scenarios) {
      say(`${s.name}, ${connections} connections: warm-up ${WARMUP_SECONDS} s, then ${SECONDS} s`);
      await run(`${api}/v1/evaluate`, auth, s, connections, WARMUP_SECONDS);
      const machineBefore = machineBusyTicks();
      const before = root ? cpuOfTree(root) : undefined;
      const started = performance.now();
      const r = await run(`${api}/v1/evaluate`, auth, s, connections, SECONDS);
      const elapsedTicks = ((performance.now() - started) / 1000) * CLOCK_TICKS_PER_SECOND;
      const after = root ? cpuOfTree(root) : undefined;
      const ours = after ? [...after].reduce((sum, [label, t]) => sum + t - (before?.get(label) ?? 0), 0) : 0;
      const others = Math.max(0, (machineBusyTicks() - machineBefore - ours) / elapsedTicks);
      const cpu =
        before && after
          ? [...after]
              .map(([label, ticks]) => [label, (ticks - (before.get(label) ?? 0)) / elapsedTicks] as const)
              .filter(([, cores]) => cores >= 0.005)
              .sort(([, a], [, b]) => b - a)
              .map(([label, cores]) => `${label} ${cores.toFixed(2)} (${((cores * 1000) / r.rps).toFixed(1)} ms/req)`)
              .join(', ')
          : 'not measured';
      rows.push(
        `| ${s.name} | ${connections} | ${r.rps.toFixed(1)} | ${r.p50} | ${r.p99} | ${r.failed} | ${cpu} | ${others.toFixed(2)} |`,
      );
    }
  }
  process.stdout.write(
    [
      '',
      '| scenario | conns | req/s | p50 ms | p99 ms | errors | CPU, cores (per request) | other processes, cores |',
      '|:--|--:|--:|--:|--:|--:|:--|--:|',
      ...rows,
      '',
      `${SECONDS} s per scenario after ${WARMUP_SECONDS} s warm-up, against ${api}; errors = transport errors + non-2xx + wrong outcomes`,
      '',
    ].join('\n'),
  );
}

async function run(
  url: string,
  headers: Record<string, string>,
  s: { body: () => unknown; outcome: string },
  connections: number,
  seconds: number,
): Promise<{ rps: number; p50: number; p99: number; failed: number }> {
  let wrong = 0;
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    load = autocannon(
      {
        url,
        method: 'POST',
        connections,
        duration: seconds,
        headers: { 'content-type': 'application/json', ...headers },
        requests: [
          {
            setupRequest: (request) => ({ ...request, body: JSON.stringify(s.body()) }),
            onResponse: (status, body) => {
              if (status === 200 && !body.includes(`"outcome":"${s.outcome}"`)) wrong += 1;
            },
          },
        ],
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
  }).finally(() => {
    load = undefined;
  });
  return {
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    failed: r.errors + r.non2xx + wrong,
  };
}

/** Busy CPU ticks of the whole machine so far (/proc/stat; idle and iowait excluded). */
function machineBusyTicks(): number {
  const cpu = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  return cpu.reduce((a, b) => a + b, 0) - (cpu[3] ?? 0) - (cpu[4] ?? 0);
}

/** The pid of the running `npm start` (node ... scripts/start.ts), from /proc. */
function startTree(): number | undefined {
  if (process.env.BENCH_TARGET_PID) return Number(process.env.BENCH_TARGET_PID);
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    const args = cmdline(pid);
    if (args.includes('scripts/start.ts') && Number(pid) !== process.pid) return Number(pid);
  }
  return undefined;
}

function cmdline(pid: string | number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** CPU ticks (user + system) of every process under `root`, summed by what it is. */
function cpuOfTree(root: number): Map<string, number> {
  const procs = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .flatMap((pid) => {
      try {
        const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
        return [{ pid: Number(pid), ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) }];
      } catch {
        return [];
      }
    });
  const label = (pid: number) => {
    const args = cmdline(pid);
    if (args.includes('src/api/server.ts')) return 'API';
    if (args.includes('src/worker.ts')) return 'worker';
    if (args.includes('scripts/start.ts')) return 'start.ts';
    if (args.includes('postgres')) return 'Postgres';
    if (args.includes('temporal')) return 'Temporal';
    return 'other';
  };
  const sums = new Map<string, number>();
  const todo = procs.filter((p) => p.pid === root);
  for (let p = todo.pop(); p; p = todo.pop()) {
    const name = label(p.pid);
    sums.set(name, (sums.get(name) ?? 0) + p.ticks);
    todo.push(...procs.filter((c) => c.ppid === p?.pid));
  }
  return sums;
}

onInterrupt(() => load?.stop());
runBench(main);
