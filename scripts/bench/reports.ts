import { randomUUID } from 'node:crypto';
import { createApiKey } from '../../src/db/repositories/api-keys';
import { SCOPES } from '../../src/domain/scopes';
import { machineLine, percentiles, positiveInt, runBench, say, startLocalStack } from './harness';
import { seedReportData } from './reports-seed';

/**
 * `npm run bench:reports`: seeds BENCH_ORDERS (1,000,000) orders created over the last 90 days
 * for 50 merchants of 5 partners (with their charges-ledger rows), in set-based SQL, into the
 * throw-away embedded Postgres, then times BENCH_RUNS (30) sequential calls of each rescue report
 * (each groupBy; one merchant over 90 and 30 days; the operator across all merchants, and one
 * partner's) and of the order search's first page (with and without filters), and prints p50 and
 * p95. The target is p95 <= 200 ms (docs/benchmarks.md, docs/reports.md).
 */

const ORDERS = positiveInt('BENCH_ORDERS', 1_000_000);
const RUNS = positiveInt('BENCH_RUNS', 30);
const TARGET_P95_MS = 200;
const ADMIN = `bench-admin-${randomUUID()}`;

async function timed(url: string, token: string): Promise<number> {
  const started = performance.now();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  return performance.now() - started;
}

runBench(async () => {
  say(machineLine());
  const stack = await startLocalStack({ adminToken: ADMIN });
  const { merchantId, partnerId } = await seedReportData(stack.pgUrl, ORDERS);
  const { row, secret } = await createApiKey(stack.apiDb, {
    ownerType: 'merchant',
    partnerId,
    merchantId,
    name: 'bench key',
    scopes: [...SCOPES],
    environment: 'sandbox',
  });
  const tokenRes = await fetch(`${stack.apiUrl}/v1/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credentials', client_id: row.id, client_secret: secret }),
  });
  const bearer = String(((await tokenRes.json()) as { access_token: string }).access_token);

  const now = Date.now();
  const daysAgo = (d: number) => new Date(now - d * 86_400_000).toISOString();
  const range = (days: number) => `from=${daysAgo(days)}&to=${new Date(now + 60_000).toISOString()}`;
  const cases: Array<{ name: string; path: string; token: string }> = [];
  for (const groupBy of ['day', 'declineCode', 'flow', 'currency']) {
    for (const days of [90, 30]) {
      cases.push({
        name: `merchant ${days}d groupBy=${groupBy}`,
        path: `/v1/reports/rescues?${range(days)}&groupBy=${groupBy}`,
        token: bearer,
      });
    }
  }
  cases.push({ name: 'merchant 90d csv', path: `/v1/reports/rescues?${range(90)}&format=csv`, token: bearer });
  for (const groupBy of ['day', 'declineCode', 'flow', 'currency']) {
    for (const days of [90, 30]) {
      cases.push({
        name: `operator all ${days}d groupBy=${groupBy}`,
        path: `/v1/admin/reports/rescues?${range(days)}&groupBy=${groupBy}`,
        token: ADMIN,
      });
    }
  }
  cases.push({
    name: 'operator partner 90d groupBy=day',
    path: `/v1/admin/reports/rescues?${range(90)}&partnerId=${partnerId}`,
    token: ADMIN,
  });
  cases.push({ name: 'order search first page', path: '/v1/orders', token: bearer });
  cases.push({
    name: 'order search first page, filtered',
    path: `/v1/orders?status=SUCCESS&flow=ASYNC_MIT&createdFrom=${daysAgo(30)}`,
    token: bearer,
  });

  say(`each case: ${RUNS} sequential calls after 3 warm-ups; target p95 <= ${TARGET_P95_MS} ms`);
  const misses: string[] = [];
  for (const c of cases) {
    for (let i = 0; i < 3; i++) await timed(stack.apiUrl + c.path, c.token);
    const ms: number[] = [];
    for (let i = 0; i < RUNS; i++) ms.push(await timed(stack.apiUrl + c.path, c.token));
    const p = percentiles(ms);
    const miss = p(95) > TARGET_P95_MS;
    if (miss) misses.push(c.name);
    say(
      `${c.name.padEnd(40)} p50 ${p(50).toFixed(1).padStart(7)} ms   p95 ${p(95).toFixed(1).padStart(7)} ms${miss ? '  (over target)' : ''}`,
    );
  }
  say(misses.length ? `over the p95 target: ${misses.join('; ')}` : 'every case within the p95 target');
});
