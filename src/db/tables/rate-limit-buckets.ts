import type { Knex } from 'knex';

/** A row of `rate_limit_buckets`: a token bucket shared by every API process (docs/rate-limits.md). */
export interface RateLimitBucketRecord {
  key: string;
  tokens: number;
  burst: number;
  rate_per_second: number;
  updated_ms: number;
  allowed: boolean;
}

/** As written: what the database defaults may be left out; timestamps as Instant. */
export type RateLimitBucketInsert = RateLimitBucketRecord;

export type RateLimitBucketsTable = Knex.CompositeTableType<
  RateLimitBucketRecord,
  RateLimitBucketInsert,
  Partial<RateLimitBucketInsert>
>;
