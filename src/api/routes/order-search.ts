import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { z } from 'zod';
import type { Db } from '../../db/knex';
import { listChargesOfOrders } from '../../db/repositories/charges';
import { searchOrders } from '../../db/repositories/order-search';
import { orderView } from '../../db/repositories/orders';
import { type Flow, ORDER_STATUS, type OrderStatusName, STATUS_WORD } from '../../domain/orders/status';
import { payingMerchant } from '../access';
import { principalOf } from '../middleware/authenticate';
import { orderShownTo } from '../middleware/dashboard-link';
import { orderCursor, orderCursorPosition } from '../order-cursor';
import { apiRouter } from '../router';
import { parseInput } from '../validation';

/** A status by its name (`Completed`), its lookup word (`SUCCESS`) or its number (`7`), in any case. */
const STATUS_BY_WORD = new Map<string, number>(
  (Object.entries(ORDER_STATUS) as Array<[OrderStatusName, number]>).flatMap(([name, n]) => [
    [name.toUpperCase(), n],
    [STATUS_WORD[name], n],
    [String(n), n],
  ]),
);
/** The outcomes the order lookup shows (orderView): the evaluate's, or EXPIRED. */
const OUTCOMES = ['APPROVED', 'DECLINED', 'CHALLENGE', 'SUBMITTED', 'CAPTUREREQUIRED', 'EXPIRED'] as const;
const FLOWS: readonly Flow[] = ['CIT', 'SYNC_MIT', 'ASYNC_MIT'];

/**
 * A filter of one or several values: comma-separated (`status=7,Cancelled`) or the parameter
 * repeated. Words are matched in any case; one unknown word fails the whole filter.
 */
function oneOrSeveral<T>(lookup: (word: string) => T | undefined, rule: string, description: string) {
  return z
    .union([z.string().max(500), z.array(z.string().max(500)).max(20)])
    .transform((value, ctx) => {
      const words = [value]
        .flat()
        .flatMap((v) => v.split(','))
        .map((w) => w.trim().toUpperCase())
        .filter(Boolean);
      const found = words.map(lookup);
      if (words.length === 0 || found.some((v) => v === undefined)) {
        ctx.addIssue({ code: 'custom', message: `must be ${rule}` });
        return z.NEVER;
      }
      return [...new Set(found as T[])];
    })
    .optional()
    .describe(description);
}

const isoTime = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 timestamp such as 2025-03-14T09:26:53Z' });
const cursor = z
  .string()
  .max(200)
  .refine((v) => orderCursorPosition(v) !== undefined, 'must be a nextCursor from this API');

/**
 * Query of GET /v1/orders. Paging as GET /v1/events: `starting_after` (a `nextCursor`) and
 * `limit` (1 to 500, 100 by default).
 */
export const orderSearchQuery = z
  .object({
    status: oneOrSeveral(
      (w) => STATUS_BY_WORD.get(w),
      'status names or numbers (0 to 8) such as Completed, SUCCESS or 7',
      'One or several statuses, comma-separated: the name (`Completed`), the lookup word (`SUCCESS`) or the number (`7`).',
    ),
    outcome: oneOrSeveral(
      (w) => OUTCOMES.find((o) => o === w),
      `outcomes among ${OUTCOMES.join(', ')}`,
      `One or several outcomes, comma-separated: ${OUTCOMES.join(', ')} (as the order lookup shows them).`,
    ),
    flow: oneOrSeveral(
      (w) => FLOWS.find((f) => f === w),
      `flows among ${FLOWS.join(', ')}`,
      `One or several flows, comma-separated: ${FLOWS.join(', ')}.`,
    ),
    createdFrom: isoTime.optional().describe('Orders created at or after this instant (ISO 8601).'),
    createdTo: isoTime.optional().describe('Orders created before this instant (ISO 8601, exclusive).'),
    externalOrderId: z.string().min(1).max(200).optional().describe("The merchant's own order id, exactly."),
    starting_after: cursor.optional().describe('A `nextCursor`: the orders older than the page it ended.'),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  })
  .refine((q) => !q.createdFrom || !q.createdTo || Date.parse(q.createdFrom) < Date.parse(q.createdTo), {
    path: ['createdTo'],
    message: 'must be later than createdFrom',
  });

/**
 * GET /v1/orders: the calling merchant's orders, newest first, filtered; each as the order lookup
 * shows it. A merchant key only, as every payment call (payingMerchant): a merchant sees its own
 * orders and no other's. Cursor paging: pass `nextCursor` back as `starting_after` with the same
 * filters; every order then comes exactly once. The newest come first, so the last page's
 * `nextCursor` is null: orders created since appear at the top of a new first page.
 */
export function orderSearchRoutes(deps: { db: Db; rateLimit: Middleware }): Router {
  const router = apiRouter();
  router.get('/v1/orders', deps.rateLimit, async (ctx) => {
    const merchantId = payingMerchant(principalOf(ctx.state));
    const q = parseInput(orderSearchQuery, ctx.query);
    const { rows, hasMore } = await searchOrders(deps.db, {
      merchantId,
      statuses: q.status,
      outcomes: q.outcome,
      flows: q.flow,
      createdFrom: q.createdFrom ? new Date(q.createdFrom) : undefined,
      createdTo: q.createdTo ? new Date(q.createdTo) : undefined,
      externalOrderId: q.externalOrderId,
      after: q.starting_after ? orderCursorPosition(q.starting_after) : undefined,
      limit: q.limit,
    });
    const last = rows[rows.length - 1];
    const charges = await listChargesOfOrders(
      deps.db,
      rows.map((row) => row.id),
    );
    ctx.body = {
      data: rows.map((row) => orderShownTo(ctx.state.principal, orderView(row, charges.get(row.id) ?? []))),
      hasMore,
      nextCursor: hasMore && last ? orderCursor({ createdAt: last.created_at, id: last.id }) : null,
    };
  });
  return router;
}
