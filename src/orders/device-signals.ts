import type { Db } from '../db/knex';
import { findSenseSession } from '../db/repositories/sense-sessions';
import { judgeSenseSession } from '../domain/sense-session';
import { SENSE_KEY_PATTERN } from '../domain/widget-signals';

/**
 * Whether an evaluate's device signals count toward its rescue score: only from a fresh widget
 * session of this merchant whose bound externalOrderId, if any, is the evaluate's
 * (src/domain/sense-session.ts). The API reads it beside the evaluate's other reads and scores
 * before it calls the workflow, so the score enters the history with the evaluate.
 */
export async function deviceSignals(
  db: Db,
  evaluate: { merchantId: string; senseKey: string | null; externalOrderId: string },
  now: Date,
): Promise<'fresh' | 'absent'> {
  const senseKey = evaluate.senseKey?.toLowerCase();
  if (!senseKey || !SENSE_KEY_PATTERN.test(senseKey)) return 'absent';
  const session = await findSenseSession(db, evaluate.merchantId, senseKey);
  const verdict = judgeSenseSession(
    session && { lastSeenAt: session.last_seen_at, externalOrderId: session.external_order_id },
    { externalOrderId: evaluate.externalOrderId },
    now,
  );
  return verdict === 'fresh' ? 'fresh' : 'absent';
}
