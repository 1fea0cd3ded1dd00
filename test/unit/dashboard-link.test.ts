import { ConfigError, loadConfig } from '../../src/config';
import { mintDashboardLink, verifyDashboardLink } from '../../src/domain/dashboard-link';

const SECRET = 'a-dashboard-link-secret-of-32-characters!';
const VAULT = `live-1:${Buffer.alloc(32, 7).toString('base64')}`;
const claims = {
  merchantId: '5f0c2a9e-4b1d-4e8f-9a3c-7d2e1b0f6a48',
  partnerId: '8e3b7c1d-2f4a-4c6e-8b0d-1a9f3e5c7b24',
  apiKeyId: '0d9e8f7a-6b5c-4d3e-2f1a-0b9c8d7e6f5a',
  expiresAt: new Date('2026-11-26T10:15:00.000Z'),
};

/** The link token's signature and expiry (src/domain/dashboard-link.ts), and its secret's configuration. */
describe('dashboard links', () => {
  const token = mintDashboardLink(SECRET, claims);

  it('gives back its claims until its expiry, and then only "expired"', () => {
    expect(verifyDashboardLink(SECRET, token, new Date('2026-11-26T10:14:59.999Z'))).toEqual({ claims });
    expect(verifyDashboardLink(SECRET, token, claims.expiresAt)).toEqual({ problem: 'expired' });
  });

  it('is invalid under another secret, with another payload, or cut short', () => {
    const now = new Date('2026-11-26T10:00:00Z');
    const [prefix, body, signature] = token.split('.') as [string, string, string];
    const longer = Buffer.from(
      JSON.stringify({ m: claims.merchantId, p: claims.partnerId, k: claims.apiKeyId, e: 4e9 }),
    );
    for (const forged of [
      mintDashboardLink(`${SECRET}x`, claims),
      `${prefix}.${longer.toString('base64url')}.${signature}`,
      `${prefix}.${body}`,
      `${prefix}.${body}.`,
      `${prefix}.${body}.${signature}.${signature}`,
      token.slice(prefix.length + 1),
      'dl1.',
    ]) {
      expect(verifyDashboardLink(SECRET, forged, now)).toEqual({ problem: 'invalid' });
    }
  });

  it('signs with DASHBOARD_LINK_SECRET; sandbox has a default, production none (the dashboard is closed)', () => {
    expect(loadConfig({ DASHBOARD_LINK_SECRET: SECRET }).dashboard.linkSecret).toBe(SECRET);
    expect(loadConfig({}).dashboard.linkSecret).toEqual(expect.any(String));
    expect(loadConfig({ FC_ENVIRONMENT: 'production', CARD_VAULT_KEYS: VAULT }).dashboard.linkSecret).toBeUndefined();
    expect(() => loadConfig({ DASHBOARD_LINK_SECRET: 'short' })).toThrow(ConfigError);
    expect(() => loadConfig({ DASHBOARD_LINK_SECRET: 'short' })).toThrow(/DASHBOARD_LINK_SECRET/);
  });
});
