import { z } from 'zod';
import { order } from '../schemas';

/** A page of GET /v1/orders (src/api/routes/order-search.ts): each order as GET /v1/orders/{id} shows it. */
export const orderPage = z
  .looseObject({
    data: z.array(order).describe('Newest first.'),
    hasMore: z.boolean(),
    nextCursor: z
      .string()
      .nullable()
      .describe('Pass back as `starting_after`, with the same filters, for the next (older) page; null on the last.'),
  })
  .meta({ id: 'OrderPage' });
