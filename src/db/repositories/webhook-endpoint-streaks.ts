import type { Db } from '../knex';
import type { EndpointRow } from './webhook-endpoints';

/**
 * The failure streak columns of `webhook_endpoints` (the rules: src/activities/webhook-streak.ts):
 * `failing_since` (the streak's first failure), `alerted_at` (the technical contact was mailed)
 * and, past the disable threshold, the endpoint disabled.
 */

/** A 2xx ends the endpoint's streak (and forgets its alert). */
export async function endFailureStreak(db: Db, endpointId: string): Promise<void> {
  await db('webhook_endpoints')
    .where({ id: endpointId })
    .whereNotNull('failing_since')
    .update({ failing_since: null, alerted_at: null });
}

/**
 * The streak lapses once the endpoint has nothing left to deliver (its last pending delivery gave
 * up): silence proves nothing either way, so a failure days later starts a new streak rather
 * than disable the endpoint on the old one's age. A disabled endpoint keeps its record.
 */
export async function endIdleFailureStreak(db: Db, endpointId: string): Promise<void> {
  await db('webhook_endpoints')
    .where({ id: endpointId, enabled: true })
    .whereNotNull('failing_since')
    .whereNotExists(db('webhook_deliveries').where({ endpoint_id: endpointId, status: 'pending' }).select(db.raw('1')))
    .update({ failing_since: null, alerted_at: null });
}

/** A failure at `at` starts the streak, or continues the running one; answers the endpoint as it now is. */
export async function continueFailureStreak(db: Db, endpointId: string, at: Date): Promise<EndpointRow | undefined> {
  const [row] = (await db('webhook_endpoints')
    .where({ id: endpointId })
    .update({ failing_since: db.raw('coalesce(failing_since, ?)', [at]) })
    .returning('*')) as EndpointRow[];
  return row;
}

/** Flags the streak as alerted at `at`; true for the one caller that set it (it sends the mail). */
export async function claimFailureAlert(db: Db, endpointId: string, at: Date): Promise<boolean> {
  const won = await db('webhook_endpoints')
    .where({ id: endpointId })
    .whereNull('alerted_at')
    .update({ alerted_at: at });
  return won > 0;
}

/** The alert's mail was not sent: the flag goes, so a later failure tries again. */
export async function releaseFailureAlert(db: Db, endpointId: string): Promise<void> {
  await db('webhook_endpoints').where({ id: endpointId }).update({ alerted_at: null });
}

/** Disables the endpoint at `at`, failing for too long since `failingSince`. */
export async function disableFailingEndpoint(db: Db, endpointId: string, at: Date, failingSince: Date): Promise<void> {
  await db('webhook_endpoints')
    .where({ id: endpointId })
    .update({
      enabled: false,
      disabled_at: at,
      disabled_reason: `deliveries failing since ${failingSince.toISOString()}`,
    });
}
