import { randomUUID } from 'node:crypto';
import { RETRY_OFFSETS_MS } from '../../src/domain/orders/retry-schedule';
import {
  checkInterrupted,
  isInterrupted,
  machineLine,
  percentiles,
  positiveInt,
  post,
  runBench,
  SANDBOX_CARDS,
  say,
  seedMerchant,
  startLocalStack,
  tokenizeCard,
} from './harness';

/**
 * `npm run bench:checkout-under-retries`: what a shopper's checkout (a CIT evaluate) meets while
 * async MIT retries crowd the worker. BENCH_ORDERS (3,000) async MIT orders whose card declines on
 * every attempt are opened by 10 callers as fast as the stack takes them; each one's first retry
 * fires a minute after its acceptance (the production schedule), so from the first minute on the
 * retries (replays, once the orders outnumber the sticky cache: WORKFLOW_CACHE_SIZE) and the
 * opening compete for the two cores and a backlog builds. Meanwhile an open loop sends
 * BENCH_CHECKOUT_RATE (2) CIT evaluates a second, each answered or not on its first try. It prints
 * the checkouts' latency and failures before the retries, while they fire beside the opening, and
 * while they drain; and the MIT evaluates' 5xx. BENCH_TEMPORAL_CONFIG='matching.useNewMatcher=false'
 * turns the server's task priority off (src/temporal/task-priority.ts) for the comparison.
 * BENCH_PROBE=other-merchant probes with another merchant's async MIT evaluates, same-merchant with
 * the flooding merchant's own (behind its retries only where the API lowers an accepted order's
 * priority: BENCH_TEMPORAL=server, src/orders/accepted-rescues.ts). docs/benchmarks.md.
 */

const ORDERS = positiveInt('BENCH_ORDERS', 3_000);
const CONCURRENCY = positiveInt('BENCH_CONCURRENCY', 10);
const CHECKOUT_RATE = positiveInt('BENCH_CHECKOUT_RATE', 2);
/** checkout: the same merchant's CIT evaluates; other-/same-merchant: another's or its own async MIT evaluates. */
const PROBES = ['checkout', 'other-merchant', 'same-merchant'] as const;
const PROBE = PROBES.find((p) => p === process.env.BENCH_PROBE) ?? 'checkout';
const FIRST_RETRY_MS = RETRY_OFFSETS_MS[0] as number;
const RETRY_5XX_FOR_MS = 600_000;

type Phase = 'before the first retries' | 'retries beside the opening' | 'retries draining';
interface Checkout {
  phase: Phase;
  ms: number;
  answer: string;
}

