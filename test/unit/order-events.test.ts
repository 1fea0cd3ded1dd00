import { type EventToPersist, outboxEvent } from '../../src/domain/orders/domain-events';

/**
 * The order workflow records domain events; the public EventData (PascalCase, the webhook
 * envelope's) is built on the read-model side.
 */
describe('order events: from the workflow to the outbox', () => {
  const at = '2026-11-22T10:00:00.000Z';

  it.each<[EventToPersist, unknown]>([
    [
      { occurredAt: at, event: { name: 'order.capturerequired', amount: 1999, currency: 'USD', captureBefore: at } },
      { Amount: 1999, Currency: 'USD', CaptureBefore: at },
    ],
    [{ occurredAt: at, event: { name: 'challenge.presented', expiresAt: at } }, { ExpiresAt: at }],
    [
      { occurredAt: at, event: { name: 'challenge.attempted', attempt: 2, attemptedAt: at } },
      { Attempt: 2, AttemptedAt: at },
    ],
    [{ occurredAt: at, event: { name: 'challenge.failed', failedAt: at } }, { FailedAt: at }],
    [{ occurredAt: at, event: { name: 'challenge.passed', passedAt: at } }, { PassedAt: at }],
    [{ occurredAt: at, event: { name: 'order.completed' } }, null],
    [{ occurredAt: at, event: { name: 'order.cancelled' } }, null],
    [{ occurredAt: at, event: { name: 'order.expired' } }, null],
  ])('maps %j to the public EventData', (input, data) => {
    expect(outboxEvent(input)).toEqual({ name: input.event.name, occurredAt: at, data });
    // Key order is the public JSON's order too.
    expect(JSON.stringify(outboxEvent(input).data)).toBe(JSON.stringify(data));
  });
});
