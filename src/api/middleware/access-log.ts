import { isSpanContextValid, trace } from '@opentelemetry/api';
import type { Middleware } from 'koa';
import type { Logger } from '../../logger';

/**
 * One log line per request, with its id, status and duration, the six-digit error id when it
 * failed (so a refused call says why without its body), the merchant and order it concerned
 * where known (so an operator can follow one merchant's or one order's requests), and
 * with tracing on its trace id (to find its trace: docs/deployment.md#traces). Bodies,
 * headers and credentials in paths are not logged.
 */
export function accessLog(logger: Logger): Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    try {
      await next();
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        {
          requestId: ctx.state.requestId,
          method: ctx.method,
          path: loggablePath(ctx.path, ctx.state.maskedReference),
          status: ctx.status,
          errorId: ctx.state.errorId,
          durationMs: Math.round(durationMs * 10) / 10,
          merchantId: ctx.state.principal?.merchantId ?? ctx.state.merchantId ?? undefined,
          orderId: ctx.state.orderId ?? undefined,
          traceId: traceIdOfThisRequest(),
        },
        'request',
      );
    }
  };
}

/**
 * The path as logged: a challenge report's orderSessionKey (all that authorizes the report, for
 * its order) is a credential, so it is replaced by its name; so is an order named by that key
 * where an orderId goes (src/api/order-reference.ts).
 */
function loggablePath(path: string, maskedReference: string | undefined): string {
  const masked = maskedReference ? path.split(maskedReference).join(':orderReference') : path;
  return masked.replace(/^\/v1\/challenges\/[^/]+/, '/v1/challenges/:orderSessionKey');
}

/** The trace id of the request's span; undefined while tracing is off (no span then). */
function traceIdOfThisRequest(): string | undefined {
  const context = trace.getActiveSpan()?.spanContext();
  return context && isSpanContextValid(context) ? context.traceId : undefined;
}
