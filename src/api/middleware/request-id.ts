import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';

export const REQUEST_ID_HEADER = 'x-request-id';
const ACCEPTABLE = /^[A-Za-z0-9._-]{8,128}$/;

/** One id per request: the caller's x-request-id when well-formed, else a new UUID; echoed back. */
export function requestId(): Middleware {
  return async (ctx, next) => {
    const incoming = ctx.get(REQUEST_ID_HEADER);
    ctx.state.requestId = ACCEPTABLE.test(incoming) ? incoming : randomUUID();
    ctx.set(REQUEST_ID_HEADER, ctx.state.requestId);
    await next();
  };
}
