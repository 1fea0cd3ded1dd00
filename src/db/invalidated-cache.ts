import type { CacheNotifications } from './cache-notifications';

/**
 * Rows an API process keeps in memory between requests, dropped whenever Postgres says one of
 * `tables` changed (src/db/cache-notifications.ts). While the notifications are not live every
 * read goes to the database. A read that raced a change (it began before the change was heard)
 * is answered but not kept. At most `maxEntries`, the oldest dropped first.
 */
export class InvalidatedCache<V> {
  private readonly entries = new Map<string, V>();
  private generation = 0;

  constructor(
    private readonly notifications: CacheNotifications | undefined,
    tables: string[],
    private readonly maxEntries = 10_000,
  ) {
    notifications?.onInvalidate((table) => {
      if (table === '*' || tables.includes(table)) this.clear();
    });
  }

  /** The kept value of `key`, or `load()`'s, kept when `keep` says so (e.g. not a miss). */
  async get(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    if (!this.notifications?.isLive()) return load();
    const hit = this.entries.get(key);
    if (hit !== undefined) return hit;
    const generation = this.generation;
    const value = await load();
    if (generation === this.generation && this.notifications.isLive() && keep(value)) {
      this.entries.set(key, value);
      if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    }
    return value;
  }

  clear(): void {
    this.generation += 1;
    this.entries.clear();
  }
}
