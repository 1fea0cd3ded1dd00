import { parseArgs } from 'node:util';
import { EVENT_NAMES } from '../../src/domain/webhooks/event-names';
import { apiCredentials, type StoredCredentials } from '../listen/options';

/** What `trigger` runs with (docs/webhooks.md, "Triggering events"). */
export interface TriggerOptions {
  /** The event to make happen; undefined with --list. */
  event?: string;
  list: boolean;
  apiBaseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The credentials file's contents (mid, partner key, operator token) when it is the same client's. */
  stored: StoredCredentials;
  /** How long to wait for the event to be recorded once the calls are made. */
  timeoutMs: number;
}

export const USAGE = `Usage: npx tsx scripts/trigger.ts <event> [options]   (npm run trigger -- <event>)

Makes a real sandbox order (or partner application) produce <event>, waits until the event is
recorded (GET /v1/events lists it), and exits 0. --list shows the events and how.

  --list                   the events it can trigger
  --client-id <id>         API client id     (env FC_CLIENT_ID, else the credentials file)
  --client-secret <secret> API client secret (env FC_CLIENT_SECRET, else the credentials file)
  --api <url>              API base URL      (env FC_API_BASE_URL, else the credentials file, else http://127.0.0.1:3000)
  --credentials <file>     default .data/sandbox-credentials.json (written by npm start); application and
                           dispute events need its partnerClientId/partnerClientSecret and adminToken
  --timeout <s>            how long to wait for the event once the calls are made (default 30)`;

/** Exit code of a usage error (an unknown event name among them). */
export const USAGE_ERROR = 2;

export class UsageError extends Error {}

/** Parses argv and the environment; throws a UsageError whose message is meant for the user. */
export function triggerOptions(argv: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): TriggerOptions {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n\n${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (values.help) throw new UsageError(USAGE);
  const list = values.list === true;
  const event = positionals[0];
  if (!list && event === undefined) throw new UsageError(`name the event to trigger\n\n${USAGE}`);
  if (positionals.length > 1) throw new UsageError(`one event at a time\n\n${USAGE}`);
  if (event !== undefined && !(EVENT_NAMES as readonly string[]).includes(event)) {
    throw new UsageError(`unknown event ${event}; it can trigger:`);
  }
  const timeoutSeconds = Number(values.timeout ?? 30);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new UsageError('--timeout must be seconds > 0');
  if (list) return { list, event, apiBaseUrl: '', clientId: '', clientSecret: '', stored: {}, timeoutMs: 0 };

  let credentials: ReturnType<typeof apiCredentials>;
  try {
    credentials = apiCredentials(values, env, cwd);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  // Trigger makes real orders: sandbox keys only (a live key's secret starts sk_live_).
  if (!credentials.clientSecret.startsWith('sk_sandbox_')) {
    throw new UsageError('trigger runs with a sandbox API key only (its secret starts sk_sandbox_)');
  }
  const { stored, ...client } = credentials;
  return {
    list,
    event,
    ...client,
    // The file's merchant, partner and operator token belong to its own client only.
    stored: stored.clientId === client.clientId ? stored : {},
    timeoutMs: timeoutSeconds * 1000,
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      list: { type: 'boolean' },
      'client-id': { type: 'string' },
      'client-secret': { type: 'string' },
      api: { type: 'string' },
      credentials: { type: 'string' },
      timeout: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}
