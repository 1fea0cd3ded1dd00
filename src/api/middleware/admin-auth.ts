import { createHash, timingSafeEqual } from 'node:crypto';
import type { Middleware } from 'koa';
import { ApiError } from '../../domain/errors';

/**
 * The operators' back-office credential: `authorization: Bearer <ADMIN_API_TOKEN>`. Without a
 * configured token the back office is closed. Compared in constant time (over SHA-256 digests,
 * so lengths do not leak either).
 */
export function adminAuth(token: string | undefined): Middleware {
  const expected = token ? createHash('sha256').update(token).digest() : undefined;
  return async (ctx, next) => {
    const given = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1];
    const ok = expected && given && timingSafeEqual(createHash('sha256').update(given).digest(), expected);
    if (!ok)
      throw new ApiError('invalid_admin_token', {
        headers: { 'WWW-Authenticate': 'Bearer realm="payment-rescue-admin"' },
      });
    await next();
  };
}
