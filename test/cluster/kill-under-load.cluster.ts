import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { type ClusterHandle, startCluster } from '../../scripts/cluster/cluster';
import { freeFrontendPort, freePortBase } from '../../scripts/cluster/free-ports';
import { orderWorkflowId } from '../../src/domain/orders/workflow-ids';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { saveTrackedHistories, trackHistory } from '../helpers/histories';

/**
 * The service on a real Temporal cluster (temporal-server v1.31.0 on Postgres, SQL visibility),
 * two worker and two API processes behind one round-robin port (scripts/cluster). Orders of every
 * flow run through that port as merchants would send them; mid-load one worker and one API
 * process are killed with SIGKILL and restarted. A caller whose connection breaks retries with
 * the same idempotency key, as docs/idempotency.md tells merchants to. Then what the callers were
 * answered is compared with the orders and events tables: every acknowledged order present once,
 * each order's events exactly once and none missing.
 */

const nextYear = new Date().getUTCFullYear() + 1;
const card = (cardNumber: string) => ({ cardNumber, expiryMonth: 12, expiryYear: nextYear });
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

interface Answer {
  status: number;
  /** An earlier attempt of this call broke off (killed API) or answered 5xx: its outcome was unknown. */
  afterUnknown?: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON the endpoint answered
  body: any;
}

/** Figures printed at the end, one line per check. */
const stats = {
  requests: 0,
  networkErrors: 0,
  retriedAnswers: 0,
  syncEvaluateRetryCaptured: 0,
  captureRetryAnswered: 0,
};

/**
 * One call with a merchant's retry discipline: a broken connection, a 5xx of unknown outcome,
 * 409003 (the same key still in flight, e.g. on the killed process) and 409009 (order busy) are
 * retried with the same body and key, for up to 90 s.
 */
