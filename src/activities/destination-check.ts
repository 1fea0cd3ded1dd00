import { lookup } from 'node:dns/promises';
import { isPrivateAddress, literalAddress } from '../domain/webhooks/destination';

/**
 * Whether a webhook URL may be called: every address its host resolves to must be public, unless
 * private networks are allowed (sandbox, for local development). Checked when an endpoint is
 * saved and again before every attempt, since DNS answers change.
 */
export async function destinationProblem(url: URL, allowPrivate: boolean): Promise<string | undefined> {
  if (allowPrivate) return undefined;
  const literal = literalAddress(url);
  let addresses: string[];
  try {
    addresses = literal ? [literal] : (await lookup(url.hostname, { all: true, verbatim: true })).map((a) => a.address);
  } catch {
    return `host ${url.hostname} does not resolve`;
  }
  return addresses.some(isPrivateAddress)
    ? `host ${url.hostname} resolves to a private or reserved address`
    : undefined;
}
