import type { ChildProcess } from 'node:child_process';
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import type { FaultPoint } from '../../../src/activities/fault-points';
import { listOrderEvents } from '../../../src/db/repositories/events';
import { type ApiAnswer, callApi } from '../../helpers/api-client';
import { eventually } from '../../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../../helpers/fixtures';
import { shared } from '../../helpers/shared-env';
import { startTestStack, type TestStack } from '../../helpers/stack';
import { killWorker, startWorkerProcess } from '../../helpers/worker-process';
import { type CardNetwork, startCardNetwork } from './card-network';
import { BEHAVIOURS, TEST_VAULT_KEYS } from './cards';
import { type StripeMock, startStripeMock } from './stripe-mock';

/**
 * The ledger row's state when the worker died at each point (src/activities/charge-ledger.ts):
 * the intent is recorded sent in one statement, so before the call and after it the row is `sent`;
 * only the processor's own record (its PaymentIntents) tells the two apart.
 */
export const ROW_AT_KILL: Record<FaultPoint, string> = {
  'charge.after-intent': 'sent',
  'charge.after-answer': 'sent',
  'charge.after-record': 'answered',
};

/** Answers that mean "not decided yet, retry with the same key" (docs/errors.md). */
export const retryLater = (a: ApiAnswer) =>
  (a.status === 503 && a.body?.error?.id === '503010') ||
  (a.status === 500 && a.body?.error?.id === '500010') ||
  (a.status === 409 && a.body?.error?.id === '409009');

/**
 * The kill-point matrix's bed (docs/architecture.md, "Money invariants"): the API in the test
 * process, the worker as its own process (armed with FAULT_KILL_AT to SIGKILL itself at one
 * point of a charge, src/activities/fault-points.ts), a merchant on Stripe, which is stripe-mock
 * behind the card-network simulator.
 */
export interface KillBed {
  stack: TestStack;
  network: CardNetwork;
  api(method: string, url: string, body?: unknown): Promise<ApiAnswer>;
  /** A worker process; armed at `killAt`, it dies there (resolved once it polls). */
  startWorker(killAt?: FaultPoint): Promise<ChildProcess>;
  /** Resolves once this worker SIGKILLed itself (within `timeoutMs`, 60 s unless told). */
  died(worker: ChildProcess, timeoutMs?: number): Promise<void>;
  /** SIGKILLs any worker still alive. */
  killWorkers(): Promise<void>;
  /** The order's charges as the ledger, the lookup, the events and the simulator show them; asserts they agree. */
  moneyAgrees(orderId: string): Promise<{ order: ApiAnswer['body']; events: string[] }>;
  stop(): Promise<void>;
}

