import type { ErrorDefinition } from './definition';

/** The browser widget and its sites. */
export const WIDGET_ERRORS = {
  widget_origin_forbidden: {
    id: '403010',
    status: 403,
    message: "The page's origin is not one of this site's allowed origins.",
    retry: 'no',
  },
  site_not_found: {
    id: '404010',
    status: 404,
    message: 'No site with this siteId belongs to this merchant (MID).',
    retry: 'no',
  },
  widget_payload_too_large: {
    id: '413010',
    status: 413,
    message: 'The widget signals batch is over 16 KB.',
    retry: 'after-fix',
  },
  widget_rate_limited: {
    id: '429010',
    status: 429,
    message: 'Too many widget requests for this site or senseKey. Retry after the Retry-After period.',
    retry: 'retry-after',
  },
} as const satisfies Record<string, ErrorDefinition>;
