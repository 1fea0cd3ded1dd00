import { lookup } from 'node:dns/promises';
import { isRefusedAddress, literalAddress, type PrivateNetworks } from '../domain/webhooks/destination';

/**
 * Whether a webhook URL may be called: every address its host resolves to must be public, or a
 * private one `allowed` takes (the sandbox's loopback, for local development). Checked when an
 * endpoint is saved and again before every attempt, since DNS answers change.
 */
export async function destinationProblem(url: URL, allowed: PrivateNetworks): Promise<string | undefined> {
  if (allowed === 'all') return undefined;
  const literal = literalAddress(url);
  let addresses: string[];
  try {
    addresses = literal ? [literal] : (await lookup(url.hostname, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    // A sandbox takes a name it cannot resolve (here or yet): it reaches nothing, and an attempt's
    // own guarded lookup refuses a private address it may resolve to later.
    return allowed === 'loopback' ? undefined : `host ${url.hostname} does not resolve`;
  }
  return addresses.some((address) => isRefusedAddress(address, allowed))
    ? `host ${url.hostname} resolves to a private or reserved address`
    : undefined;
}
