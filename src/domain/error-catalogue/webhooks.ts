import type { ErrorDefinition } from './definition';

/** Webhook endpoints and events. */
export const WEBHOOK_ERRORS = {
  webhook_url_not_https: {
    id: '400040',
    status: 400,
    message: 'Webhook endpoints must be https:// URLs.',
    retry: 'after-fix',
  },
  unknown_event_name: {
    id: '400041',
    status: 400,
    message: 'Unknown event name; see docs/webhooks.md for the event list, or use "*".',
    retry: 'after-fix',
  },
  webhook_url_not_allowed: {
    id: '400042',
    status: 400,
    message: 'The webhook URL resolves to a private, loopback or reserved address.',
    retry: 'after-fix',
  },
  webhook_endpoint_not_found: {
    id: '404020',
    status: 404,
    message: 'The specified webhook endpoint could not be located.',
    retry: 'no',
  },
  event_not_found: { id: '404021', status: 404, message: 'The specified event could not be located.', retry: 'no' },
  webhook_endpoint_limit_reached: {
    id: '409030',
    status: 409,
    message: 'This owner already has the maximum number of webhook endpoints (docs/webhooks.md); delete one first.',
    retry: 'after-fix',
  },
} as const satisfies Record<string, ErrorDefinition>;
