import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { destinationProblem } from '../../activities/destination-check';
import type { Db } from '../../db/knex';
import { deliveryLog } from '../../db/repositories/webhook-deliveries';
import {
  createEndpoint,
  DEFAULT_SECRET_OVERLAP_MS,
  deleteEndpoint,
  EndpointLimitReached,
  type EndpointRow,
  endpointView,
  findEndpoint,
  listEndpoints,
  rotateEndpointSecret,
  updateEndpoint,
} from '../../db/repositories/webhook-endpoints';
import type { Clock } from '../../domain/clock';
import { ApiError } from '../../domain/errors';
import type { Principal } from '../../domain/scopes';
import type { VaultKey } from '../../domain/vault-cipher';
import type { PrivateNetworks } from '../../domain/webhooks/destination';
import { isEventName } from '../../domain/webhooks/event-names';
import { principalOf } from '../middleware/authenticate';
import { apiRouter } from '../router';
import { parseInput } from '../validation';

const url = z
  .string()
  .max(2048)
  .refine((v) => URL.canParse(v), 'must be an absolute URL')
  .superRefine((v, ctx) => {
    if (URL.canParse(v) && new URL(v).protocol !== 'https:') ctx.addIssue({ code: 'custom', message: 'https-only' });
  });
const events = z.array(z.string().max(64)).min(1).max(50);
export const createBody = z.object({ url, events, description: z.string().max(500).nullish() });
export const updateBody = z
  .object({ url, events, description: z.string().max(500).nullable(), enabled: z.boolean() })
  .partial()
  .refine((v) => Object.keys(v).length > 0, 'name at least one of url, events, description, enabled');

/** The longest a rotation may keep the old secret signing: 7 days. */
export const MAX_SECRET_OVERLAP_MS = 7 * 86_400_000;

/**
 * Body of POST /v1/webhooks/{id}/rotate-secret (optional): `activatesAt` is when the new secret
 * starts signing, "now" or an ISO 8601 instant at most 7 days ahead; 24 hours later by default.
 */
export const rotateSecretBody = z
  .object({
    activatesAt: z
      .union([z.literal('now'), z.iso.datetime({ offset: true, message: 'must be "now" or an ISO 8601 timestamp' })])
      .optional(),
  })
  .strict();

/** The owner of a credential's endpoints: its merchant, or (partner key) the partner itself. */
export function endpointOwner(principal: Principal) {
  return { partnerId: principal.partnerId, merchantId: principal.merchantId };
}

/**
 * Validates the body; http URLs and unknown event names get their own identifiers. An event its
 * owner never receives is refused as unknown (400041), as the test event route refuses it:
 * application events go to partner endpoints only, every other event to merchant ones.
 */
function parseEndpointBody<T extends { url?: string; events?: string[] }>(
  schema: z.ZodType<T>,
  body: unknown,
  principal: Principal,
): T {
  const result = schema.safeParse(body);
  if (!result.success && result.error.issues.some((i) => i.path[0] === 'url' && i.message === 'https-only')) {
    throw new ApiError('webhook_url_not_https', { field: 'url' });
  }
  const input = parseInput(schema, body);
  const unknown = (input.events ?? []).filter((e) => e !== '*' && !isEventName(e));
  if (unknown.length)
    throw new ApiError('unknown_event_name', {
      field: 'events',
      message: `Unknown event name(s): ${unknown.join(', ')}.`,
    });
  const partnerOwned = endpointOwner(principal).merchantId === null;
  const neverSent = (input.events ?? []).filter((e) => e !== '*' && e.startsWith('application.') !== partnerOwned);
  if (neverSent.length)
    throw new ApiError('unknown_event_name', {
      field: 'events',
      message: partnerOwned
        ? `A partner endpoint receives application events only: ${neverSent.join(', ')}.`
        : `Application events go to partner endpoints: ${neverSent.join(', ')}.`,
    });
  return input;
}

/**
 * Webhook endpoints (the spec's Developers > Webhooks > Create), their signing secrets and their
 * delivery logs (docs/webhooks.md). Scope `webhooks`; each owner sees only its own endpoints.
 */
/** The endpoint `id` when the principal owns it (and it is not deleted); 404 `404020` otherwise. */
export async function findOwnedEndpoint(db: Db, principal: Principal, id: string): Promise<EndpointRow> {
  const owner = endpointOwner(principal);
  const row = z.uuid().safeParse(id).success ? await findEndpoint(db, id) : undefined;
  if (
    !row ||
    row.partner_id !== owner.partnerId ||
    row.merchant_id !== owner.merchantId ||
    row.disabled_reason === 'deleted'
  ) {
    throw new ApiError('webhook_endpoint_not_found');
  }
  return row;
}

