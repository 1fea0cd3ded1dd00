import { randomUUID } from 'node:crypto';
import { startReceiver } from '../receivers/https-receiver';
import { startHangingReceiver } from '../receivers/slow-receivers';
import { cpuBetween, cpuSnapshot } from './cpu-use';
import {
  checkInterrupted,
  machineLine,
  positiveInt,
  post,
  registerStop,
  runBench,
  say,
  seedMerchant,
  startLocalStack,
} from './harness';

/**
 * `npm run bench:noisy-neighbour` (issue 9, D4): merchant A's CIT evaluate latency, unloaded and
 * then with BENCH_NOISY_DELIVERIES (default 400) webhook deliveries hanging on merchant B's 16
 * endpoints (a local HTTPS receiver that never answers; each attempt holds until the 10 s
 * deadline; each endpoint's one delivery workflow keeps WEBHOOK_ENDPOINT_CONCURRENCY in flight). A sends BENCH_SAMPLES evaluates (default 200) at BENCH_RATE per second (default 10,
 * open loop) in each phase; A's own webhooks are timed from the evaluate answer to receipt. The
 * target: loaded p99 within 2x of unloaded p99. Runs under scripts/with-local-tls.ts. docs/benchmarks.md.
 */
const SAMPLES = positiveInt('BENCH_SAMPLES', 200);
const RATE = positiveInt('BENCH_RATE', 10);
const NOISY = positiveInt('BENCH_NOISY_DELIVERIES', 400);
const B_ENDPOINTS = 16;
const CARD = { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 }; // sandbox: approves

interface Phase {
  name: string;
  evaluate: number[];
  webhook: number[];
  failures: number;
  bInFlight: string;
  /** Cores other processes of the machine used during the phase (a shared machine's noise). */
  othersCores: string;
}

