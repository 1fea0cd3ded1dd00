import type { SenseSessionRow } from '../db/repositories/sense-sessions';
import { judgeSenseSession } from '../domain/sense-session';
import { SENSE_KEY_PATTERN } from '../domain/widget-signals';

/**
 * Whether an evaluate's device signals count toward its rescue score: only from a fresh widget
 * session of this merchant whose bound externalOrderId, if any, is the evaluate's
 * (src/domain/sense-session.ts). The API reads it beside the evaluate's other reads and scores
 * before it calls the workflow, so the score enters the history with the evaluate.
 *
 * The senseKey to read the session of; undefined when there is none or it is malformed.
 */
export function signalSenseKey(senseKey: string | null | undefined): string | undefined {
  const key = senseKey?.toLowerCase();
  return key && SENSE_KEY_PATTERN.test(key) ? key : undefined;
}

/** The verdict on a session already read (undefined: none). */
export function judgeDeviceSignals(
  session: SenseSessionRow | undefined,
  evaluate: { externalOrderId: string },
  now: Date,
): 'fresh' | 'absent' {
  const verdict = judgeSenseSession(
    session && { lastSeenAt: session.last_seen_at, externalOrderId: session.external_order_id },
    { externalOrderId: evaluate.externalOrderId },
    now,
  );
  return verdict === 'fresh' ? 'fresh' : 'absent';
}
