import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { type CpuSnapshot, cpuBetween, cpuSnapshot } from './cpu-use';
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
import { startReceiversProcess } from './receivers-process';

/**
 * `npm run bench:webhooks`: a burst of BENCH_EVENTS (default 1,000) order.completed events fanned
 * out to BENCH_ENDPOINTS (default 3) real HTTPS receivers on 127.0.0.1 (in a process of their own),
 * through the outbox relay
 * and one delivery workflow per endpoint (docs/webhooks.md). Checks every endpoint got every
 * event exactly once, and prints deliveries per second, the end-to-end latency (outbox row to
 * receipt) and the CPU per delivery (with what other processes took meanwhile: on a shared
 * machine the rate depends on the neighbours, the CPU per delivery much less).
 * Runs under scripts/with-local-tls.ts, so the receivers' certificate is trusted. docs/benchmarks.md.
 */
const EVENTS = positiveInt('BENCH_EVENTS', 1000);
const ENDPOINTS = positiveInt('BENCH_ENDPOINTS', 3);
const TIMEOUT_MS = 10 * 60_000;

async function main(): Promise<void> {
  say(machineLine());
  const { apiUrl, apiDb } = await startLocalStack();
  const { bearer } = await seedMerchant(apiDb, apiUrl);
  const merchant = await apiDb('api_keys').whereNotNull('merchant_id').first('merchant_id', 'partner_id');
  if (!merchant) throw new Error('no merchant API key to send events for');

  const remote = await startReceiversProcess(ENDPOINTS);
  registerStop('receivers', () => remote.stop());
  const { receivers } = remote;
  for (const receiver of receivers) {
    const res = await post(
      `${apiUrl}/v1/webhooks`,
      { authorization: `Bearer ${bearer}` },
      { url: receiver.url, events: ['order.completed'] },
    );
    if (res.status !== 201) throw new Error(`endpoint creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  checkInterrupted();

  say(`inserting ${EVENTS} events into the outbox (what completed orders write) for ${ENDPOINTS} endpoints`);
  const insertedAt = Date.now();
  const events = Array.from({ length: EVENTS }, (_, i) => ({
    id: randomUUID(),
    name: 'order.completed',
    merchant_id: merchant.merchant_id,
    partner_id: merchant.partner_id,
    order_id: randomUUID(),
    external_order_id: `bench-${i}`,
    confirmation_id: randomUUID(),
    data: null,
    is_test_mode: true,
    occurred_at: new Date(insertedAt),
  }));
  const cpuBefore = cpuSnapshot();
  for (let i = 0; i < events.length; i += 500) await apiDb('events').insert(events.slice(i, i + 500));

  const expected = EVENTS * ENDPOINTS;
  const total = () => receivers.reduce((n, r) => n + r.received.length, 0);
  let lastReport = Date.now();
  while (total() < expected && Date.now() - insertedAt < TIMEOUT_MS) {
    checkInterrupted();
    if (Date.now() - lastReport > 5000) {
      say(`  ${total()} / ${expected} delivered`);
      lastReport = Date.now();
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const lastReceipt = Math.max(...receivers.flatMap((r) => r.received.map((x) => x.at)));
  const seconds = (lastReceipt - insertedAt) / 1000;
  const cpuAfter = cpuSnapshot();
  await new Promise((r) => setTimeout(r, 2000)); // a duplicate would arrive now

  let duplicates = 0;
  let missing = 0;
  for (const receiver of receivers) {
    const keys = receiver.received.map((r) => (JSON.parse(r.body) as { IdempotencyKey: string }).IdempotencyKey);
    duplicates += keys.length - new Set(keys).size;
    missing += EVENTS - new Set(keys).size;
  }
  const latencies = receivers.flatMap((r) => r.received.map((x) => x.at - insertedAt)).sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.max(0, Math.ceil((p / 100) * latencies.length) - 1)] ?? Number.NaN;
  process.stdout.write(
    [
      '',
      '| events | endpoints | deliveries | seconds | deliveries/s | p50 ms (outbox to receipt) | p99 ms | missing | duplicates |',
      '|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
      `| ${EVENTS} | ${ENDPOINTS} | ${total()} | ${seconds.toFixed(1)} | ${(total() / seconds).toFixed(1)} | ${pct(50)} | ${pct(99)} | ${missing} | ${duplicates} |`,
      '',
      ...cpuLines(cpuBefore, cpuAfter, total(), seconds),
      '',
    ].join('\n'),
  );
  if (missing || duplicates) throw new Error(`${missing} deliveries missing, ${duplicates} duplicated`);
}

/**
 * CPU per delivery of this benchmark's programs (Node: API, worker and relay, and the receivers'; the
 * Postgres and Temporal processes), and what the rest of the machine took meanwhile: on a shared
 * machine the deliveries per second depend on the neighbours, the CPU per delivery much less.
 */
function cpuLines(
  before: CpuSnapshot | undefined,
  after: CpuSnapshot | undefined,
  deliveries: number,
  seconds: number,
): string[] {
  if (!before || !after) return [];
  const { programs, others } = cpuBetween(before, after);
  const ours = Object.values(programs).reduce((a, b) => a + b, 0);
  const each = Object.entries(programs)
    .sort(([, a], [, b]) => b - a)
    .map(([comm, s]) => `${comm} ${((s * 1000) / deliveries).toFixed(2)}`)
    .join(', ');
  return [
    `CPU ms per delivery: ${((ours * 1000) / deliveries).toFixed(2)} (${each})`,
    `deliveries per CPU-second of this benchmark's programs: ${(deliveries / ours).toFixed(0)}; other processes used ${(others / seconds).toFixed(2)} cores meanwhile (of ${os.cpus().length})`,
  ];
}

runBench(main);
