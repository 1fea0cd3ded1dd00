import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/logger';

/** A real pino logger whose JSON lines are kept in memory, for asserting what gets logged. */
export function capturedLogger(level = 'info'): { logger: Logger; lines: string[]; text(): string } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  return { logger: createLogger({ level }, sink), lines, text: () => lines.join('\n') };
}
