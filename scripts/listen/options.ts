import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { ForwardTls } from './forward';

/** What `listen` runs with (docs/webhooks.md, "Webhooks on localhost"). */
export interface ListenOptions {
  forwardTo: URL;
  apiBaseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Signs every forwarded event; printed at start. */
  secret: string;
  /** Only these event names (all when empty). */
  events: string[];
  /** Pause between two polls of GET /v1/events when nothing is new. */
  intervalMs: number;
  /** Where following starts: an ISO instant (default: now) or a nextCursor. */
  since: string;
  /** How an https:// forward URL's certificate is trusted. */
  tls: ForwardTls;
}

export const USAGE = `Usage: npx tsx scripts/listen.ts --forward-to http://localhost:4242/hooks [options]

  --forward-to <url>       local URL the events are POSTed to (http:// is fine)
  --ca <file>              https:// receiver: also trust this PEM certificate (a self-signed one, mkcert's CA)
  --skip-verify            https:// receiver on localhost/127.0.0.1/[::1]: do not verify its certificate
  --client-id <id>         API client id     (env FC_CLIENT_ID, else the credentials file)
  --client-secret <secret> API client secret (env FC_CLIENT_SECRET, else the credentials file)
  --api <url>              API base URL      (env FC_API_BASE_URL, else the credentials file, else http://127.0.0.1:3000)
  --credentials <file>     default .data/sandbox-credentials.json (written by npm start)
  --secret <base64>        signing secret to use (default: a new one per session, printed)
  --events <a,b>           forward only these event names
  --since <iso|cursor>     start from this instant or nextCursor (default: now)
  --interval <ms>          poll interval when idle (default 1000)`;

/** Parses argv and the environment; throws an Error whose message is meant for the user. */
export function listenOptions(argv: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): ListenOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      'forward-to': { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      api: { type: 'string' },
      credentials: { type: 'string' },
      secret: { type: 'string' },
      events: { type: 'string' },
      since: { type: 'string' },
      interval: { type: 'string' },
      ca: { type: 'string' },
      'skip-verify': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) throw new Error(USAGE);
  const forwardTo = values['forward-to'];
  if (!forwardTo || !URL.canParse(forwardTo)) throw new Error(`--forward-to <url> is required\n\n${USAGE}`);
  const target = new URL(forwardTo);
  if (target.protocol !== 'http:' && target.protocol !== 'https:') throw new Error('--forward-to must be http(s)://');

  const tls = forwardTls(target, values.ca, values['skip-verify'] === true);
  const credentials = apiCredentials(values, env, cwd);
  const secret = values.secret ?? randomBytes(32).toString('base64');
  if (Buffer.from(secret, 'base64').length < 16) throw new Error('--secret must be Base64 of at least 16 bytes');
  const intervalMs = Number(values.interval ?? 1000);
  if (!Number.isInteger(intervalMs) || intervalMs < 100) throw new Error('--interval must be an integer ≥ 100 (ms)');
  return {
    forwardTo: target,
    apiBaseUrl: credentials.apiBaseUrl,
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
    secret,
    events: (values.events ?? '')
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean),
    intervalMs,
    since: values.since ?? new Date().toISOString(),
    tls,
  };
}

/** `--ca` and `--skip-verify`; only for https:// URLs, and skipping verification only on loopback. */
function forwardTls(target: URL, caFile: string | undefined, skipVerify: boolean): ForwardTls {
  if ((caFile !== undefined || skipVerify) && target.protocol !== 'https:') {
    throw new Error('--ca and --skip-verify are for an https:// --forward-to');
  }
  if (skipVerify && !['localhost', '127.0.0.1', '[::1]'].includes(target.hostname)) {
    throw new Error('--skip-verify is for localhost, 127.0.0.1 or [::1] only; pass --ca <file> for another host');
  }
  if (caFile === undefined) return { skipVerify };
  try {
    return { ca: readFileSync(caFile, 'utf8'), skipVerify };
  } catch (err) {
    throw new Error(`cannot read --ca ${caFile}: ${(err as Error).message}`);
  }
}

/**
 * The sandbox credentials file (.data/sandbox-credentials.json, written by npm start) as listen
 * and trigger read it; every field optional (an older file, or one written by hand).
 */
export interface StoredCredentials {
  clientId?: string;
  clientSecret?: string;
  apiBaseUrl?: string;
  mid?: string;
  partnerClientId?: string;
  partnerClientSecret?: string;
  adminToken?: string;
}

/**
 * The API client listen and trigger authenticate with: flags, else FC_CLIENT_ID / FC_CLIENT_SECRET /
 * FC_API_BASE_URL, else the credentials file; throws a message for the user when there is none.
 */
export function apiCredentials(
  values: { 'client-id'?: string; 'client-secret'?: string; api?: string; credentials?: string },
  env: NodeJS.ProcessEnv,
  cwd: string,
): { clientId: string; clientSecret: string; apiBaseUrl: string; stored: StoredCredentials } {
  const file = values.credentials ?? path.join(cwd, '.data', 'sandbox-credentials.json');
  const stored = readCredentials(file, values.credentials !== undefined);
  const clientId = values['client-id'] ?? env.FC_CLIENT_ID ?? stored.clientId;
  const clientSecret = values['client-secret'] ?? env.FC_CLIENT_SECRET ?? stored.clientSecret;
  if (!clientId || !clientSecret) {
    throw new Error(
      `no API credentials: pass --client-id and --client-secret, set FC_CLIENT_ID and FC_CLIENT_SECRET, or run npm start (it writes ${file})`,
    );
  }
  const apiBaseUrl = (values.api ?? env.FC_API_BASE_URL ?? stored.apiBaseUrl ?? 'http://127.0.0.1:3000').replace(
    /\/+$/,
    '',
  );
  return { clientId, clientSecret, apiBaseUrl, stored };
}

function readCredentials(file: string, required: boolean): StoredCredentials {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    if (required) throw new Error(`cannot read ${file}: ${(err as Error).message}`);
    return {};
  }
}
