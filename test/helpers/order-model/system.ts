import { randomUUID } from 'node:crypto';
import { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createOrderActivities } from '../../../src/activities/orders';
import { createRefundActivities } from '../../../src/activities/refunds';
import { createRetryBudgetActivities } from '../../../src/activities/retry-budget';
import { apiErrorOf } from '../../../src/api/order-failures';
import { loadConfig } from '../../../src/config';
import { findMerchantOrder } from '../../../src/db/repositories/orders';
import type { EvaluateInput } from '../../../src/domain/orders/contracts';
import type { EvaluateRequest } from '../../../src/domain/orders/evaluate-request';
import { OrderFailure } from '../../../src/domain/orders/order-failure';
import { orderWorkflowId } from '../../../src/domain/orders/workflow-ids';
import { cancelOrder, captureOrder, refundOrder } from '../../../src/orders/commands';
import type { OrderDeps } from '../../../src/orders/deps';
import { closedOrderEvaluate } from '../../../src/orders/further-evaluate';
import { CLOSED, OrderClient } from '../../../src/orders/order-client';
import { createTestDatabase, type TestDatabase } from '../database';
import { seedMerchant } from '../fixtures';
import { evaluateInput, eventNames, orderRow, vaultTestCard } from '../orders';
import { createTimeSkippingEnv, sharedWorkflowBundle, uniqueTaskQueue } from '../temporal';
import { AMOUNT, ASYNC_MIT_WINDOW_MS, type Expected, type OrderSetup, SYNC_MIT_WINDOW_MS } from './model';
import { ScriptedProcessor } from './scripted-processor';

/**
 * The real side of the model test: the order workflow on the time-skipping server, driven the
 * way the API drives it (src/orders: the OrderClient's Updates, capture, cancel and refund use
 * cases, the read model once the workflow has closed), with real Postgres for the read model, the
 * outbox and the refunds ledger, and the scripted processor simulator for the money.
 */
export class OrderSystem {
  private constructor(
    readonly env: TestWorkflowEnvironment,
    readonly processor: ScriptedProcessor,
    private readonly database: TestDatabase,
    private readonly owner: { mid: string; pid: string },
    private readonly card: EvaluateInput['card'],
    private readonly deps: OrderDeps,
    private readonly clock: { at: number },
    private readonly stopWorker: () => Promise<void>,
  ) {}

  static async start(): Promise<OrderSystem> {
    const [env, database] = await Promise.all([createTimeSkippingEnv(), createTestDatabase()]);
    const config = loadConfig({});
    const owner = await seedMerchant(database.db);
    const card = await vaultTestCard(database.db, owner.mid, '4111111111111111', config.vaultKeys);
    const taskQueue = uniqueTaskQueue('order-model');
    const processor = new ScriptedProcessor();
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: sharedWorkflowBundle(),
      activities: {
        ...createOrderActivities({ db: database.db }),
        ...createRefundActivities({ db: database.db }),
        // The card's retry budget, from the ledger (the scripted processor writes none: always allowed).
        ...createRetryBudgetActivities({ db: database.db, networkRegion: config.networkRegion }),
        ...processor.activities(),
      },
    });
    const running = worker.run();
    // A plain client: waiting on a refund's result must not unlock the test server's time skipping.
    const workflows = new OrderClient(new Client({ connection: env.connection }), taskQueue, { callerDeadline: false });
    // The read model's answers (the Sync MIT cutoff of a closed order) read the test server's time.
    const clock = { at: await env.currentTimeMs() };
    const deps = {
      db: database.db,
      clock: { now: () => new Date(clock.at) },
      environment: config.environment,
      vaultKeys: config.vaultKeys,
      workflows,
    } as unknown as OrderDeps;
    return new OrderSystem(env, processor, database, owner, card, deps, clock, async () => {
      worker.shutdown();
      await running;
    });
  }

  /** The test server's time, which the read model's clock then tells too. */
  async now(): Promise<number> {
    this.clock.at = await this.env.currentTimeMs();
    return this.clock.at;
  }

  async stop(): Promise<void> {
    await this.stopWorker();
    await this.env.teardown();
    await this.database.drop();
  }

  /** A new order on the system, whose first new charge the processor answers `setup.firstAnswer`. */
  newOrder(setup: OrderSetup): SystemOrder {
    this.processor.reset(setup.firstAnswer);
    return new SystemOrder(this, setup, `model-${randomUUID()}`);
  }

  /** For SystemOrder: what it drives the order with. */
  get internals() {
    return { deps: this.deps, owner: this.owner, card: this.card, db: this.database.db };
  }
}

/** What the system shows of an order, to compare with the model. */
export interface Observed {
  status: string | null;
  captured: number;
  refunded: number;
  events: string[];
}

/** One order, driven as the API drives it; every call answers as the model's Expected does. */
export class SystemOrder {
  orderId: string | null = null;
  private input: EvaluateInput | null = null;