async function main(): Promise<void> {
  say(machineLine());
  const { apiUrl, apiDb, config } = await startLocalStack();
  const a = await seedMerchant(apiDb, apiUrl);
  const b = await seedMerchant(apiDb, apiUrl);

  const receiver = await startReceiver(200);
  registerStop('A receiver', () => receiver.stop());
  const hanging = await startHangingReceiver();
  registerStop('B receiver (never answers)', () => hanging.stop()); // stopped first: frees the held attempts
  const created = await post(
    `${apiUrl}/v1/webhooks`,
    { authorization: `Bearer ${a.bearer}` },
    { url: receiver.url, events: ['order.completed'] },
  );
  if (created.status !== 201) throw new Error(`A endpoint: ${created.status} ${JSON.stringify(created.body)}`);
  const bEndpoints: string[] = [];
  for (let i = 0; i < B_ENDPOINTS; i++) {
    const res = await post(
      `${apiUrl}/v1/webhooks`,
      { authorization: `Bearer ${b.bearer}` },
      { url: hanging.urlFor(`b${i}`), events: ['*'] },
    );
    if (res.status !== 201) throw new Error(`B endpoint: ${res.status} ${JSON.stringify(res.body)}`);
    bEndpoints.push(String(res.body.id));
  }
  const owner = await apiDb('webhook_endpoints').where({ id: bEndpoints[0] }).first('merchant_id', 'partner_id');
  if (!owner) throw new Error('the noisy merchant has no webhook endpoint');

  say('warm-up: 20 evaluates');
  await phase('warm-up', 20);
  checkInterrupted();
  const phases: Phase[] = [];
  say(`unloaded: ${SAMPLES} evaluates at ${RATE}/s`);
  phases.push(await phase('unloaded', SAMPLES));
  checkInterrupted();

  const events = Math.ceil(NOISY / B_ENDPOINTS);
  say(`loading: ${events} events for B x ${B_ENDPOINTS} endpoints = ${events * B_ENDPOINTS} deliveries, all hanging`);
  await apiDb('events').insert(
    Array.from({ length: events }, (_, i) => ({
      id: randomUUID(),
      name: 'order.completed',
      merchant_id: owner.merchant_id,
      partner_id: owner.partner_id,
      order_id: randomUUID(),
      external_order_id: `noisy-${i}`,
      confirmation_id: randomUUID(),
      data: null,
      is_test_mode: true,
      occurred_at: new Date(),
    })),
  );
  // B's bound: its endpoints times the per-endpoint concurrency (one workflow and activity per endpoint).
  const limit = Math.min(B_ENDPOINTS * config.webhooks.maxInFlightPerEndpoint, events * B_ENDPOINTS);
  const deadline = Date.now() + 120_000;
  for (;;) {
    checkInterrupted();
    const [row] = await apiDb('webhook_deliveries')
      .whereIn('endpoint_id', bEndpoints)
      .count<{ count: string }[]>('* as count');
    const count = Number(row?.count ?? 0);
    if (hanging.inFlight() >= limit && count >= events * B_ENDPOINTS) break;
    if (Date.now() > deadline)
      throw new Error(`B's deliveries did not all start (${hanging.inFlight()} in flight, ${count} created)`);
    await new Promise((r) => setTimeout(r, 200));
  }
  say(
    `  B: ${hanging.inFlight()} attempts hanging at its receiver (${B_ENDPOINTS} endpoints x ${config.webhooks.maxInFlightPerEndpoint}), the rest due and waiting in Postgres`,
  );
  say(`loaded: ${SAMPLES} evaluates at ${RATE}/s`);
  phases.push(await phase('loaded', SAMPLES));
  print(phases, hanging.stats());

  /** SAMPLES evaluates, open loop at RATE/s; A's webhook latency from each answer to its receipt. */
  async function phase(name: string, samples: number): Promise<Phase> {
    const evaluate: number[] = [];
    const answered = new Map<string, number>();
    let failures = 0;
    let peak = 0;
    const watch = setInterval(() => (peak = Math.max(peak, hanging.inFlight())), 50);
    const started = performance.now();
    const cpuBefore = cpuSnapshot();
    await Promise.all(
      Array.from({ length: samples }, async (_, i) => {
        await new Promise((r) => setTimeout(r, Math.max(0, started + (i * 1000) / RATE - performance.now())));
        const t0 = performance.now();
        const res = await post(
          `${apiUrl}/v1/evaluate`,
          { authorization: `Bearer ${a.bearer}` },
          {
            idempotencyKey: randomUUID(),
            externalOrderId: `quiet-${randomUUID()}`,
            transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
            paymentMethod: CARD,
          },
        ).catch(() => undefined);
        if (res?.status !== 200 || res.body.outcome !== 'APPROVED') {
          failures += 1;
          return;
        }
        evaluate.push(performance.now() - t0);
        answered.set(String(res.body.orderId), Date.now());
      }),
    );
    // A's webhooks: every approved order's order.completed, waited for (bounded).
    const until = Date.now() + 60_000;
    const receivedAt = () =>
      new Map(receiver.received.map((r) => [(JSON.parse(r.body) as { OrderId: string }).OrderId, r.at]));
    while ([...answered.keys()].some((id) => !receivedAt().has(id)) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 100));
    }
    clearInterval(watch);
    const got = receivedAt();
    const webhook = [...answered].flatMap(([id, at]) => (got.has(id) ? [(got.get(id) as number) - at] : []));
    failures += answered.size - webhook.length;
    const cpuAfter = cpuSnapshot();
    const seconds = (performance.now() - started) / 1000;
    const othersCores = cpuBefore && cpuAfter ? (cpuBetween(cpuBefore, cpuAfter).others / seconds).toFixed(2) : 'n/a';
    return { name, evaluate, webhook, failures, bInFlight: `${peak}`, othersCores };
  }
}

function pct(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function print(phases: Phase[], stats: ReturnType<Awaited<ReturnType<typeof startHangingReceiver>>['stats']>): void {
  const [unloaded, loaded] = phases as [Phase, Phase];
  const ms = (v: number) => v.toFixed(1);
  const ratio = pct(loaded.evaluate, 99) / pct(unloaded.evaluate, 99);
  process.stdout.write(
    [
      '',
      '| phase | B attempts in flight (peak) | A evaluates | A evaluate p50 ms | p99 ms | max ms | A webhook p50 ms | p99 ms | A failures | other processes (cores) |',
      '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      ...phases.map(
        (p) =>
          `| ${p.name} | ${p.bInFlight} | ${p.evaluate.length} | ${ms(pct(p.evaluate, 50))} | ${ms(pct(p.evaluate, 99))} | ${ms(Math.max(...p.evaluate))} | ${ms(pct(p.webhook, 50))} | ${ms(pct(p.webhook, 99))} | ${p.failures} | ${p.othersCores} |`,
      ),
      '',
      `loaded p99 / unloaded p99: ${ratio.toFixed(2)}x (target: at most 2x) -> ${ratio <= 2 ? 'met' : 'NOT met'}`,
      `B's receiver: ${stats.received} requests received, at most ${stats.peakTotal} in flight at once, at most ${stats.peakPerPath} per endpoint`,
      '',
    ].join('\n'),
  );
  if (unloaded.failures + loaded.failures > 0) say("WARNING: some of A's evaluates or webhooks failed");
}

runBench(main);
