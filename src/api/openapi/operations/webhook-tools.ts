import { testEventBody } from '../../routes/webhook-test-event';
import { testEventQueued } from '../answers/events';
import * as example from '../examples/webhooks';
import { BEARER_ERRORS, type Operation } from '../registry';

/** Developer tools for webhooks (docs/webhooks.md): a signed test event on demand. */
export const webhookToolOperations: Operation[] = [
  {
    tag: 'Webhooks',
    auth: 'bearer',
    scope: 'webhooks',
    method: 'post',
    path: '/v1/webhooks/:id/test',
    operationId: 'sendTestEvent',
    summary: 'Send a signed test event to an endpoint',
    description: 'A real, signed delivery with `IsTestMode: true` and sample EventData; `order.completed` by default.',
    body: testEventBody,
    example: example.testEventRequest,
    responses: {
      202: {
        description: 'Queued; the delivery log shows its attempts',
        body: testEventQueued,
        example: example.testEventQueued,
      },
    },
    errors: [...BEARER_ERRORS, 'validation_failed', 'unknown_event_name', 'webhook_endpoint_not_found'],
  },
];