export function webhookRoutes(deps: {
  db: Db;
  clock: Clock;
  vaultKeys: VaultKey[];
  privateNetworks: PrivateNetworks;
}): Router {
  const router = apiRouter();

  const owned = (ctx: Context): Promise<EndpointRow> =>
    findOwnedEndpoint(deps.db, principalOf(ctx.state), ctx.params.id as string);

  /** SSRF: an endpoint must not resolve to a private or reserved address (checked again at every attempt). */
  async function publicDestination(url: string | undefined): Promise<void> {
    const problem = url ? await destinationProblem(new URL(url), deps.privateNetworks) : undefined;
    if (problem) throw new ApiError('webhook_url_not_allowed', { field: 'url', message: `url: ${problem}.` });
  }

  router.post('/v1/webhooks', async (ctx) => {
    const input = parseEndpointBody(createBody, ctx.request.body, principalOf(ctx.state));
    await publicDestination(input.url);
    const { row, secret } = await createEndpoint(
      deps.db,
      {
        ...endpointOwner(principalOf(ctx.state)),
        url: input.url,
        events: input.events,
        description: input.description ?? null,
      },
      deps.vaultKeys,
    ).catch((err: unknown) => {
      if (err instanceof EndpointLimitReached) {
        throw new ApiError('webhook_endpoint_limit_reached', {
          message: `At most ${err.limit} webhook endpoints; delete one first.`,
          extra: { limit: err.limit },
        });
      }
      throw err;
    });
    ctx.status = 201;
    ctx.set('Location', `/v1/webhooks/${row.id}`);
    ctx.body = { ...endpointView(row), secret };
  });

  router.get('/v1/webhooks', async (ctx) => {
    const rows = await listEndpoints(deps.db, endpointOwner(principalOf(ctx.state)));
    ctx.body = { data: rows.filter((r) => r.disabled_reason !== 'deleted').map(endpointView) };
  });

  router.get('/v1/webhooks/:id', async (ctx) => {
    ctx.body = endpointView(await owned(ctx));
  });

  router.put('/v1/webhooks/:id', async (ctx) => {
    const row = await owned(ctx);
    const change = parseEndpointBody(updateBody, ctx.request.body, principalOf(ctx.state));
    await publicDestination(change.url);
    ctx.body = endpointView(await updateEndpoint(deps.db, row.id, change, deps.clock.now()));
  });

  router.delete('/v1/webhooks/:id', async (ctx) => {
    const row = await owned(ctx);
    await deleteEndpoint(deps.db, row.id);
    ctx.body = { id: row.id, deleted: true };
  });

  router.post('/v1/webhooks/:id/rotate-secret', async (ctx) => {
    const row = await owned(ctx);
    const input = parseInput(rotateSecretBody, ctx.request.body ?? {});
    const now = deps.clock.now();
    let activatesAt = new Date(now.getTime() + DEFAULT_SECRET_OVERLAP_MS);
    if (input.activatesAt === 'now') activatesAt = now;
    else if (input.activatesAt) activatesAt = new Date(input.activatesAt);
    if (activatesAt.getTime() - now.getTime() > MAX_SECRET_OVERLAP_MS) {
      throw new ApiError('validation_failed', {
        field: 'activatesAt',
        message: 'activatesAt: at most 7 days ahead',
        extra: { problems: [{ field: 'activatesAt', message: 'activatesAt: at most 7 days ahead' }] },
      });
    }
    const rotated = await rotateEndpointSecret(deps.db, row.id, deps.vaultKeys, now, activatesAt);
    // The old secret keeps signing until activatesAt: deploy `secret` to the verifier first (accept both).
    ctx.body = { ...endpointView(rotated.row), secret: rotated.secret, activatesAt: rotated.activatesAt.toISOString() };
  });

  router.get('/v1/webhooks/:id/deliveries', async (ctx) => {
    const row = await owned(ctx);
    const limit = parseInput(z.coerce.number().int().min(1).max(500).default(100), ctx.query.limit, 'limit');
    ctx.body = { endpointId: row.id, data: await deliveryLog(deps.db, row.id, limit) };
  });
  return router;
}
