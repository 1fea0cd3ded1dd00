/**
 * What an API key may do. The interface names no scopes; these are ours (docs/authentication.md).
 * A key created without `scopes` gets all of them.
 */
export const SCOPES = ['payments', 'api_keys', 'settings', 'webhooks'] as const;
export type Scope = (typeof SCOPES)[number];

/** Who is calling, as established by the bearer token. */
export interface Principal {
  apiKeyId: string;
  ownerType: 'merchant' | 'partner';
  partnerId: string;
  /** Set for merchant keys; a partner key acts for the merchants its partner owns. */
  merchantId: string | null;
  scopes: Scope[];
  /**
   * A merchant dashboard link (docs/dashboard.md): it reads, and is shown nothing that lets its
   * holder act (an order's orderSessionKey reports a challenge's result).
   */
  readOnly?: true;
}
