import { z } from 'zod';
import type { EnvOf } from './env';

/** The HTTP server and its rate limits: slow or greedy clients cannot hold it (src/api/server.ts). */

export const httpEnv = {
  RATE_LIMIT_PER_SECOND: z.coerce.number().min(0.1).max(100_000).default(25),
  RATE_LIMIT_BURST: z.coerce.number().int().min(1).max(100_000).default(50),
  OPEN_RATE_LIMIT_PER_SECOND: z.coerce.number().min(0.01).max(100_000).default(5),
  OPEN_RATE_LIMIT_BURST: z.coerce.number().int().min(1).max(100_000).default(100),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(10_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(600_000).default(65_000),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).default(2_000),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(1_000_000).default(500),
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(5).default(0),
};

export interface HttpConfig {
  /** Token buckets shared by every API process through Postgres (docs/rate-limits.md). */
  rateLimit: {
    /** Per merchant, on the payment endpoints and tokenize; and per client, on verified token requests. */
    perSecond: number;
    burst: number;
    /** Per client IP: health, and failed credentials (token, tokenize, challenge reports) only. */
    perIp: { perSecond: number; burst: number };
    /**
     * Proxies in front of the API that append the client's address to X-Forwarded-For (an
     * ingress: 1). The per-address limits then key on the address the outermost of them saw;
     * 0 (the default): on the TCP peer, and the header is ignored (anyone could write it).
     */
    trustedProxyHops: number;
  };
  /** The HTTP server: slow clients cannot hold connections (src/api/server.ts). */
  http: {
    requestTimeoutMs: number;
    headersTimeoutMs: number;
    keepAliveTimeoutMs: number;
    /** The last resort: open connections in all. */
    maxConnections: number;
    /** Open connections from one client address (an IPv6 /64), at most `maxConnections`. */
    maxConnectionsPerAddress: number;
  };
}

export function httpSettings(e: EnvOf<typeof httpEnv>): HttpConfig {
  return {
    rateLimit: {
      perSecond: e.RATE_LIMIT_PER_SECOND,
      burst: e.RATE_LIMIT_BURST,
      perIp: { perSecond: e.OPEN_RATE_LIMIT_PER_SECOND, burst: e.OPEN_RATE_LIMIT_BURST },
      trustedProxyHops: e.TRUSTED_PROXY_HOPS,
    },
    http: {
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      // Node wants the headers deadline within the request's.
      headersTimeoutMs: Math.min(e.HTTP_HEADERS_TIMEOUT_MS, e.HTTP_REQUEST_TIMEOUT_MS),
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: e.HTTP_MAX_CONNECTIONS,
      maxConnectionsPerAddress: Math.min(e.HTTP_MAX_CONNECTIONS_PER_ADDRESS, e.HTTP_MAX_CONNECTIONS),
    },
  };
}
