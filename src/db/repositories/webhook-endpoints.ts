import { randomUUID } from 'node:crypto';
import type { VaultKey } from '../../domain/vault-cipher';
import type { Db } from '../knex';
import type { WebhookEndpointRecord } from '../tables/webhook-endpoints';
import { DEFAULT_SECRET_OVERLAP_MS, newSigningSecret, rotatedSecretColumns, sealed } from './webhook-endpoint-secrets';

export {
  acceptedSecretsOf,
  DEFAULT_SECRET_OVERLAP_MS,
  newSigningSecret,
  pendingSecretActive,
  signingSecretOf,
} from './webhook-endpoint-secrets';

/** A row of `webhook_endpoints` (its columns: src/db/tables/webhook-endpoints.ts). */
export type EndpointRow = WebhookEndpointRecord;

export function endpointView(row: EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    description: row.description,
    enabled: row.enabled,
    mid: row.merchant_id,
    pid: row.partner_id,
    failingSince: row.failing_since?.toISOString() ?? null,
    disabledAt: row.disabled_at?.toISOString() ?? null,
    disabledReason: row.disabled_reason,
    // A rotation in progress: the new secret signs from this instant (null when none is pending).
    secretActivatesAt: row.pending_secret_activates_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/**
 * Webhook endpoints one owner (a merchant, or a partner for its own endpoints) may have; deleted
 * ones do not count, disabled ones do (they can be re-enabled). docs/webhooks.md.
 */
export const MAX_ENDPOINTS_PER_OWNER = 16;

/** The owner already has `MAX_ENDPOINTS_PER_OWNER` endpoints. */
export class EndpointLimitReached extends Error {
  constructor(readonly limit: number) {
    super(`at most ${limit} webhook endpoints per owner`);
    this.name = 'EndpointLimitReached';
  }
}

/**
 * Creates an endpoint, unless its owner already has `limit` (throws EndpointLimitReached). The
 * count and the insert run under the owner's advisory lock: concurrent creations cannot pass it.
 */
export async function createEndpoint(
  db: Db,
  input: { partnerId: string; merchantId: string | null; url: string; events: string[]; description: string | null },
  keys: VaultKey[],
  limit = MAX_ENDPOINTS_PER_OWNER,
): Promise<{ row: EndpointRow; secret: string }> {
  const id = randomUUID();
  const secret = newSigningSecret();
  return db.transaction(async (trx) => {
    const owner = input.merchantId ? `merchant:${input.merchantId}` : `partner:${input.partnerId}`;
    await trx.raw('select pg_advisory_xact_lock(?, hashtext(?))', [ENDPOINT_LOCK_SPACE, owner]);
    const owned = trx('webhook_endpoints')
      .where({ partner_id: input.partnerId })
      .andWhere((w) => w.whereNull('disabled_reason').orWhereNot('disabled_reason', 'deleted'));
    const [count] = await (input.merchantId
      ? owned.andWhere({ merchant_id: input.merchantId })
      : owned.whereNull('merchant_id')
    ).count<{ count: string }[]>('* as count');
    if (Number(count?.count ?? 0) >= limit) throw new EndpointLimitReached(limit);
    const [row] = await trx('webhook_endpoints')
      .insert({
        id,
        partner_id: input.partnerId,
        merchant_id: input.merchantId,
        url: input.url,
        events: input.events,
        description: input.description,
        ...sealed(id, secret, keys),
      } as never)
      .returning('*');
    return { row: row as EndpointRow, secret };
  });
}

/** Advisory lock namespace of endpoint creation (the second key is the owner's hash). */
const ENDPOINT_LOCK_SPACE = 7_402;

export async function findEndpoint(db: Db, id: string): Promise<EndpointRow | undefined> {
  return db('webhook_endpoints').where({ id }).first();
}

/** The owner's endpoints: a merchant's, or (merchantId null) the partner's own. */
export async function listEndpoints(
  db: Db,
  owner: { partnerId: string; merchantId: string | null },
): Promise<EndpointRow[]> {
  const q = db('webhook_endpoints').where({ partner_id: owner.partnerId }).orderBy('created_at', 'asc');
  return owner.merchantId ? q.andWhere({ merchant_id: owner.merchantId }) : q.whereNull('merchant_id');
}

export async function updateEndpoint(
  db: Db,
  id: string,
  change: { url?: string; events?: string[]; description?: string | null; enabled?: boolean },
  now: Date,
): Promise<EndpointRow> {
  // Re-enabling starts a clean slate: no failure streak, no earlier alert.
  const reenable =
    change.enabled === true ? { disabled_at: null, disabled_reason: null, failing_since: null, alerted_at: null } : {};
  const [row] = await db('webhook_endpoints')
    .where({ id })
    .update({ ...change, ...reenable, updated_at: now } as never)
    .returning('*');
  return row as EndpointRow;
}

/**
 * Rotates the signing secret (the rules: rotatedSecretColumns) and answers the new one, which signs
 * from the answered instant on. The row is locked, so two concurrent rotations cannot both promote
 * or both keep a pending secret.
 */
export async function rotateEndpointSecret(
  db: Db,
  id: string,
  keys: VaultKey[],
  now: Date,
  activatesAt: Date = new Date(now.getTime() + DEFAULT_SECRET_OVERLAP_MS),
): Promise<{ row: EndpointRow; secret: string; activatesAt: Date }> {
  const secret = newSigningSecret();
  return db.transaction(async (trx) => {
    const current = await trx('webhook_endpoints').where({ id }).forUpdate().first();
    const [row] = await trx('webhook_endpoints')
      .where({ id })
      .update({ ...rotatedSecretColumns(id, current, secret, keys, now, activatesAt), updated_at: now } as never)
      .returning('*');
    return { row: row as EndpointRow, secret, activatesAt: activatesAt.getTime() <= now.getTime() ? now : activatesAt };
  });
}

export async function deleteEndpoint(db: Db, id: string): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('webhook_deliveries')
      .where({ endpoint_id: id, status: 'pending' })
      .update({ status: 'stopped', next_attempt_at: null });
    // Deliveries stay as history; the endpoint is disabled for good rather than removed under them.
    await trx('webhook_endpoints').where({ id }).update({
      enabled: false,
      disabled_at: trx.fn.now(),
      disabled_reason: 'deleted',
      url: 'https://deleted.invalid/',
    });
  });
}

/**
 * Whether endpoint `endpoint` (an SQL name of a webhook_endpoints row) takes events named `name`
 * (an SQL expression): enabled, and subscribed by name or "*". The outbox fan-out's statement
 * tests it too (src/db/repositories/outbox-fan-out.ts).
 */
export const subscribedSql = (endpoint: string, name: string) =>
  `${endpoint}.enabled and (${name} = any(${endpoint}.events) or '*' = any(${endpoint}.events))`;

/** Enabled endpoints of the owner subscribed to `event` (by name or "*"). */
export async function subscribedEndpoints(
  db: Db,
  owner: { partnerId: string; merchantId: string | null },
  event: string,
): Promise<EndpointRow[]> {
  const q = db('webhook_endpoints')
    .where({ partner_id: owner.partnerId })
    .whereRaw(subscribedSql('webhook_endpoints', '?'), [event]);
  return owner.merchantId ? q.andWhere({ merchant_id: owner.merchantId }) : q.whereNull('merchant_id');
}
