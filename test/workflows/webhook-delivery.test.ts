import { randomUUID } from 'node:crypto';
import { updateMerchantSettings } from '../../src/db/repositories/merchants';
import { createEndpoint, signingSecretOf } from '../../src/db/repositories/webhook-endpoints';
import { derivedUuid } from '../../src/domain/ids';
import { verifyWebhook } from '../../src/domain/webhooks/signature';
import { webhookDeliveryWorkflow } from '../../src/workflows';
import { seedMerchant } from '../helpers/fixtures';
import { trackHistory } from '../helpers/histories';
import { startReceiver } from '../helpers/https-receiver';
import { useWebhookWorkflowStack } from '../helpers/webhook-workflow-stack';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('webhook delivery (time-skipping server, real HTTPS receiver, real SMTP server)', () => {
  const stack = useWebhookWorkflowStack('webhooks');

  /** A merchant with a technical contact, an endpoint on `url`, and one recorded event ready to deliver. */
  async function setup(url: string) {
    const { mid, pid } = await seedMerchant(stack.database.db);
    await updateMerchantSettings(stack.database.db, mid, { technicalContactEmail: 'ops@shop.example' }, new Date());
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
      await stack.database
        .db('webhook_deliveries')
        .insert({ id, event_id: eventId, endpoint_id: endpoint.id, status: 'pending' });
      return id;
    };
    return { mid, endpoint, delivery };
  }

  const attemptsOf = (deliveryId: string) =>
    stack.database.db('webhook_attempts').where({ delivery_id: deliveryId }).orderBy('attempt', 'asc');

  it('receiver down: backs off on the schedule, same IdempotencyKey, IsResent after the first, one e-mail at 72 h, disabled at 120 h, nothing after', async () => {
    const receiver = await startReceiver(503);
    try {
      const { endpoint, delivery } = await setup(receiver.url);
      const deliveryId = await delivery();
      const handle = await stack.env.client.workflow.start(webhookDeliveryWorkflow, {
        taskQueue: stack.taskQueue,
        workflowId: `d-${deliveryId}`,
        args: [{ deliveryId, resend: false }],
      });
      trackHistory('webhook-delivery', handle.workflowId);

      await stack.env.sleep(71 * HOUR);
      expect(stack.mails).toHaveLength(0);
      await stack.env.sleep(2 * HOUR); // the attempt at 72 h crosses the alert threshold
      expect(stack.mails).toHaveLength(1);
      expect(stack.mails[0]?.to).toBe('ops@shop.example');
      expect(stack.mails[0]?.text).toContain(endpoint.id);
      expect((await stack.database.db('webhook_endpoints').where({ id: endpoint.id }).first()).enabled).toBe(true);

      expect(await handle.result()).toEqual({ outcome: 'failed', attempts: 13 });
      expect(stack.mails).toHaveLength(1); // once, not at every later failure
      const row = await stack.database.db('webhook_endpoints').where({ id: endpoint.id }).first();
      expect(row.enabled).toBe(false);
      expect(row.disabled_reason).toContain('failing since');

      // The documented schedule, measured on workflow time.
      const attempts = await attemptsOf(deliveryId);
      const first = attempts[0].started_at.getTime();
      const offsets = attempts.map((a: { started_at: Date }) => Math.round((a.started_at.getTime() - first) / MINUTE));
      expect(offsets).toEqual([0, 1, 5, 30, 120, 300, 600, 1440, 2160, 2880, 4320, 5760, 7200]);
      expect(attempts.map((a: { is_resent: boolean }) => a.is_resent)).toEqual([false, ...Array(12).fill(true)]);
      expect(attempts.every((a: { status_code: number }) => a.status_code === 503)).toBe(true);
      // What the receiver saw: 13 deliveries of one envelope, its IdempotencyKey unchanged.
      const envelopes = receiver.received.map((r) => JSON.parse(r.body));
      expect(envelopes).toHaveLength(13);
      expect(new Set(envelopes.map((e) => e.IdempotencyKey))).toEqual(new Set([deliveryId]));
      expect(envelopes.map((e) => e.IsResent)).toEqual([false, ...Array(12).fill(true)]);

      // Disabled: a later event is not delivered at all.
      const later = await delivery();
      trackHistory('webhook-delivery', `d-${later}`);
      expect(
        await stack.env.client.workflow.execute(webhookDeliveryWorkflow, {
          taskQueue: stack.taskQueue,
          workflowId: `d-${later}`,
          args: [{ deliveryId: later, resend: false }],
        }),
      ).toEqual({
        outcome: 'stopped',
        attempts: 1,
      });
      expect(receiver.received).toHaveLength(13);
      expect((await stack.database.db('webhook_deliveries').where({ id: later }).first()).status).toBe('stopped');
    } finally {
      await receiver.stop();
    }
  });

  it('receiver back before the threshold: delivered, the log shows every attempt, no e-mail, streak reset', async () => {
    const receiver = await startReceiver(500);
    const mailsBefore = stack.mails.length;
    try {
      const { endpoint, delivery } = await setup(receiver.url);
      const deliveryId = await delivery();
      const handle = await stack.env.client.workflow.start(webhookDeliveryWorkflow, {
        taskQueue: stack.taskQueue,
        workflowId: `d-${deliveryId}`,
        args: [{ deliveryId, resend: false }],
      });
      trackHistory('webhook-delivery', handle.workflowId);
      await stack.env.sleep(10 * MINUTE); // attempts at 0, 1 and 5 minutes fail
      receiver.setStatus(204);
      expect(await handle.result()).toEqual({ outcome: 'delivered', attempts: 4 });
      const attempts = await attemptsOf(deliveryId);
      expect(attempts.map((a: { status_code: number; succeeded: boolean }) => [a.status_code, a.succeeded])).toEqual([
        [500, false],
        [500, false],
        [500, false],
        [204, true],
      ]);
      expect(stack.mails.length).toBe(mailsBefore);
      const row = await stack.database.db('webhook_endpoints').where({ id: endpoint.id }).first();
      expect([row.enabled, row.failing_since]).toEqual([true, null]);
      const delivered = await stack.database.db('webhook_deliveries').where({ id: deliveryId }).first();
      expect(delivered.status).toBe('delivered');
      // Each delivery is signed for this endpoint's host.
      const last = receiver.received[3];
      expect(
        verifyWebhook({
          body: last?.body ?? '',
          headers: last?.headers ?? {},
          secretBase64: signingSecretOf(row, stack.config.vaultKeys),
          host: receiver.host,
        }),
      ).toBe(true);
      expect(last?.headers['content-type']).toMatch(/^text\/plain/);
    } finally {
      await receiver.stop();
    }
  });
});
