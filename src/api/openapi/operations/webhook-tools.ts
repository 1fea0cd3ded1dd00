import { z } from 'zod';
import { testEventBody } from '../../routes/webhook-test-event';
import { BEARER_ERRORS, type Operation } from '../registry';

/** Developer tools for webhooks (docs/webhooks.md): a signed test event on demand. */
export const webhookToolOperations: Operation[] = [
  {
    tag: 'Webhooks',
    auth: 'bearer',
    scope: 'webhooks',
    method: 'post',
    path: '/v1/webhooks/:id/test',
    summary: 'Send a signed test event to an endpoint',
    description: 'A real, signed delivery with `IsTestMode: true` and sample EventData; `order.completed` by default.',
    body: testEventBody,
    responses: {
      202: {
        description: 'Queued; the delivery log shows its attempts',
        body: z.looseObject({
          deliveryId: z.uuid(),
          eventId: z.uuid(),
          endpointId: z.uuid(),
          event: z.string(),
          isTest: z.literal(true),
        }),
      },
    },
    errors: [...BEARER_ERRORS, 'validation_failed', 'unknown_event_name', 'webhook_endpoint_not_found'],
  },
];
