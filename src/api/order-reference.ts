import type { Context } from 'koa';
import { z } from 'zod';
import type { Db } from '../db/knex';
import type { OrderRow } from '../db/repositories/orders';
import { ApiError } from '../domain/errors';
import { findOrderByReference } from '../orders/commands';

/**
 * The merchant's order a request names by its orderId or its orderSessionKey (the FlexCharge
 * clients send the key where an orderId goes); 404 `order_not_found` otherwise. The access log
 * then names the order by its id, and never the key: it alone authorizes the order's challenge
 * reports, so a reference that is not the order's id is masked in the logged path
 * (middleware/access-log.ts).
 */
export async function orderByReference(
  ctx: Context,
  db: Db,
  merchantId: string,
  reference: string | undefined,
): Promise<OrderRow> {
  const found =
    reference && z.uuid().safeParse(reference).success
      ? await findOrderByReference(db, merchantId, reference)
      : undefined;
  if (!found) throw new ApiError('order_not_found');
  ctx.state.orderId = found.id;
  return found;
}
