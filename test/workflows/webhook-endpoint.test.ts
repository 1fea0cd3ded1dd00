import { randomUUID } from 'node:crypto';
import { startReceiver } from '../../scripts/receivers/https-receiver';
import { updateMerchantSettings } from '../../src/db/repositories/merchants';
import { insertDueDeliveries, resendDeliveries } from '../../src/db/repositories/webhook-due-deliveries';
import { createEndpoint, deleteEndpoint } from '../../src/db/repositories/webhook-endpoints';
import { derivedUuid } from '../../src/domain/ids';
import { deliveriesAddedSignal, endpointWorkflowId, webhookEndpointWorkflow } from '../../src/workflows';
import { eventually } from '../helpers/eventually';
import { seedMerchant } from '../helpers/fixtures';
import { trackHistory } from '../helpers/histories';
import { useWebhookWorkflowStack } from '../helpers/webhook-workflow-stack';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const SCHEDULE_MINUTES = [0, 1, 5, 30, 120, 300, 600, 1440, 2160, 2880, 4320, 5760, 7200];

/**
 * The per-endpoint delivery workflow (webhookEndpointWorkflow) on the time-skipping server: the
 * documented schedule per delivery, the failure streak's mail and disabling, resends.
 */
describe('webhook endpoint workflow (time-skipping server, real HTTPS receiver, real SMTP server)', () => {
  const stack = useWebhookWorkflowStack('webhook-endpoints');

  /** A merchant with a technical contact and an endpoint on `url`; `delivery()` records an event and its delivery, due now. */
  async function setup(url: string, technicalContactEmail = 'ops@shop.example') {
    const { mid, pid } = await seedMerchant(stack.database.db);
    await updateMerchantSettings(stack.database.db, mid, { technicalContactEmail }, new Date());
    const { row: endpoint } = await createEndpoint(
      stack.database.db,
      { partnerId: pid, merchantId: mid, url, events: ['*'], description: null },
      stack.config.vaultKeys,
    );
    const delivery = async () => {
      const eventId = randomUUID();
      await stack.database.db('events').insert({
        id: eventId,
        name: 'order.completed',
        merchant_id: mid,
        partner_id: pid,
        order_id: randomUUID(),
        external_order_id: 'shop-1',
        confirmation_id: 'c-1',
        data: null,
        is_test_mode: true,
        occurred_at: new Date(),
        dispatched_at: new Date(),
      });
      const id = derivedUuid(eventId, endpoint.id);
      await insertDueDeliveries(stack.database.db, [{ id, event_id: eventId, endpoint_id: endpoint.id }]);
      return { id, event_id: eventId, endpoint_id: endpoint.id };
    };
    /** What the relay does after its commit: signal-with-start of the endpoint's workflow. */
    const signal = async () => {
      const handle = await stack.env.client.workflow.signalWithStart(webhookEndpointWorkflow, {
        taskQueue: stack.taskQueue,
        workflowId: endpointWorkflowId(endpoint.id),
        args: [{ endpointId: endpoint.id }],
        signal: deliveriesAddedSignal,
      });
      trackHistory('webhook-endpoint', handle.workflowId, handle.signaledRunId);
      return stack.env.client.workflow.getHandle(handle.workflowId, handle.signaledRunId);
    };
    return { endpoint, delivery, signal };
  }

  const attemptsOf = (deliveryId: string) =>
    stack.database.db('webhook_attempts').where({ delivery_id: deliveryId }).orderBy('attempt', 'asc');
  const minutesFromFirst = (attempts: Array<{ started_at: Date }>) =>
    attempts.map((a) => Math.round((a.started_at.getTime() - (attempts[0]?.started_at.getTime() ?? 0)) / MINUTE));

  it('receiver down: the schedule, one IdempotencyKey, IsResent after the first, one e-mail at 72 h, disabled at 120 h, nothing after', async () => {
    const receiver = await startReceiver(503);
    try {
      const { endpoint, delivery, signal } = await setup(receiver.url);
      const { id: deliveryId } = await delivery();
      const handle = await signal();

      await stack.env.sleep(71 * HOUR);
      expect(stack.mails).toHaveLength(0);
      await stack.env.sleep(2 * HOUR); // the attempt at 72 h crosses the alert threshold
      expect(stack.mails).toHaveLength(1);
      expect(stack.mails[0]?.to).toBe('ops@shop.example');
      expect(stack.mails[0]?.text).toContain(endpoint.id);
      expect((await stack.database.db('webhook_endpoints').where({ id: endpoint.id }).first())?.enabled).toBe(true);

      // After the last attempt nothing is pending: the workflow completes once idle.
      expect(await handle.result()).toEqual({ delivered: 0, failed: 13, stopped: 0 });
      expect(stack.mails).toHaveLength(1); // once, not at every later failure
      const row = await stack.database.db('webhook_endpoints').where({ id: endpoint.id }).first();
      expect(row?.enabled).toBe(false);
      expect(row?.disabled_reason).toContain('failing since');
      const stored = await stack.database.db('webhook_deliveries').where({ id: deliveryId }).first();
      expect([stored?.status, stored?.attempts, stored?.next_attempt_at]).toEqual(['failed', 13, null]);

      const attempts = await attemptsOf(deliveryId);
      expect(minutesFromFirst(attempts)).toEqual(SCHEDULE_MINUTES);
      expect(attempts.map((a: { attempt: number }) => a.attempt)).toEqual(SCHEDULE_MINUTES.map((_, i) => i + 1));
      expect(attempts.map((a: { is_resent: boolean }) => a.is_resent)).toEqual([false, ...Array(12).fill(true)]);
      const envelopes = receiver.received.map((r) => JSON.parse(r.body));
      expect(envelopes).toHaveLength(13);
      expect(new Set(envelopes.map((e) => e.IdempotencyKey))).toEqual(new Set([deliveryId]));
      expect(envelopes.map((e) => e.IsResent)).toEqual([false, ...Array(12).fill(true)]);

      // Disabled: a later event is stopped, not sent (a new run of the endpoint's workflow).
      const later = await delivery();
      expect(await (await signal()).result()).toEqual({ delivered: 0, failed: 0, stopped: 1 });
      expect(receiver.received).toHaveLength(13);
      expect((await stack.database.db('webhook_deliveries').where({ id: later.id }).first())?.status).toBe('stopped');
    } finally {
      await receiver.stop();
    }
  });

  it('an alert mail the relay refuses does not keep a failing endpoint from being disabled at 120 h', async () => {
    const receiver = await startReceiver(503);
    const mailsBefore = stack.mails.length;
    try {
      const { endpoint, delivery, signal } = await setup(receiver.url, 'ops@refused.example');
      await delivery();
      expect(await (await signal()).result()).toEqual({ delivered: 0, failed: 13, stopped: 0 });
      const row = await stack.database.db('webhook_endpoints').where({ id: endpoint.id }).first();
      expect([row?.enabled, row?.alerted_at]).toEqual([false, null]); // disabled; the alert still unsent
      expect(receiver.received).toHaveLength(13);
      expect(stack.mails).toHaveLength(mailsBefore);
    } finally {
      await receiver.stop();
    }
  });

  it('each delivery keeps its own schedule; the receiver back: delivered, the streak reset, no e-mail', async () => {
    const receiver = await startReceiver(500);
    const mailsBefore = stack.mails.length;
    try {
      const { endpoint, delivery, signal } = await setup(receiver.url);
      const first = await delivery();
      const handle = await signal();
      await stack.env.sleep(3 * MINUTE);
      const second = await delivery(); // added 3 minutes later: its schedule starts then
      await signal();
      await stack.env.sleep(40 * MINUTE);
      expect(minutesFromFirst(await attemptsOf(first.id))).toEqual([0, 1, 5, 30]);
      expect(minutesFromFirst(await attemptsOf(second.id))).toEqual([0, 1, 5, 30]);
      const firstAt = (await attemptsOf(first.id))[0]?.started_at.getTime() ?? Number.NaN;
      const secondAt = (await attemptsOf(second.id))[0]?.started_at.getTime() ?? Number.NaN;
      expect(Math.round((secondAt - firstAt) / MINUTE)).toBe(3);

      receiver.setStatus(204);
      expect(await handle.result()).toEqual({ delivered: 2, failed: 8, stopped: 0 });
      for (const { id } of [first, second]) {
        const attempts = await attemptsOf(id);
        expect(attempts.map((a: { succeeded: boolean }) => a.succeeded)).toEqual([false, false, false, false, true]);
        expect((await stack.database.db('webhook_deliveries').where({ id }).first())?.status).toBe('delivered');
      }
      expect(stack.mails.length).toBe(mailsBefore);
      const row = await stack.database.db('webhook_endpoints').where({ id: endpoint.id }).first();
      expect([row?.enabled, row?.failing_since]).toEqual([true, null]);
    } finally {
      await receiver.stop();
    }
  });

  it('a streak lapses when nothing is left to deliver: a failure days later starts a new one, never disables', async () => {
    const receiver = await startReceiver(503);
    const endpointRow = (id: string) => stack.database.db('webhook_endpoints').where({ id }).first();
    try {
      const { endpoint, delivery, signal } = await setup(receiver.url);
      await delivery(); // P: refused on every attempt of its five days
      const handle = await signal();
      await stack.env.sleep(11 * HOUR); // P's attempts up to 10 h have failed: a streak since 0 h
      receiver.setStatus(204);
      const q = await delivery(); // Q, delivered at once: the 2xx ends that streak
      await signal();
      await eventually(
        async () => (await stack.database.db('webhook_deliveries').where({ id: q.id }).first())?.status,
        (status) => status === 'delivered',
        { describe: `delivery ${q.id} delivered` },
      );
      receiver.setStatus(503);
      // P's attempts from 24 h to 120 h fail: a streak of 96 h when P gives up, short of disabling.
      expect(await handle.result()).toEqual({ delivered: 1, failed: 13, stopped: 0 });
      expect(await endpointRow(endpoint.id)).toMatchObject({ enabled: true, failing_since: null });

      await stack.env.sleep(10 * 24 * HOUR); // nothing to deliver for ten days
      const r = await delivery(); // R's first attempt fails: a streak of its own, just begun
      const later = await signal();
      await eventually(
        async () => (await attemptsOf(r.id)).length,
        (n) => n >= 1,
        { describe: `a first attempt of delivery ${r.id}` },
      );
      const row = await endpointRow(endpoint.id);
      expect(row).toMatchObject({ enabled: true, disabled_at: null });
      expect(row?.failing_since?.getTime()).toBe((await attemptsOf(r.id))[0]?.started_at.getTime());
      await later.terminate();
    } finally {
      await receiver.stop();
    }
  });

  it('a delete reaches the deliveries a running call already claimed within a second', async () => {
    const receiver = await startReceiver(204);
    receiver.setDelay(1_500); // each round of posts takes 1.5 s to answer
    try {
      const { endpoint, delivery, signal } = await setup(receiver.url);
      for (let i = 0; i < 20; i += 1) await delivery();
      const handle = await signal();
      // The first round is in flight: one post per lane of the endpoint's concurrency.
      const lanes = stack.config.webhooks.maxInFlightPerEndpoint;
      await eventually(
        () => receiver.received.length,
        (n) => n >= lanes,
        { describe: 'the first round of posts at the receiver' },
      );
      await deleteEndpoint(stack.database.db, endpoint.id);
      // The call had claimed 20 (5 rounds): the round in flight ends, the other 16 stop unsent.
      expect(await handle.result()).toEqual({ delivered: lanes, failed: 0, stopped: 20 - lanes });
      expect(receiver.received).toHaveLength(lanes);
    } finally {
      await receiver.stop();
    }
  });

  it('a resend starts a new round: IsResent on every attempt, the same IdempotencyKey, attempts numbered from 1', async () => {
    const receiver = await startReceiver(200);
    try {
      const { delivery, signal } = await setup(receiver.url);
      const d = await delivery();
      expect(await (await signal()).result()).toEqual({ delivered: 1, failed: 0, stopped: 0 });
      receiver.setStatus(500);
      await resendDeliveries(stack.database.db, [d]);
      const resend = await signal();
      await stack.env.sleep(2 * MINUTE); // the resend's first attempt and its retry a minute later
      receiver.setStatus(200);
      expect(await resend.result()).toEqual({ delivered: 1, failed: 2, stopped: 0 });
      const attempts = await attemptsOf(d.id);
      expect(attempts.map((a: { attempt: number; is_resent: boolean }) => [a.attempt, a.is_resent])).toEqual([
        [1, false],
        [1, true],
        [2, true],
        [3, true],
      ]);
      expect(minutesFromFirst(attempts.slice(1))).toEqual([0, 1, 5]);
      const envelopes = receiver.received.map((r) => JSON.parse(r.body));
      expect(envelopes.map((e) => [e.IdempotencyKey, e.IsResent])).toEqual([
        [d.id, false],
        [d.id, true],
        [d.id, true],
        [d.id, true],
      ]);
    } finally {
      await receiver.stop();
    }
  });
});
