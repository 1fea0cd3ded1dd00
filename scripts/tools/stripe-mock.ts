import { ensureGoTool, type GoTool } from './go-tool';

/**
 * stripe-mock, Stripe's official API mock (a Go program), for the Stripe adapter's tests
 * (docs/processors.md). Pinned: v0.203.0 installs cleanly with `go install` (its go.mod has no
 * `replace` directive) and bundles an OpenAPI spec the stripe package of package.json speaks.
 */
export const STRIPE_MOCK_VERSION = '0.203.0';
const STRIPE_MOCK: GoTool = {
  label: 'stripe-mock',
  envVar: 'STRIPE_MOCK_PATH',
  command: 'stripe-mock',
  module: 'github.com/stripe/stripe-mock',
  version: STRIPE_MOCK_VERSION,
  minGo: [1, 22], // stripe-mock's go.mod: `go 1.22.1`
};

/** Finds or builds stripe-mock (STRIPE_MOCK_PATH, PATH, the cache, `go install`). */
export function ensureStripeMock(): Promise<string | undefined> {
  return ensureGoTool(STRIPE_MOCK);
}

/** The binary, or an error saying how to provide it (for the tests that need it). */
export async function requireStripeMock(): Promise<string> {
  const found = await ensureStripeMock();
  if (!found)
    throw new Error(
      `stripe-mock v${STRIPE_MOCK_VERSION} is missing: run npm run tools (needs Go) or set STRIPE_MOCK_PATH`,
    );
  return found;
}
