import type { Middleware } from 'koa';

/**
 * Counts requests whose handlers are still running. `server.close()` only waits for open
 * connections: a client that hangs up mid-request leaves its handler running (an evaluate waiting
 * on Temporal, say). Shutdown waits for these too before it closes what they use.
 */
export class InFlight {
  private count = 0;
  private waiters: Array<() => void> = [];

  middleware(): Middleware {
    return async (_ctx, next) => {
      this.count += 1;
      try {
        await next();
      } finally {
        this.count -= 1;
        if (this.count === 0) for (const wake of this.waiters.splice(0)) wake();
      }
    };
  }

  get running(): number {
    return this.count;
  }

  /** Resolves when no handler runs, or after timeoutMs; true when drained. */
  async drained(timeoutMs: number): Promise<boolean> {
    if (this.count === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const done = await Promise.race([
      new Promise<boolean>((resolve) => this.waiters.push(() => resolve(true))),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    return done;
  }
}
