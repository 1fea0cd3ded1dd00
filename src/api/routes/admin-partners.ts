import type Router from '@koa/router';
import { z } from 'zod';
import type { Db } from '../../db/knex';
import { apiKeyView } from '../../db/repositories/api-keys';
import { createPartnerWithKey, partnerView } from '../../db/repositories/partners';
import { guardRoutes } from '../guard';
import { adminAuth } from '../middleware/admin-auth';
import { apiRouter } from '../router';
import { parseInput } from '../validation';

export const createPartnerBody = z.object({
  name: z.string().trim().min(1).max(200),
  apiKey: z.object({ name: z.string().trim().min(1).max(100) }).optional(),
});

/**
 * The operators' back office, onboarding: a new partner with its first API key (partner-owned,
 * every scope). The partner then creates applications, further keys (POST /v1/api-keys) and,
 * for its merchants, API and tokenization keys, all through the API.
 */
export function adminPartnerRoutes(deps: { db: Db; environment: string; adminToken: string | undefined }): Router {
  const router = apiRouter();
  router.post('/v1/admin/partners', async (ctx) => {
    const input = parseInput(createPartnerBody, ctx.request.body);
    const { partner, key, secret } = await createPartnerWithKey(deps.db, {
      name: input.name,
      keyName: input.apiKey?.name ?? 'First partner key',
      environment: deps.environment,
    });
    ctx.status = 201;
    ctx.body = { ...partnerView(partner), apiKey: { ...apiKeyView(key), secret } };
  });
  return guardRoutes(router, adminAuth(deps.adminToken));
}
