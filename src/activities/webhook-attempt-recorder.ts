import type { Db } from '../db/knex';
import { type AttemptRecord, recordAttempts } from '../db/repositories/webhook-due-deliveries';

/**
 * Records attempts as they finish, a round (the endpoint's concurrency) per transaction, one
 * transaction at a time and off the posting lanes' path; a lane waits only when two rounds are
 * already queued. So a worker that dies mid-batch leaves at most a few rounds sent but not
 * recorded (sent again later, with the same IdempotencyKey), and a slow database slows the posts
 * down instead of piling up unrecorded attempts.
 */
export function createAttemptRecorder(db: Db, roundSize: number) {
  let unrecorded: AttemptRecord[] = [];
  let chain: Promise<void> = Promise.resolve();
  let queued = 0;
  let failure: unknown;

  function flush(): Promise<void> {
    if (!unrecorded.length) return chain;
    const round = unrecorded;
    unrecorded = [];
    queued += 1;
    chain = chain
      .then(() => recordAttempts(db, round))
      .catch((err: unknown) => {
        failure ??= err;
      })
      .finally(() => {
        queued -= 1;
      });
    return chain;
  }

  return {
    async add(record: AttemptRecord): Promise<void> {
      unrecorded.push(record);
      if (unrecorded.length >= roundSize) {
        void flush();
        if (queued > 2) await chain;
      }
      if (failure) throw failure;
    },
    /** Records what is left; throws the first recording failure, if any. */
    async finish(): Promise<void> {
      await flush();
      if (failure) throw failure;
    },
  };
}
