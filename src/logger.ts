import pino, { type Logger } from 'pino';
import { scrub } from './domain/sensitive-data';

export type { Logger } from 'pino';

/**
 * JSON logs (pino). Every log object is scrubbed: sensitive keys (authorization, secrets, card
 * numbers, tokens) are redacted at any depth and card-number-like digit runs in strings are
 * masked, so nothing sensitive reaches the log even when a caller logs a whole request.
 */
export function createLogger(
  options: { level?: string; name?: string } = {},
  destination?: pino.DestinationStream,
): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      name: options.name ?? 'payment-rescue',
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      messageKey: 'msg',
      formatters: {
        log: (object) => scrub(object) as Record<string, unknown>,
      },
      hooks: {
        // Messages are strings too: mask card numbers in them as well.
        logMethod(args, method) {
          const masked = args.map((a) => (typeof a === 'string' ? (scrub(a) as string) : a));
          return method.apply(this, masked as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}
