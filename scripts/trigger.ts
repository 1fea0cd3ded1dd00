import type { EventName } from '../src/domain/webhooks/event-names';
import { apiSession, postJson } from './listen/api-session';
import { awaitEvent } from './trigger/await-event';
import { type TriggerOptions, triggerOptions, USAGE_ERROR, UsageError } from './trigger/options';
import { SCENARIOS, type TriggerContext } from './trigger/scenarios';

/**
 * `npm run trigger -- order.refunded`: makes a real sandbox order (or partner application)
 * produce an event, like `stripe trigger`, through the public API with the sandbox credentials,
 * then waits until the event is recorded (GET /v1/events lists it). With `npm run listen`
 * running, it is forwarded to the local receiver moments later (docs/webhooks.md).
 */
async function main(): Promise<number> {
  let options: TriggerOptions;
  try {
    options = triggerOptions(process.argv.slice(2), process.env);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`${err.message}\n${err.message.startsWith('unknown event') ? `\n${listing()}\n` : ''}`);
    return USAGE_ERROR;
  }
  const out = (line: string) => process.stdout.write(`${line}\n`);
  if (options.list || options.event === undefined) {
    out(listing());
    return 0;
  }
  const event = options.event as EventName;
  const ctx = context(options, out);
  // A little before now: the API's clock may be slightly behind this machine's.
  const since = new Date(Date.now() - 60_000);
  out(`Triggering ${event} at ${options.apiBaseUrl}: ${SCENARIOS[event].how}`);
  const triggered = await SCENARIOS[event].run(ctx);
  const feed = triggered.feed === 'partner' ? ctx.partner() : ctx.merchant;
  const deadline = Date.now() + (triggered.expectedWithinMs ?? 0) + options.timeoutMs;
  const recorded = await awaitEvent(feed, event, triggered, since, deadline);
  const about = triggered.orderId ? `order ${triggered.orderId}` : `application ${triggered.applicationId}`;
  if (!recorded) {
    process.stderr.write(`trigger: ${event} for ${about} not recorded within ${options.timeoutMs / 1000} s\n`);
    return 1;
  }
  out(`${event} recorded: event ${recorded.EventId} for ${about}`);
  return 0;
}

function listing(): string {
  const width = Math.max(...Object.keys(SCENARIOS).map((name) => name.length));
  return Object.entries(SCENARIOS)
    .map(([name, scenario]) => `${name.padEnd(width)}  ${scenario.how}`)
    .join('\n');
}

function context(options: TriggerOptions, say: (line: string) => void): TriggerContext {
  const { stored } = options;
  const merchant = apiSession(options);
  let partner: ReturnType<typeof apiSession> | undefined;
  const missing = (what: string) =>
    new Error(`${what} needed: the credentials file of npm start has it (--credentials <file>)`);
  return {
    merchant,
    say,
    partner() {
      if (!stored.partnerClientId || !stored.partnerClientSecret) throw missing('a partner API key (partnerClientId)');
      partner ??= apiSession({
        apiBaseUrl: options.apiBaseUrl,
        clientId: stored.partnerClientId,
        clientSecret: stored.partnerClientSecret,
      });
      return partner;
    },
    admin(path, body = {}) {
      if (!stored.adminToken) throw missing("the sandbox's operator token (adminToken)");
      return postJson(options.apiBaseUrl, path, body, stored.adminToken);
    },
    challenge: (orderSessionKey, result) =>
      postJson(options.apiBaseUrl, `/v1/challenges/${orderSessionKey}/${result}`, {}),
    async mid() {
      if (stored.mid) return stored.mid;
      // The API key's own record names its merchant.
      const key = await merchant.call('GET', `/v1/api-keys/${options.clientId}`);
      if (key.status !== 200 || !key.body.mid)
        throw new Error(`cannot tell the API key's merchant (HTTP ${key.status})`);
      return key.body.mid as string;
    },
  };
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    const cause = (err as Error & { cause?: Error }).cause; // fetch failed: the reason (ECONNREFUSED, ...)
    process.stderr.write(`trigger: ${(err as Error).message}${cause ? ` (${cause.message})` : ''}\n`);
    process.exit(1);
  },
);