async function call(baseUrl: string, token: string, method: string, url: string, body?: unknown): Promise<Answer> {
  const deadline = Date.now() + 90_000;
  let afterUnknown = false;
  for (let attempt = 0; ; attempt++) {
    stats.requests += 1;
    let answer: Answer | undefined;
    try {
      const res = await fetch(`${baseUrl}${url}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: AbortSignal.timeout(30_000),
      });
      const text = await res.text();
      answer = { status: res.status, body: text ? JSON.parse(text) : undefined };
    } catch {
      stats.networkErrors += 1; // reset by the killed API process: the outcome is unknown
      afterUnknown = true;
    }
    const retriable =
      !answer ||
      (answer.status >= 500 && answer.body?.error?.id !== '503002') ||
      ['409003', '409009'].includes(answer.body?.error?.id);
    if (answer && retriable && answer.status >= 500) afterUnknown = true;
    if (answer && !retriable) {
      if (attempt > 0) stats.retriedAnswers += 1;
      return { ...answer, afterUnknown };
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${method} ${url}: no definitive answer in 90 s (last ${answer?.status} ${JSON.stringify(answer?.body)})`,
      );
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

interface Scenario {
  flow: string;
  /** Runs the flow; returns the acknowledged orderId and the events the order must end with. */
  run(): Promise<{ orderId: string; externalOrderId: string; merchant: string; expected: string[] }>;
}

describe('the cluster: two workers and two APIs on a real Temporal server, killed under load', () => {
  let cluster: ClusterHandle;
  const lines: string[] = [];
  const say = (line: string) => lines.push(line);

  beforeAll(async () => {
    const databaseUrl = process.env.PRS_CLUSTER_TEST_DATABASE_URL;
    const workDir = process.env.PRS_CLUSTER_TEST_DIR;
    if (!databaseUrl || !workDir)
      throw new Error('run through npm run test:cluster (its global setup starts Postgres)');
    const temporalPort = await freeFrontendPort();
    // The proxy, 2 API processes, then each process's metrics port (2 APIs, 2 workers).
    const apiPort = await freePortBase([0, 1, 2, 3, 4, 5, 6]);
    const started = Date.now();
    cluster = await startCluster({
      directory: path.join(workDir, 'cluster'),
      databaseUrl,
      postgresPort: 0,
      apiPort,
      temporalPort,
      namespace: 'default',
      taskQueue: 'payment-rescue',
      workers: 2,
      apis: 2,
      autoRestart: false,
      unsafeFastPostgres: true,
      logLevel: 'info',
      // The load is ours: per-merchant limits must not answer 429 (docs/rate-limits.md).
      env: { RATE_LIMIT_PER_SECOND: '1000', RATE_LIMIT_BURST: '1000' },
      say,
    });
    process.stdout.write(`[cluster-test] cluster up in ${Math.round((Date.now() - started) / 1000)} s\n`);
  }, 300_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 120_000);

  it('runs every flow through one port, survives SIGKILL of a worker and an API, loses and doubles nothing', async () => {
    const api = cluster.apiUrl;
    // The seeded sandbox merchant (as npm start seeds it) takes the async MIT default; a second
    // merchant evaluates MIT synchronously.
    const main = cluster.credentials;
    const token = await accessToken(api, main);
    expect(
      (await call(api, token, 'PUT', `/v1/merchants/${main.mid}/settings`, { authorizeCapability: true })).status,
    ).toBe(200);
    const sync = await seedMerchant(cluster.db);
    const syncToken = await accessToken(api, await seedKey(cluster.db, sync));
    expect(
      (await call(api, syncToken, 'PUT', `/v1/merchants/${sync.mid}/settings`, { mitEvaluation: 'sync' })).status,
    ).toBe(200);

    const evaluateBody = (overrides: Record<string, unknown> = {}) => ({
      idempotencyKey: randomUUID(),
      externalOrderId: `cluster-${randomUUID()}`,
      transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
      paymentMethod: card('4111111111111111'),
      ...overrides,
    });
    const evaluate = async (
      overrides: Record<string, unknown>,
      outcome: string,
      as: { token: string; mid: string } = { token, mid: main.mid },
      /** Also acceptable when an earlier attempt broke off (see the Sync MIT flow). */
      outcomeAfterUnknown?: string,
    ) => {
      const body = evaluateBody(overrides);
      const res = await call(api, as.token, 'POST', '/v1/evaluate', body);
      const accepted = res.afterUnknown && res.body?.outcome === outcomeAfterUnknown ? outcomeAfterUnknown : outcome;
      expect({ status: res.status, outcome: res.body?.outcome, error: res.body?.error }).toEqual({
        status: 200,
        outcome: accepted,
        error: undefined,
      });
      return {
        orderId: res.body.orderId as string,
        externalOrderId: body.externalOrderId,
        merchant: as.mid,
        outcome: res.body.outcome as string,
      };
    };
    // A capture is answered 200 even when an earlier attempt's outcome was unknown (the API died, or
    // answered 5xx) after it took effect: the same-key retry takes up that capture
    // (docs/idempotency.md). The error (if any) is compared too, so a failure names it.
    const expectCaptured = (res: Answer) => {
      const { status, afterUnknown = false } = res;
      expect({ status, afterUnknown, orderStatus: res.body?.orderStatus, error: res.body?.error }).toEqual({
        status: 200,
        afterUnknown: expect.any(Boolean),
        orderStatus: 7,
        error: undefined,
      });
      if (afterUnknown) stats.captureRetryAnswered += 1;
    };
    const authorize = () => evaluate({ transactionType: 'AUTHORIZATION' }, 'CAPTUREREQUIRED');
    const asyncMit = (cardNumber: string, expirySeconds: number) =>
      evaluate(
        {
          isMIT: true,
          isRecurring: true,
          subscription: { intervalCount: 1 },
          expiryDateUtc: inSeconds(expirySeconds),
          paymentMethod: card(cardNumber),
        },
        'SUBMITTED',
      );

    const scenarios: Scenario[] = [
      {
        flow: 'CIT approve',
        run: async () => ({ ...(await evaluate({}, 'APPROVED')), expected: ['order.completed'] }),
      },
      {
        flow: 'CIT decline',
        run: async () => ({
          ...(await evaluate({ paymentMethod: card('4000000000000002') }, 'DECLINED')),
          expected: [],
        }),
      },
      {
        flow: 'CIT challenge',
        run: async () => ({
          ...(await evaluate({ paymentMethod: card('4000000000003220') }, 'CHALLENGE')),
          expected: ['challenge.presented'],
        }),
      },
      {
        flow: 'authorize + capture',
        run: async () => {
          const order = await authorize();
          const res = await call(api, token, 'POST', '/v1/capture', {
            idempotencyKey: randomUUID(),
            orderId: order.orderId,
          });
          expectCaptured(res);
          return { ...order, expected: ['order.capturerequired', 'order.completed'] };
        },
      },
      {
        flow: 'Sync MIT capture',
        run: async () => {
          const order = await evaluate(
            {
              isMIT: true,
              isRecurring: true,
              subscription: { intervalCount: 1 },
              expiryDateUtc: inSeconds(600),
              transaction: { amount: 4900, currency: 'EUR', responseCode: '05' },
            },
            'CAPTUREREQUIRED',
            { token: syncToken, mid: sync.mid },
            // docs/orders.md: a further evaluate of a Sync MIT order in CAPTUREREQUIRED acts as the
            // capture. When the first attempt died with the API after the order was made, the
            // same-key retry (its claim taken over, docs/idempotency.md) is such a further
            // evaluate: it answers APPROVED and the order is already captured.
            'APPROVED',
          );
          if (order.outcome === 'APPROVED') {
            stats.syncEvaluateRetryCaptured += 1;
            return { ...order, expected: ['order.capturerequired', 'order.completed'] };
          }
          const res = await call(api, syncToken, 'POST', '/v1/capture', {
            idempotencyKey: randomUUID(),
            orderId: order.orderId,
          });
          expectCaptured(res);
          return { ...order, expected: ['order.capturerequired', 'order.completed'] };
        },
      },
      {
        // Rescued by the first retry of the schedule (1 min after acceptance).
        flow: 'async MIT rescued',
        run: async () => ({ ...(await asyncMit('4111111111111111', 600)), expected: ['order.completed'] }),
      },
      {
        // Declined by the 1-min retry, then the window (80 s) ends: Cancelled + order.expired.
        flow: 'async MIT expired',
        run: async () => ({ ...(await asyncMit('4000000000009995', 80)), expected: ['order.expired'] }),
      },
      {
        flow: 'cancel',
        run: async () => {
          const order = await authorize();
          const res = await call(api, token, 'POST', `/v1/orders/${order.orderId}/cancel`, {});
          expect(res.status).toBe(200);
          return { ...order, expected: ['order.capturerequired', 'order.cancelled'] };
        },
      },
      {
        flow: 'refund (full)',
        run: async () => {
          const order = await evaluate({}, 'APPROVED');
          const res = await call(api, token, 'POST', `/v1/orders/${order.orderId}/refund`, {});
          expect({ status: res.status, orderStatus: res.body?.orderStatus }).toEqual({ status: 200, orderStatus: 6 });
          return { ...order, expected: ['order.completed', 'order.refunded'] };
        },
      },
    ];

    // The load: ROUNDS rounds of every flow, CONCURRENCY callers at once; the kills land mid-way.
    const ROUNDS = 10;
    const CONCURRENCY = 8;
    const queue = Array.from({ length: ROUNDS }, () => scenarios).flat();
    const total = queue.length;
    const results: Array<Awaited<ReturnType<Scenario['run']>> & { flow: string }> = [];
    const failures: string[] = [];
    let done = 0;
    const started = Date.now();
    const runners = Array.from({ length: CONCURRENCY }, async () => {
      for (let s = queue.shift(); s; s = queue.shift()) {
        try {
          results.push({ flow: s.flow, ...(await s.run()) });
        } catch (err) {
          failures.push(`${s.flow}: ${err instanceof Error ? err.message : String(err)}`);
        }
        done += 1;
      }
    });

    // Mid-load: SIGKILL one worker and one API process, restart them a few seconds later.
    while (done < total / 3) await new Promise((r) => setTimeout(r, 100));
    const [worker] = cluster.workers;
    const [apiProcess] = cluster.apis;
    if (!worker || !apiProcess) throw new Error('the cluster has no worker or API process');
    const killedAt = Date.now();
    const killedPids = [worker.pid, apiProcess.pid];
    await Promise.all([worker.kill('SIGKILL'), apiProcess.kill('SIGKILL')]);
    const doneAtKill = done;
    await new Promise((r) => setTimeout(r, 3_000));
    // As a supervisor would: a start that fails on the loaded machine is tried again (and said).
    await Promise.all([worker.startRetrying(120_000), apiProcess.startRetrying(120_000)]);
    const restartedIn = Date.now() - killedAt;

    // The restarted worker polls again: Temporal lists it (identity `pid@host`) among the pollers.
    const connection = await Connection.connect({ address: cluster.temporalAddress });
    const pollerPids = await (async () => {
      try {
        for (const deadline = Date.now() + 30_000; ; ) {
          const { pollers } = await connection.workflowService.describeTaskQueue({
            namespace: 'default',
            taskQueue: { name: 'payment-rescue' },
            taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
          });
          const pids = (pollers ?? []).map((p) => Number(String(p.identity).split('@')[0]));
          if (pids.includes(worker.pid ?? -1) || Date.now() > deadline) return pids;
          await new Promise((r) => setTimeout(r, 500));
        }
      } finally {
        await connection.close();
      }
    })();
    expect(pollerPids).toContain(worker.pid);

    await Promise.all(runners);
    const loadMs = Date.now() - started;
    expect(failures).toEqual([]);

    // The asynchronous flows settle on the server's timers (the 1-min retry, the 80 s window).
    const db = cluster.db;
    const eventsOf = async (orderId: string) =>
      (await db('events').where({ order_id: orderId }).orderBy('sequence').select('id', 'name')) as Array<{
        id: string;
        name: string;
      }>;
    const settleDeadline = Date.now() + 180_000;
    for (;;) {
      const pending = [];
      for (const r of results) {
        if ((await eventsOf(r.orderId)).length < r.expected.length) pending.push(r);
      }
      if (!pending.length || Date.now() > settleDeadline) break;
      await new Promise((r) => setTimeout(r, 1_000));
    }
    // Anything late (a duplicate) would arrive now.
    await new Promise((r) => setTimeout(r, 3_000));

    // Compare what callers were answered with the tables.
    const ids = results.map((r) => r.orderId);
    const rows = (await db('orders').whereIn('id', ids).select('id', 'merchant_id', 'external_order_id')) as Array<{
      id: string;
      merchant_id: string;
      external_order_id: string;
    }>;
    const byId = new Map(rows.map((r) => [r.id, r]));
    const ourExternal = results.map((r) => r.externalOrderId);
    const ordersForOurIds = (await db('orders')
      .whereIn('external_order_id', ourExternal)
      .select('merchant_id', 'external_order_id')) as Array<{ merchant_id: string; external_order_id: string }>;
    const perExternal = new Map<string, number>();
    for (const o of ordersForOurIds) {
      const key = `${o.merchant_id}/${o.external_order_id}`;
      perExternal.set(key, (perExternal.get(key) ?? 0) + 1);
    }

    let ordersLost = 0;
    let ordersMismatched = 0;
    let eventsLost = 0;
    let eventsDuplicated = 0;
    let eventsUnexpected = 0;
    let eventsTotal = 0;
    const problems: string[] = [];
    for (const r of results) {
      const row = byId.get(r.orderId);
      if (!row) {
        ordersLost += 1;
        problems.push(`${r.flow}: acknowledged order ${r.orderId} is not in the orders table`);
        continue;
      }
      if (row.merchant_id !== r.merchant || row.external_order_id !== r.externalOrderId) ordersMismatched += 1;
      const names = (await eventsOf(r.orderId)).map((e) => e.name);
      eventsTotal += names.length;
      const count = (list: string[], name: string) => list.filter((n) => n === name).length;
      for (const name of new Set([...names, ...r.expected])) {
        const [have, want] = [count(names, name), count(r.expected, name)];
        if (have < want) eventsLost += want - have;
        if (want > 0 && have > want) eventsDuplicated += have - want;
        if (want === 0) eventsUnexpected += have;
      }
      if (JSON.stringify(names) !== JSON.stringify(r.expected)) {
        problems.push(
          `${r.flow} ${r.orderId}: events ${JSON.stringify(names)}, expected ${JSON.stringify(r.expected)}`,
        );
      }
    }
    const ordersDuplicated = [...perExternal.values()].reduce((sum, n) => sum + (n - 1), 0);
    const eventIds = await db('events').whereIn('order_id', ids).select('id');
    const distinctEventIds = new Set(eventIds.map((e: { id: string }) => e.id)).size;

    const flows = [...new Set(results.map((r) => r.flow))];
    const report = [
      `flows: ${flows.length} (${flows.join(', ')}); orders acknowledged: ${results.length} of ${total}; load ${Math.round(loadMs / 1000)} s`,
      `killed with SIGKILL after ${doneAtKill} of ${total} orders: worker-1 (pid ${killedPids[0]}) and api-1 (pid ${killedPids[1]}); both serving again ${Math.round(restartedIn / 1000)} s later (worker-1 now pid ${worker.pid}, among the task queue's pollers: ${pollerPids.includes(worker.pid ?? -1)}; api-1 now pid ${apiProcess.pid}; starts in all: worker-1 ${worker.starts}, api-1 ${apiProcess.starts})`,
      `requests: ${stats.requests}; connections broken by the kill: ${stats.networkErrors}; answers after a same-key retry: ${stats.retriedAnswers}`,
      `same-key retries that found their command already done: Sync MIT evaluate answered APPROVED (captured) ${stats.syncEvaluateRetryCaptured}, capture answered 200 (captured) ${stats.captureRetryAnswered}`,
      `proxy connections per API process: ${[...cluster.proxy.connections.entries()].map(([k, v]) => `${k}=${v}`).join(', ')}`,
      `orders lost (acknowledged, not in the table): ${ordersLost}`,
      `orders duplicated (more than one row per merchant and externalOrderId): ${ordersDuplicated}`,
      `orders not matching the caller's merchant and externalOrderId: ${ordersMismatched}`,
      `events: ${eventsTotal} in the table, ${results.reduce((s, r) => s + r.expected.length, 0)} expected; distinct event ids ${distinctEventIds}`,
      `events lost: ${eventsLost}`,
      `events duplicated: ${eventsDuplicated}`,
      `events unexpected: ${eventsUnexpected}`,
    ];
    process.stdout.write(
      `${lines.map((l) => `[cluster] ${l}`).join('\n')}\n${report.map((l) => `[cluster-test] ${l}`).join('\n')}\n`,
    );
    for (const p of problems) process.stdout.write(`[cluster-test] problem: ${p}\n`);

    expect(results).toHaveLength(total);
    expect(stats.networkErrors + stats.retriedAnswers).toBeGreaterThanOrEqual(0);
    expect({ ordersLost, ordersDuplicated, ordersMismatched, eventsLost, eventsDuplicated, eventsUnexpected }).toEqual({
      ordersLost: 0,
      ordersDuplicated: 0,
      ordersMismatched: 0,
      eventsLost: 0,
      eventsDuplicated: 0,
      eventsUnexpected: 0,
    });
    expect(distinctEventIds).toBe(eventsTotal);
    expect(problems).toEqual([]);
  });

  it('lowers an accepted async MIT order behind every evaluate; a checkout keeps the first level', async () => {
    // Server 1.31+ changes a running workflow's priority (src/orders/accepted-rescues.ts): an
    // accepted rescue's retries then wait behind its own merchant's next evaluates too.
    const api = cluster.apiUrl;
    const { mid } = cluster.credentials;
    const token = await accessToken(api, cluster.credentials);
    const evaluate = async (overrides: Record<string, unknown>) => {
      const body = {
        idempotencyKey: randomUUID(),
        externalOrderId: `priority-${randomUUID()}`,
        transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
        paymentMethod: card('4000000000009995'), // declines every retry: the rescue stays open
        ...overrides,
      };
      const res = await call(api, token, 'POST', '/v1/evaluate', body);
      return { ...res, workflowId: orderWorkflowId(mid, body.externalOrderId) };
    };
    const mit = await evaluate({
      isMIT: true,
      isRecurring: true,
      subscription: { intervalCount: 1 },
      expiryDateUtc: inSeconds(3_600),
    });
    expect(mit.body).toMatchObject({ outcome: 'SUBMITTED' });
    const cit = await evaluate({ paymentMethod: card('4111111111111111') });
    expect(cit.body).toMatchObject({ outcome: 'APPROVED' });

    const connection = await Connection.connect({ address: cluster.temporalAddress });
    try {
      const client = new Client({ connection, namespace: 'default' });
      const priorityOf = async (workflowId: string) =>
        (await client.workflow.getHandle(workflowId).describe()).priority;
      // The API lowers it after answering; wait for it, with a deadline.
      let lowered = await priorityOf(mit.workflowId);
      for (const deadline = Date.now() + 30_000; lowered?.priorityKey !== 4 && Date.now() < deadline; ) {
        await new Promise((r) => setTimeout(r, 200));
        lowered = await priorityOf(mit.workflowId);
      }
      expect(lowered).toMatchObject({ priorityKey: 4, fairnessKey: mid });
      expect(await priorityOf(cit.workflowId)).toMatchObject({ priorityKey: 1, fairnessKey: mid });

      // The worker runs the order's next task past the new history event: a cancel is answered.
      const cancelled = await call(api, token, 'POST', `/v1/orders/${mit.body.orderId}/cancel`, {});
      expect({ status: cancelled.status, error: cancelled.body?.error }).toEqual({ status: 200, error: undefined });
      const history = await client.workflow.getHandle(mit.workflowId).fetchHistory();
      const types = (history.events ?? []).map((e) => e.eventType);
      const optionsUpdated = temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_EXECUTION_OPTIONS_UPDATED;
      expect(types.indexOf(optionsUpdated)).toBeGreaterThan(0);
      expect(types.lastIndexOf(temporal.api.enums.v1.EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)).toBeGreaterThan(
        types.indexOf(optionsUpdated),
      );
      // CAPTURE_HISTORIES=1: kept for the replay safety net (test/workflows/replay.test.ts).
      trackHistory('order', mit.workflowId);
      await saveTrackedHistories(client);
    } finally {
      await connection.close();
    }
  });
});
