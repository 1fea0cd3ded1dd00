import pg from 'pg';
import type { Logger } from '../logger';
import type { Db } from './knex';
import { CACHE_CHANNEL } from './migrations/20261129010000_cache_notifications';

/** A change committed this long ago has reached every live subscriber: what the caches promise. */
export const INVALIDATION_GUARANTEE_MS = 1_000;
/** How often the listening connection proves it is alive (a round trip on its own connection). */
const HEARTBEAT_MS = 200;
/** Caches stop serving once the last proof is older than this (the rest of the second is margin). */
const LIVE_FOR_MS = 600;
/** Longest pause between two connection attempts after a drop. */
const MAX_RECONNECT_DELAY_MS = 1_000;

/** `table`: the name of a changed table (or '*': anything may have changed while we were away). */
export type Invalidation = (table: string) => void;

/**
 * The API process's LISTEN connection: Postgres triggers send the name of a changed cached table
 * (api_keys, access_tokens, merchant_settings, sites) on commit, and this hands it to the caches.
 * It needs a session of its own (DATABASE_LISTEN_URL, else DATABASE_URL): behind a pooler in
 * transaction mode (PgBouncer's) the listening backend serves other clients between our queries,
 * and they get the notifications. Its backend is the same at every heartbeat, or the connection
 * is pooled: the caches then stay off for good, with an error saying so.
 *
 * A cache may serve only while `isLive()`: the connection is listening and a round trip on it
 * answered within the last LIVE_FOR_MS. Postgres delivers a connection's notifications before the
 * answer to its next query, so an answered heartbeat proves every change committed before it was
 * sent has arrived. A dropped or frozen connection stops the caches (they read the database)
 * until a new one listens again, and each new connection first invalidates everything, as
 * notifications sent meanwhile are lost. Starting never waits for the database.
 */
export class CacheNotifications {
  private client: pg.Client | undefined;
  /** The backend that ran LISTEN: every heartbeat must be answered by it. */
  private backendPid: number | undefined;
  /** Set once the connection proved pooled: nothing is heard, the caches never serve. */
  private pooled = false;
  /** performance.now() of the last proof: a monotonic clock, which no NTP step moves. */
  private provenAt = 0;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private readonly listeners = new Set<Invalidation>();

  constructor(
    private readonly connection: pg.ClientConfig,
    private readonly logger: Logger,
  ) {}

  /**
   * A subscriber on a connection of its own: to `listenUrl` (DATABASE_LISTEN_URL) when given,
   * else with `db`'s pool's settings.
   */
  static forDb(db: Db, logger: Logger, listenUrl?: string): CacheNotifications {
    const configured = listenUrl ?? (db.client.config.connection as pg.ClientConfig | string);
    const settings = typeof configured === 'string' ? { connectionString: configured } : configured;
    return new CacheNotifications({ ...settings, application_name: 'payment-rescue-cache-listener' }, logger);
  }

  start(): this {
    this.schedule(0);
    return this;
  }

  onInvalidate(listener: Invalidation): void {
    this.listeners.add(listener);
  }

  /** Whether every change committed more than INVALIDATION_GUARANTEE_MS ago has been delivered. */
  isLive(): boolean {
    return this.client !== undefined && performance.now() - this.provenAt < LIVE_FOR_MS;
  }

  /**
   * Resolves once every change committed before the call has reached the caches: one round trip
   * on the listening connection (its notifications arrive before its answer). A request that
   * changed cached rows waits on it, so its own process never serves the old rows after answering;
   * the others hear within INVALIDATION_GUARANTEE_MS. Not live: the caches are not serving anyway.
   */
  async catchUp(): Promise<void> {
    if (!this.isLive()) return;
    await this.prove().catch(() => this.drop());
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.drop();
  }

  private schedule(ms: number): void {
    if (this.stopped || this.pooled) return;
    this.timer = setTimeout(() => void this.tick(), ms).unref();
  }

  /** Connects and listens when not connected, else proves the connection alive. */
  private async tick(): Promise<void> {
    try {
      if (!this.client) await this.connect();
      await this.prove();
      this.failures = 0;
      this.schedule(HEARTBEAT_MS);
    } catch (err) {
      if (!this.pooled && this.failures === 0 && !this.stopped)
        this.logger.warn({ err }, 'cache notifications lost: caches off');
      this.failures += 1;
      await this.drop();
      this.schedule(Math.min(MAX_RECONNECT_DELAY_MS, 100 * 2 ** this.failures));
    }
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ ...this.connection, query_timeout: LIVE_FOR_MS });
    client.on('error', () => void this.drop()); // a drop between heartbeats: caches off at once
    client.on('end', () => {
      if (this.client === client) this.client = undefined;
    });
    client.on('notification', (message) => {
      if (message.channel === CACHE_CHANNEL) this.emit(message.payload ?? '*');
    });
    this.client = client;
    await client.connect();
    // One simple query, one transaction even through a pooler: the backend that listens.
    const results = (await client.query(
      `listen ${CACHE_CHANNEL}; select pg_backend_pid() as pid`,
    )) as unknown as pg.QueryResult<{ pid: number }>[];
    this.backendPid = results[1]?.rows[0]?.pid;
    // Whatever changed while no connection listened was not heard: start from nothing.
    this.emit('*');
    if (this.failures > 0) this.logger.info('cache notifications listening again');
  }

  private async prove(): Promise<void> {
    const client = this.client;
    if (!client) throw new Error('not connected');
    const sentAt = performance.now();
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    if (rows[0]?.pid !== this.backendPid) {
      this.pooled = true;
      this.logger.error(
        { listeningBackend: this.backendPid, answeringBackend: rows[0]?.pid },
        'the cache listener is behind a transaction pooler, which hands its notifications to other clients: ' +
          'caches off for good (every token and settings check reads Postgres); set DATABASE_LISTEN_URL to a ' +
          'direct or session-mode address',
      );
      throw new Error('the cache listener connection is pooled');
    }
    if (this.client === client) this.provenAt = sentAt;
  }

  private emit(table: string): void {
    for (const listener of this.listeners) listener(table);
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.provenAt = 0;
    await client?.end().catch(() => undefined);
  }
}