export async function startKillBed(
  name: string,
  /** More environment for the API. */
  options: { apiEnv?: Record<string, string> } = {},
): Promise<KillBed> {
  const stripeMock: StripeMock = await startStripeMock();
  const network = await startCardNetwork(stripeMock.url, BEHAVIOURS);
  const processorEnv = {
    FC_ENVIRONMENT: 'production',
    CARD_VAULT_KEYS: TEST_VAULT_KEYS,
    STRIPE_SECRET_KEY: 'sk_test_processors',
    STRIPE_API_BASE: network.url,
  };
  const stack = await startTestStack({ inProcessWorker: false, env: { ...processorEnv, ...options.apiEnv } });
  const merchant = await seedMerchant(stack.db);
  const token = await accessToken(stack.baseUrl, await seedKey(stack.db, merchant));
  const api = (method: string, url: string, body?: unknown) => callApi(stack.baseUrl, token, method, url, body);
  // Stripe, and allowed to authorize (transactionType AUTHORIZATION) as well as sell.
  const settings = await api('PUT', `/v1/merchants/${merchant.mid}/settings`, {
    processor: 'stripe',
    authorizeCapability: true,
  });
  if (settings.body?.authorizeCapability !== true) throw new Error(`merchant settings refused: ${settings.text}`);
  const workers: ChildProcess[] = [];
  const output: string[] = [];
  const alive = (w: ChildProcess) => w.exitCode === null && w.signalCode === null;

  const paymentIntents = (key: string) =>
    network.requests.filter((r) => r.method === 'POST' && r.path === '/v1/payment_intents' && r.idempotencyKey === key);

  async function moneyAgrees(orderId: string) {
    const rows = await stack.db('charges').where({ order_id: orderId }).orderBy(['attempt', 'created_at']);
    const lookup = await api('GET', `/v1/orders/${orderId}`);
    expect(lookup.status).toBe(200);
    const order = lookup.body;
    const view = (a: { kind: string; attempt: number; state: string; result: string | null }) =>
      `${a.kind} ${a.attempt} ${a.state} ${a.result}`;
    // The lookup shows every processor call the ledger holds, as the ledger holds it.
    expect(order.attempts.map(view).sort()).toEqual(rows.map(view).sort());
    for (const row of rows.filter((r) => r.kind === 'sale' || r.kind === 'authorization')) {
      const fresh = paymentIntents(row.id).filter((r) => !r.replayed);
      // At most one charge per attempt key: every other request under it was a replay.
      expect(fresh.length).toBeLessThanOrEqual(1);
      const charged = fresh.some((r) => r.status === 200);
      expect([row.id, row.result === 'approved']).toEqual([row.id, charged]);
      if (!charged) continue;
      if (row.state === 'reversed') {
        // Given back: the void (PaymentIntent cancelled) or the full refund, under its own row's key.
        const undo = rows.find((r) => (r.kind === 'void' || r.kind === 'reversal') && r.attempt === row.attempt);
        expect(undo).toMatchObject({ state: 'answered', result: 'done' });
        const sent = network.requests.filter((r) => r.idempotencyKey === undo?.id && !r.replayed && r.status === 200);
        expect(sent.map((r) => r.path.replace(/pi_\w+/, 'pi'))).toEqual([
          undo?.kind === 'void' ? '/v1/payment_intents/pi/cancel' : '/v1/refunds',
        ]);
      } else {
        // The money is held by the order: Completed with it captured, or authorized awaiting capture.
        expect(row.state).toBe('answered');
        const held =
          row.kind === 'sale'
            ? { status: 7, amounts: expect.objectContaining({ captured: row.amount }) }
            : { status: 5, amounts: expect.objectContaining({ authorized: row.amount }) };
        expect(order).toMatchObject(held);
      }
    }
    return { order, events: (await listOrderEvents(stack.db, orderId)).map((e) => e.name) };
  }

  return {
    stack,
    network,
    api,
    async startWorker(killAt) {
      const env = killAt ? { ...processorEnv, FAULT_KILL_AT: killAt, FC_TEST_FAULTS: '1' } : processorEnv;
      const worker = await startWorkerProcess(stack, output, stack.databaseUrl, env);
      workers.push(worker);
      return worker;
    },
    died: async (worker, timeoutMs = 60_000) => {
      await eventually(
        () => worker.signalCode,
        (signal) => signal === 'SIGKILL',
        { describe: 'the armed worker to kill itself at its fault point', timeoutMs, intervalMs: 50 },
      );
    },
    async killWorkers() {
      for (const worker of workers.splice(0)) if (alive(worker)) await killWorker(worker);
    },
    moneyAgrees,
    async stop() {
      for (const worker of workers) if (alive(worker)) await killWorker(worker);
      await stack.stop();
      await network.stop();
      await stripeMock.stop();
      await appendFile(path.join(shared('logDir'), `${name}-${process.pid}.log`), output.join(''));
    },
  };
}

/** Every charge the simulator made (a PaymentIntent it created) is a ledger row whose order shows it. */
export async function everyChargeShown(bed: KillBed): Promise<void> {
  const made = bed.network.requests.filter(
    (r) => r.method === 'POST' && r.path === '/v1/payment_intents' && !r.replayed && r.status === 200,
  );
  const keys = made.map((r) => r.idempotencyKey ?? '');
  const rows = await bed.stack.db('charges').whereIn('id', keys).select('id', 'order_id');
  expect(rows.map((r) => r.id).sort()).toEqual([...keys].sort());
  for (const orderId of new Set(rows.map((r) => r.order_id))) await bed.moneyAgrees(orderId);
}

/** The one charges-ledger row `where` finds; none, or more than one, fails here. */
export async function onlyCharge(bed: KillBed, where: Record<string, string>) {
  const rows = await bed.stack.db('charges').where(where);
  if (rows.length !== 1) throw new Error(`expected one charge where ${JSON.stringify(where)}, found ${rows.length}`);
  return rows[0] as (typeof rows)[number];
}
