import type { AccessToken } from './generated/openapi';
import type { AuthProvider, Transport } from './transport';

/** Renew this long before the token's stated expiry, so a call never leaves with a dying token. */
const EXPIRY_MARGIN_MS = 30_000;

/**
 * Client credentials (POST /v1/oauth2/token): one token cached and shared by concurrent calls,
 * renewed before it expires, and replaced when the service answers 401 (the interface: refresh
 * once and retry). Concurrent refreshes become one token request.
 */
export class BearerTokens implements AuthProvider {
  private token: string | undefined;
  private expiresAt = 0;
  private pending: Promise<string> | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly credentials: { clientId: string; clientSecret: string; scope?: string | undefined },
    private readonly now: () => number = Date.now,
  ) {}

  async header(): Promise<Record<string, string>> {
    return { authorization: `Bearer ${await this.current()}` };
  }

  /** After a 401: drop the token that was refused, unless another call already replaced it. */
  async refresh(rejected: Record<string, string>): Promise<void> {
    if (rejected.authorization === `Bearer ${this.token}`) this.token = undefined;
    await this.current();
  }

  private current(): Promise<string> {
    if (this.token && this.now() < this.expiresAt) return Promise.resolve(this.token);
    this.pending ??= this.issue().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async issue(): Promise<string> {
    const answer = await this.transport.call<AccessToken>({
      method: 'POST',
      path: '/v1/oauth2/token',
      form: {
        grant_type: 'client_credentials',
        client_id: this.credentials.clientId,
        client_secret: this.credentials.clientSecret,
        ...(this.credentials.scope ? { scope: this.credentials.scope } : {}),
      },
      // Issuing a token changes nothing a repeat could double.
      idempotent: true,
    });
    const lifetimeMs = answer.expires_in * 1000;
    this.token = answer.access_token;
    this.expiresAt = this.now() + Math.max(lifetimeMs / 2, lifetimeMs - EXPIRY_MARGIN_MS);
    return this.token;
  }
}