  constructor(
    private readonly system: OrderSystem,
    readonly setup: OrderSetup,
    readonly externalOrderId: string,
  ) {}

  private get workflowId(): string {
    return orderWorkflowId(this.system.internals.owner.mid, this.externalOrderId);
  }

  /** The first evaluate at `now`; returns the expiryDateUtc it sent (MIT), for the model. */
  async evaluate(now: number): Promise<{ answer: Expected; windowEnd: number }> {
    const { flow, transactionType, scoring } = this.setup;
    const windowMs = flow === 'SYNC_MIT' ? SYNC_MIT_WINDOW_MS : ASYNC_MIT_WINDOW_MS;
    const windowEnd = now + windowMs;
    const scored =
      scoring === 'approve'
        ? { decision: 'approve' as const, score: 60, reasons: [], deviceSignalsUsed: false }
        : { decision: 'decline' as const, score: 5, reasons: ['velocity'], deviceSignalsUsed: false };
    this.input = evaluateInput(this.system.internals.card, new Date(now), {
      flow,
      transactionType,
      isMIT: flow !== 'CIT',
      isRecurring: flow !== 'CIT',
      intervalCount: flow !== 'CIT' ? 1 : null,
      amount: AMOUNT,
      expiryDateUtc: flow === 'CIT' ? null : new Date(windowEnd).toISOString(),
      idempotencyKey: randomUUID(),
      scored,
      settings: { authorizeCapability: true },
    });
    const answer = await this.sendEvaluate(this.input);
    const row = await this.system.internals.db('orders').where({ external_order_id: this.externalOrderId }).first();
    this.orderId = row?.id ?? null;
    return { answer, windowEnd };
  }

  /** The same payment evaluated again under another idempotencyKey. */
  furtherEvaluate(): Promise<Expected> {
    if (!this.input) throw new Error('not evaluated');
    return this.sendEvaluate({ ...this.input, idempotencyKey: randomUUID() });
  }

  private async sendEvaluate(input: EvaluateInput): Promise<Expected> {
    const { deps, owner } = this.system.internals;
    return answered(async () => {
      const ownerInfo = { merchantId: owner.mid, partnerId: owner.pid, isTestMode: true };
      const result = await deps.workflows.evaluate(ownerInfo, this.externalOrderId, input);
      if (result !== CLOSED) {
        if (result.kind === 'rescue_unavailable') throw new OrderFailure({ reason: 'rescue_unavailable' });
        return { outcome: result.outcome };
      }
      const body = {
        externalOrderId: this.externalOrderId,
        transaction: { amount: input.amount, currency: input.currency },
        attemptCount: input.attemptCount,
      } as unknown as EvaluateRequest;
      const closed = await closedOrderEvaluate(deps, owner.mid, body, { token: input.card.token });
      return { outcome: closed.outcome };
    });
  }

  async capture(amount: number | null): Promise<Expected> {
    const order = await this.row();
    return answered(() => captureOrder(this.system.internals.deps, order, amount, randomUUID()).then(done));
  }

  cancel(via: 'cancel' | 'external-cancel'): Promise<Expected> {
    const { deps, owner } = this.system.internals;
    const find = () =>
      via === 'cancel'
        ? findMerchantOrder(deps.db, owner.mid, this.orderId ?? '')
        : deps.db('orders').where({ merchant_id: owner.mid, external_order_id: this.externalOrderId }).first();
    return answered(() => cancelOrder(deps, this.workflowId, find, via).then(done));
  }

  async refund(key: string | null, amount: number | null): Promise<Expected> {
    const order = await this.row();
    return answered(() =>
      refundOrder(this.system.internals.deps, order, { amount, partial: key !== null, idempotencyKey: key }).then(done),
    );
  }

  private async row() {
    const row = await findMerchantOrder(this.system.internals.db, this.system.internals.owner.mid, this.orderId ?? '');
    if (!row) throw new Error(`order ${this.orderId} not in the read model`);
    return row;
  }

  /** The read model and the outbox, as they stand. */
  async observe(): Promise<Observed> {
    const { db } = this.system.internals;
    if (!this.orderId) return { status: null, captured: 0, refunded: 0, events: [] };
    const row = await orderRow(db, this.orderId);
    return {
      status: row.status_name,
      captured: row.captured_amount,
      refunded: row.refunded_amount,
      events: await eventNames(db, this.orderId),
    };
  }

  /** Ends the order's workflow if it still runs, so its timers never fire under a later order. */
  async close(): Promise<void> {
    await this.system.env.client.workflow
      .getHandle(this.workflowId)
      .terminate('model sequence over')
      .catch(() => undefined);
  }
}

/** A command's result, as the model states it: done. */
const done = (): Expected => ({ ok: true });

/** A use case's result as the model states it: an outcome, success, or its error's six-digit id (as the API maps it). */
async function answered(call: () => Promise<Expected>): Promise<Expected> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof OrderFailure) return { error: apiErrorOf(err).definition.id };
    throw err;
  }
}
