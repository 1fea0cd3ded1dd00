import type { Context, Middleware } from 'koa';
import { businessMetrics, httpRequestDuration, httpRequests } from '../../observability/metrics';

/**
 * Counts every request and times it, by method, the router's route pattern (`/v1/orders/:id`,
 * never the raw path, so an order id cannot explode the label set; `unmatched` when no route
 * matched) and the final status. Put before the error handler, so it sees the status errors map
 * to. From the answers it also counts the business outcomes visible at the edge: refunds by
 * result, idempotency conflicts (src/observability/metrics.ts). Evaluates are counted from the
 * use case's answer instead (src/api/evaluate-metrics.ts).
 */
export function requestMetrics(): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const route = routeOf(ctx);
      const labels = { method: ctx.method, route, status: String(ctx.status) };
      httpRequests.inc(labels);
      httpRequestDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
      countBusinessOutcome(ctx, route);
    }
  };
}

/** The router's pattern of the route that answered (`unmatched` when none): metrics' and traces' label. */
export function routeOf(ctx: Context): string {
  const matched = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
  if (typeof matched === 'string') return matched;
  if (matched instanceof RegExp) return matched.source;
  return 'unmatched';
}

const IDEMPOTENCY_ERRORS = {
  idempotency_key_reused: 'mismatch',
  idempotency_request_in_flight: 'in_flight',
  idempotency_store_unavailable: 'unavailable',
} as const;

function countBusinessOutcome(ctx: Context, route: string): void {
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const errorName = (body.error as { name?: unknown } | undefined)?.name;
  if (typeof errorName === 'string' && errorName in IDEMPOTENCY_ERRORS) {
    businessMetrics.idempotency(IDEMPOTENCY_ERRORS[errorName as keyof typeof IDEMPOTENCY_ERRORS]);
  }
  if (ctx.method !== 'POST') return;
  const request = (ctx.request as { body?: unknown }).body as Record<string, unknown> | undefined;
  if (route === '/v1/orders/:id/refund') {
    // The amount decides, as the route does (an amountToRefund of the whole capture is full).
    const kind = ctx.state.refundKind ?? (request?.amountToRefund === undefined ? 'full' : 'partial');
    if (ctx.status === 200) businessMetrics.refund('succeeded', kind);
    else if (ctx.status >= 500 || ctx.status === 402) businessMetrics.refund('failed', kind);
  }
}