async function main(): Promise<void> {
  say(machineLine());
  say(
    `${ORDERS} async MIT orders (${CONCURRENCY} callers) and ${CHECKOUT_RATE} probes a second (${PROBE}); cache ${process.env.WORKFLOW_CACHE_SIZE ?? 'default'}; server settings ${process.env.BENCH_TEMPORAL_CONFIG ?? 'as shipped'}`,
  );
  // The API's 503s are what this measures (the table below counts them): not one log line each.
  const { apiUrl, apiDb: db } = await startLocalStack({ workerProcess: true, logLevel: 'fatal' });
  const merchant = await seedMerchant(db, apiUrl);
  const declining = await tokenizeCard(apiUrl, merchant.tokenizationKey, SANDBOX_CARDS.declinesAlways);
  const order = (token: string) => ({
    idempotencyKey: randomUUID(),
    externalOrderId: `bench-${randomUUID()}`,
    transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
    paymentMethod: { token },
  });
  const mit = { isMIT: true, isRecurring: true, subscription: { intervalCount: 1 } };
  const evaluate = (bearer: string, body: object) =>
    post(`${apiUrl}/v1/evaluate`, { authorization: `Bearer ${bearer}` }, body);
  // What the probe sends, as whom, and the answer that counts as served.
  const prober = PROBE === 'other-merchant' ? await seedMerchant(db, apiUrl) : merchant;
  const probe =
    PROBE === 'checkout'
      ? {
          body: order(await tokenizeCard(apiUrl, prober.tokenizationKey, SANDBOX_CARDS.approves)),
          served: '200 APPROVED',
        }
      : {
          body: {
            ...order(
              prober === merchant
                ? declining
                : await tokenizeCard(apiUrl, prober.tokenizationKey, SANDBOX_CARDS.declinesAlways),
            ),
            ...mit,
          },
          served: '200 SUBMITTED',
        };

  const started = Date.now();
  let openingDone = false;
  const phase = (): Phase =>
    Date.now() - started < FIRST_RETRY_MS
      ? 'before the first retries'
      : openingDone
        ? 'retries draining'
        : 'retries beside the opening';

  // The checkouts: an open loop, each answered (or not) on its first try, as a shopper's would be.
  const checkouts: Checkout[] = [];
  const inFlight = new Set<Promise<void>>();
  const sendCheckout = () => {
    const at = phase();
    const t0 = performance.now();
    const body = { ...probe.body, idempotencyKey: randomUUID(), externalOrderId: `probe-${randomUUID()}` };
    const sent = evaluate(prober.bearer, body)
      .then(
        (res) =>
          `${res.status} ${res.status === 200 ? res.body.outcome : ((res.body.error as { id?: string } | undefined)?.id ?? '')}`,
        (err: unknown) => `error ${err instanceof Error ? err.message : String(err)}`,
      )
      .then((answer) => {
        checkouts.push({ phase: at, ms: performance.now() - t0, answer });
      })
      .finally(() => inFlight.delete(sent));
    inFlight.add(sent);
  };
  const ticker = setInterval(sendCheckout, 1000 / CHECKOUT_RATE);

  // The MIT orders: every answer must be SUBMITTED; a 5xx is retried with the same key, as a merchant would.
  let next = 0;
  let opened = 0;
  let attemptsAtSubmit: number | undefined; // an order's service attempts when answered (a retry adds one)
  const mit5xx: Record<Phase, number> = {
    'before the first retries': 0,
    'retries beside the opening': 0,
    'retries draining': 0,
  };
  const opener = async () => {
    while (next < ORDERS && !isInterrupted()) {
      next += 1;
      const body = { ...order(declining), ...mit };
      let res = await evaluate(merchant.bearer, body);
      const giveUpAt = Date.now() + RETRY_5XX_FOR_MS;
      for (let retry = 1; res.status >= 500 && Date.now() < giveUpAt && !isInterrupted(); retry++) {
        mit5xx[phase()] += 1;
        await new Promise((r) => setTimeout(r, Math.min(10_000, 1_000 * retry)));
        res = await evaluate(merchant.bearer, body);
      }
      if (res.status !== 200 || res.body.outcome !== 'SUBMITTED') {
        throw new Error(`MIT evaluate answered ${res.status} ${JSON.stringify(res.body)}`);
      }
      opened += 1;
      if (attemptsAtSubmit === undefined) {
        const row = await db('orders')
          .where({ id: String(res.body.orderId) })
          .first('service_attempts');
        attemptsAtSubmit = Number(row?.service_attempts ?? 0);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, opener));
    const openSeconds = (Date.now() - started) / 1000;
    openingDone = true;
    say(`opened ${opened} MIT orders in ${openSeconds.toFixed(0)} s (${(opened / openSeconds).toFixed(1)} a second)`);
    // Until every first retry has fired (a soft decline adds a service attempt to the order row).
    const firstRetries = () =>
      db('orders')
        .where({ flow: 'ASYNC_MIT', merchant_id: merchant.mid })
        .whereLike('external_order_id', 'bench-%') // not the same-merchant probes
        .where('service_attempts', '>', attemptsAtSubmit ?? 0)
        .count<{ count: string }[]>('* as count')
        .then(([row]) => Number(row?.count ?? 0));
    const deadline = Date.now() + FIRST_RETRY_MS + 600_000;
    while ((await firstRetries()) < opened && Date.now() < deadline && !isInterrupted()) {
      await new Promise((r) => setTimeout(r, 2_000));
    }
    say(`first retries fired: ${await firstRetries()} of ${opened}, ${((Date.now() - started) / 1000).toFixed(0)} s`);
  } finally {
    clearInterval(ticker);
    await Promise.all(inFlight);
  }
  checkInterrupted();
  report(checkouts, mit5xx, probe.served);
}

function report(checkouts: Checkout[], mit5xx: Record<Phase, number>, served: string): void {
  const lines = [
    '',
    `| phase | ${{ checkout: 'checkouts', 'other-merchant': "other merchant's MIT evaluates", 'same-merchant': "the merchant's own MIT evaluates" }[PROBE]} | ${served.slice(4)} | not answered (count: answer) | p50 ms | p99 ms | max ms | flooding MIT evaluates answered 5xx |`,
    '| :-- | --: | --: | :-- | --: | --: | --: | --: |',
  ];
  for (const phase of Object.keys(mit5xx) as Phase[]) {
    const rows = checkouts.filter((c) => c.phase === phase);
    const failed = new Map<string, number>();
    for (const c of rows) if (c.answer !== served) failed.set(c.answer, (failed.get(c.answer) ?? 0) + 1);
    const p = percentiles(rows.map((c) => c.ms));
    lines.push(
      `| ${phase} | ${rows.length} | ${rows.length - [...failed.values()].reduce((a, b) => a + b, 0)} | ${
        [...failed].map(([answer, n]) => `${n}: ${answer}`).join('; ') || '-'
      } | ${p(50).toFixed(0)} | ${p(99).toFixed(0)} | ${p(100).toFixed(0)} | ${mit5xx[phase]} |`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

runBench(main);
