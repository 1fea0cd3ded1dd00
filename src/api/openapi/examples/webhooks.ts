import { CREATED_AT, DELIVERY_ID, ENDPOINT_ID, EVENT_ID, MID, ORDER_ID, PID, UPDATED_AT } from './values';

/** Examples of webhook endpoints, their deliveries and events (docs/webhooks.md). */
export const createEndpointRequest = {
  url: 'https://shop.example/webhooks/payment-rescue',
  events: ['order.completed', 'order.cancelled', 'order.refunded'],
  description: 'Order updates for the shop back end',
};
export const endpoint = {
  id: ENDPOINT_ID,
  ...createEndpointRequest,
  enabled: true,
  mid: MID,
  pid: PID,
  failingSince: null,
  disabledAt: null,
  disabledReason: null,
  secretActivatesAt: null,
  createdAt: CREATED_AT,
  updatedAt: CREATED_AT,
};
const secret = 'q8Jm3ZrV0sY5tB2nX7kL1cH4fG9dW6pA0eR3uT8yI2o=';
export const endpointWithSecret = { ...endpoint, secret };
export const endpointList = { data: [endpoint] };
export const updateEndpointRequest = { events: ['*'], enabled: true };
export const updatedEndpoint = { ...endpoint, events: ['*'], updatedAt: UPDATED_AT };
export const deleted = { id: ENDPOINT_ID, deleted: true };
export const rotateRequest = { activatesAt: '2025-03-15T09:00:00.000Z' };
export const rotated = {
  ...endpoint,
  secretActivatesAt: rotateRequest.activatesAt,
  updatedAt: UPDATED_AT,
  secret: 'Zx4Cv7Bn0Mq3Wr6Et9Yu2Io5Pa8Sd1Fg4Hj7Kl0Zx3=',
  activatesAt: rotateRequest.activatesAt,
};
export const deliveryLog = {
  endpointId: ENDPOINT_ID,
  data: [
    {
      deliveryId: DELIVERY_ID,
      eventId: EVENT_ID,
      event: 'order.completed',
      status: 'delivered',
      nextAttemptAt: null,
      deliveredAt: '2025-03-14T09:27:03.020Z',
      attempts: [
        {
          attempt: 1,
          isResent: false,
          startedAt: '2025-03-14T09:27:02.900Z',
          statusCode: 200,
          latencyMs: 118,
          error: null,
          succeeded: true,
        },
      ],
    },
  ],
};
/** GET /v1/orders/{id}/webhook-deliveries: the same entries, each naming its endpoint. */
export const orderDeliveryLog = {
  orderId: ORDER_ID,
  data: deliveryLog.data.map((delivery) => ({ ...delivery, endpointId: ENDPOINT_ID })),
};
export const dashboardLink = {
  url: 'https://rescue.example/dashboard#link=dl1.eyJtIjoiOWE4OGIzYzMifQ.Zk3m9qVt0w',
  expiresAt: '2025-03-14T09:41:53.000Z',
};
export const eventPage = {
  data: [
    {
      EventId: EVENT_ID,
      Event: 'order.completed',
      TimeStamp: UPDATED_AT,
      EventData: null,
      Mid: MID,
      Pid: PID,
      ExternalOrderId: 'shop-1001',
      OrderId: ORDER_ID,
      ConfirmationId: 'PRS-7Q4K2M9X',
      IsTestMode: true,
      IsTestEvent: false,
    },
  ],
  hasMore: false,
  nextCursor: 'evc_djE6NDI',
  next: null,
};
export const resent = { eventId: EVENT_ID, deliveries: [{ deliveryId: DELIVERY_ID, endpointId: ENDPOINT_ID }] };
export const testEventRequest = { event: 'order.refunded' };
export const testEventQueued = {
  deliveryId: '5c6d7e8f-9a0b-4c1d-8e2f-3a4b5c6d7e8f',
  eventId: '7a8b9c0d-1e2f-4a3b-9c4d-5e6f7a8b9c0d',
  endpointId: ENDPOINT_ID,
  event: 'order.refunded',
  isTest: true,
};
