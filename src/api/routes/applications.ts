import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { Environment } from '../../config';
import type { Db } from '../../db/knex';
import {
  type ApplicationRow,
  applicationView,
  applyTransition,
  createApplication,
  findApplication,
  listApplications,
} from '../../db/repositories/applications';
import { siteView } from '../../db/repositories/sites';
import { tokenizationKeyView } from '../../db/repositories/tokenization-keys';
import { APPLICATION_STATUSES, type ApplicationAction } from '../../domain/applications';
import type { Clock } from '../../domain/clock';
import { ApiError } from '../../domain/errors';
import { principalOf } from '../middleware/authenticate';
import { apiRouter } from '../router';
import { parseInput } from '../validation';

const business = z.object({
  legalName: z.string().trim().min(1).max(200),
  contactEmail: z.email().max(254),
  website: z.url().max(2048).optional(),
  country: z
    .string()
    .regex(/^[A-Z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
    .optional(),
  siteOrigins: z.array(z.url()).max(20).optional(),
});
export const createBody = z.object({ business });
export const listQuery = z.object({ status: z.enum(APPLICATION_STATUSES).optional() });
export const decisionBody = z.object({ reason: z.string().max(500).optional() });

/** Runs one transition for an application the caller may see; 409 when the table forbids it. */
export async function runTransition(
  deps: { db: Db; clock: Clock; environment: Environment },
  ctx: Context,
  app: ApplicationRow,
  action: ApplicationAction,
): Promise<void> {
  const { reason } = parseInput(decisionBody, ctx.request.body);
  const outcome = await applyTransition(deps.db, app.id, action, {
    reason,
    isTestMode: deps.environment === 'sandbox',
    now: deps.clock.now(),
  });
  if (outcome.kind === 'refused') {
    throw new ApiError('application_transition_not_allowed', {
      message: `An application in status ${outcome.status} cannot ${action}.`,
      extra: { applicationStatus: outcome.status },
    });
  }
  const { issued } = outcome;
  // A conversion answers, this once, what the new merchant needs to start: its site and tokenization key.
  ctx.body = issued
    ? {
        ...applicationView(outcome.row),
        merchant: {
          mid: outcome.row.merchant_id,
          site: siteView(issued.site),
          tokenizationKey: { ...tokenizationKeyView(issued.tokenizationKey.row), key: issued.tokenizationKey.key },
        },
      }
    : applicationView(outcome.row);
}

/**
 * Partner onboarding applications, for partner keys (docs/webhooks.md, Applications): create
 * (DRAFT), read, list by status, submit, cancel. Approval, decline and conversion are the
 * operators' (src/api/routes/admin.ts).
 */
export function applicationRoutes(deps: { db: Db; clock: Clock; environment: Environment }): Router {
  const router = apiRouter();

  const partnerOf = (ctx: Context) => {
    const principal = principalOf(ctx.state);
    if (principal.merchantId)
      throw new ApiError('merchant_forbidden', { message: 'Applications are managed with a partner API key.' });
    return principal.partnerId;
  };
  async function visible(ctx: Context): Promise<ApplicationRow> {
    const partnerId = partnerOf(ctx);
    const id = ctx.params.id as string;
    const app = z.uuid().safeParse(id).success ? await findApplication(deps.db, id) : undefined;
    if (!app || app.partner_id !== partnerId) throw new ApiError('application_not_found');
    return app;
  }

  router.post('/v1/applications', async (ctx) => {
    const partnerId = partnerOf(ctx);
    const input = parseInput(createBody, ctx.request.body);
    const row = await createApplication(deps.db, partnerId, input.business);
    ctx.status = 201;
    ctx.set('Location', `/v1/applications/${row.id}`);
    ctx.body = applicationView(row);
  });
  router.get('/v1/applications', async (ctx) => {
    const { status } = parseInput(listQuery, ctx.query);
    ctx.body = { data: (await listApplications(deps.db, partnerOf(ctx), status)).map(applicationView) };
  });
  router.get('/v1/applications/:id', async (ctx) => {
    ctx.body = applicationView(await visible(ctx));
  });
  router.post('/v1/applications/:id/submit', async (ctx) => runTransition(deps, ctx, await visible(ctx), 'submit'));
  router.post('/v1/applications/:id/cancel', async (ctx) => runTransition(deps, ctx, await visible(ctx), 'cancel'));
  return router;
}
