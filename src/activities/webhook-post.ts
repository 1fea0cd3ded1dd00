import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isRefusedAddress, type PrivateNetworks } from '../domain/webhooks/destination';

/** Bytes of a receiver's response body read at most; the status code is all that counts. */
export const RESPONSE_BODY_LIMIT = 64 * 1024;

/**
 * One webhook POST over HTTPS: the status code, or an error. Redirects are not followed (a 3xx is
 * just not a 2xx). Unless private networks are allowed, the address the connection actually uses
 * is checked when it is resolved, so a DNS answer that changes after an earlier check (DNS
 * rebinding) cannot reach a private address either. Trusts Node's CAs plus NODE_EXTRA_CA_CERTS.
 */
export function postWebhook(
  url: URL,
  input: { headers: Record<string, string>; body: string; timeoutMs: number; privateNetworks: PrivateNetworks },
): Promise<number> {
  return new Promise((resolve, reject) => {
    // A deadline for the whole exchange (the socket `timeout` option is only an idle timeout).
    const deadline = setTimeout(
      () => req.destroy(new Error(`no answer within ${input.timeoutMs} ms`)),
      input.timeoutMs,
    );
    const settle =
      <T>(fn: (v: T) => void) =>
      (v: T) => {
        clearTimeout(deadline);
        fn(v);
      };
    const req = https.request(
      url,
      {
        method: 'POST',
        headers: { ...input.headers, 'content-length': String(Buffer.byteLength(input.body)) },
        ...(input.privateNetworks === 'all' ? {} : { lookup: allowedOnlyLookup(input.privateNetworks) }),
      },
      (res) => {
        // Only the status counts. A short body is read to its end (the connection can be reused);
        // past RESPONSE_BODY_LIMIT the socket is destroyed: a receiver cannot make us read a gigabyte.
        const status = res.statusCode ?? 0;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > RESPONSE_BODY_LIMIT) {
            settle(resolve)(status);
            req.destroy();
          }
        });
        res.on('end', () => settle(resolve)(status));
        res.on('error', settle(reject));
      },
    );
    req.on('error', settle(reject));
    req.end(input.body);
  });
}

/** dns.lookup that fails for private or reserved addresses `allowed` does not take (Node may ask for one address or all). */
const allowedOnlyLookup =
  (allowed: PrivateNetworks): LookupFunction =>
  (hostname, options, callback) => {
    dnsLookup(hostname, options as LookupOptions, (err, address, family) => {
      if (err) return callback(err, address as string, family);
      const addresses = Array.isArray(address)
        ? (address as LookupAddress[]).map((a) => a.address)
        : [address as string];
      if (addresses.some((a) => isRefusedAddress(a, allowed))) {
        return callback(
          Object.assign(new Error(`destination refused: ${hostname} resolves to a private or reserved address`), {
            code: 'EPRIVATE',
          }),
          address as string,
          family,
        );
      }
      callback(null, address as string, family);
    });
  };
