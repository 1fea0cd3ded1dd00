import type { CacheNotifications } from '../db/cache-notifications';
import { InvalidatedCache } from '../db/invalidated-cache';
import type { Db } from '../db/knex';
import {
  type AccessTokenGrant,
  findAccessTokenGrant,
  judgeGrant,
  type TokenResolution,
} from '../db/repositories/access-tokens';
import { hashSecret } from '../domain/secrets';

/**
 * Bearer tokens checked without a query per request: a token's grant (its key's principal and
 * the token's expiry) is kept by its hash until an api_keys or access_tokens change is heard, so
 * a revoked key or token is refused by every API process within a second (docs/authentication.md).
 * Unknown tokens are not kept: each costs a query, as before.
 */
export class TokenCache {
  private readonly grants: InvalidatedCache<AccessTokenGrant | undefined>;

  constructor(
    private readonly db: Db,
    notifications: CacheNotifications | undefined,
  ) {
    this.grants = new InvalidatedCache(notifications, ['api_keys', 'access_tokens']);
  }

  async resolve(token: string, now: Date): Promise<TokenResolution> {
    const hash = hashSecret(token);
    const grant = await this.grants.get(
      hash,
      () => findAccessTokenGrant(this.db, hash),
      (found) => found !== undefined,
    );
    return judgeGrant(grant, now);
  }
}
