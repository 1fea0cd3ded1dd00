import { type EventToPersist, outboxEvent } from '../../src/domain/orders/domain-events';

/**
 * The order workflow records domain events; the public EventData (PascalCase, the webhook
 * envelope's) is built on the read-model side. Writes scheduled by runs from before that carry
 * the public data already and must be stored unchanged.
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
    const name = 'event' in input ? input.event.name : input.name;
    expect(outboxEvent(input)).toEqual({ name, occurredAt: at, data });
    // Key order is the public JSON's order too.
    expect(JSON.stringify(outboxEvent(input).data)).toBe(JSON.stringify(data));
  });

  it('stores a write scheduled in the earlier form (public data) unchanged', () => {
    const legacy: EventToPersist = {
      name: 'order.capturerequired',
      occurredAt: at,
      data: { Amount: 5, Currency: 'EUR', CaptureBefore: at },
    };
    expect(outboxEvent(legacy)).toBe(legacy);
  });
});
