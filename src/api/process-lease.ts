import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db } from '../db/knex';
import { endProcessLease, HEARTBEAT_INTERVAL_MS, renewProcessLease } from '../db/repositories/process-leases';
import type { Logger } from '../logger';

/**
 * This API process's lease: a row in `api_processes` renewed every second. Idempotency claims
 * carry the lease id, so the claims of a process that died (no heartbeat for LEASE_MS) are taken
 * over within seconds, not minutes (docs/idempotency.md). It also retries releases that failed
 * while the database was unavailable, so a key whose outcome is unknown does not stay in flight.
 * Starting never waits for the database: the API serves (503s) while Postgres is down.
 */
export class ProcessLease {
  readonly id = randomUUID();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private failing = false;
  private readonly pending = new Map<string, () => Promise<void>>();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly intervalMs = HEARTBEAT_INTERVAL_MS,
  ) {}

  start(): this {
    const tick = () => {
      this.running = this.beat();
      void this.running.then(() => {
        if (this.timer) this.timer = setTimeout(tick, this.intervalMs).unref();
      });
    };
    this.timer = setTimeout(tick, 0).unref();
    return this;
  }

  /** Runs `release` again on each heartbeat until it succeeds (at most 10,000 kept). */
  retryLater(id: string, release: () => Promise<void>): void {
    if (this.pending.size < 10_000) this.pending.set(id, release);
  }

  private async beat(): Promise<void> {
    try {
      await renewProcessLease(this.db, { id: this.id, host: hostname(), pid: process.pid });
      if (this.failing) this.logger.info({ leaseId: this.id }, 'API lease renewed again');
      this.failing = false;
    } catch (err) {
      if (!this.failing) this.logger.warn({ err, leaseId: this.id }, 'API lease not renewed; retrying');
      this.failing = true;
      return;
    }
    for (const [id, release] of this.pending) {
      try {
        await release();
        this.pending.delete(id);
      } catch {
        return; // the database is unavailable again: next beat
      }
    }
  }

  /** Stops the heartbeat and ends the lease (best effort: a lease not ended runs out by itself). */
  async stop(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
    await this.beat().catch(() => undefined); // last chance for pending releases
    await endProcessLease(this.db, this.id).catch(() => undefined);
  }
}

const leases = new WeakMap<object, ProcessLease>();

/** Gives an app (the Koa application of one API server) its lease. */
export function attachLease(app: object, lease: ProcessLease): void {
  leases.set(app, lease);
}

/** The lease of the app serving this request, if it has one (an app created without listen has not). */
export function leaseOf(app: object): ProcessLease | undefined {
  return leases.get(app);
}
