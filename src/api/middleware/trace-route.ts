import { trace } from '@opentelemetry/api';
import type { Middleware } from 'koa';
import { routeOf } from './metrics';

/**
 * Names the request's server span (made by the HTTP instrumentation, which sees only the method)
 * `POST /v1/orders/:id/evaluate`, by the route pattern, never the raw path with its ids; and sets
 * `http.route`. The path and URL the instrumentation recorded are replaced by the pattern too: a
 * challenge report's orderSessionKey, or a dashboard link's signature, is a credential, and traces
 * leave for a collector (as the access log masks them). Nothing to do while tracing is off: there
 * is no recording span then.
 */
export function traceRoute(): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } finally {
      const span = trace.getActiveSpan();
      if (span?.isRecording()) {
        const route = routeOf(ctx);
        span.setAttribute('http.route', route);
        span.setAttribute('http.target', route);
        span.setAttribute('http.url', `${ctx.protocol}://${ctx.host}${route}`);
        span.updateName(`${ctx.method} ${route}`);
      }
    }
  };
}
