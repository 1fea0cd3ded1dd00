import { eventsApi } from './listen/events-api';
import { follow } from './listen/follow';
import { listenOptions } from './listen/options';

/**
 * `npm run listen -- --forward-to http://localhost:4242/hooks`: webhooks on localhost, like
 * `stripe listen` (docs/webhooks.md). Follows the merchant's events through the events API and
 * forwards each, signed like a real delivery with the secret printed below, to a local URL. It
 * only makes outbound requests: nothing to register, no certificate, nothing reachable from outside.
 */
async function main(): Promise<void> {
  let options: ReturnType<typeof listenOptions>;
  try {
    options = listenOptions(process.argv.slice(2), process.env);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
  await eventsApi(options).check();
  const stop = new AbortController();
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.once(sig, () => stop.abort());
  const out = (line: string) => process.stdout.write(`${line}\n`);
  out(`Ready! Forwarding events of ${options.apiBaseUrl} to ${options.forwardTo.href}`);
  out(`Your webhook signing secret is ${options.secret} (host ${options.forwardTo.host}; Ctrl-C to quit)`);
  await follow(options, out, stop.signal);
}

main().catch((err: unknown) => {
  const cause = (err as Error & { cause?: Error }).cause; // fetch failed: the reason (ECONNREFUSED, ...)
  process.stderr.write(`listen: ${(err as Error).message}${cause ? ` (${cause.message})` : ''}\n`);
  process.exit(1);
});
