import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { coresBetween, cpuSnapshot } from './cpu-use';
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
      const before = root ? cpuSnapshot(root, programOf) : undefined;
      const r = await run(`${api}/v1/evaluate`, auth, s, connections, SECONDS);
      const after = root ? cpuSnapshot(root, programOf) : undefined;
      const used = before && after ? coresBetween(before, after) : undefined;
      const others = used?.others ?? 0;
      const cpu = used
        ? Object.entries(used.programs)
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

/** What a process of the `npm start` tree is, from its command line. */
function programOf({ pid }: { pid: number }): string {
  const args = cmdline(pid);
  if (args.includes('src/api/server.ts')) return 'API';
  if (args.includes('src/worker.ts')) return 'worker';
  if (args.includes('scripts/start.ts')) return 'start.ts';
  if (args.includes('postgres')) return 'Postgres';
  if (args.includes('temporal')) return 'Temporal';
  return 'other';
}

onInterrupt(() => load?.stop());
runBench(main);
