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
          path: loggablePath(ctx.path, ctx.state.orderId),
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
 * its order) is a credential, so it is replaced by its name; so is the order reference of an
 * order route (FlexCharge clients send that key where an orderId goes: src/api/order-reference.ts)
 * unless it is the id of the order the request resolved (`orderId`): a request refused before
 * (a bearer, a scope, a body, the rate limit) never learnt which it was.
 */
function loggablePath(path: string, orderId: string | undefined): string {
  return path
    .replace(/^\/v1\/challenges\/[^/]+/, '/v1/challenges/:orderSessionKey')
    .replace(ORDER_REFERENCE, (whole, prefix: string, reference: string, rest: string | undefined) =>
      reference === orderId || rest === '/external-cancel' ? whole : `${prefix}:orderReference${rest ?? ''}`,
    );
}

/** `/v1/orders/{reference}[/…]`, with FlexCharge's doubled slash too. */
const ORDER_REFERENCE = /^(\/v1\/+orders\/)([^/]+)(\/.*)?$/;

/** The trace id of the request's span; undefined while tracing is off (no span then). */
function traceIdOfThisRequest(): string | undefined {
  const context = trace.getActiveSpan()?.spanContext();
  return context && isSpanContextValid(context) ? context.traceId : undefined;
}
