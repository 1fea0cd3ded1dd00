/** A benchmark's line of output, marked as the bench's (not the service's logs). */
export const say = (line: string) => process.stdout.write(`[bench] ${line}\n`);
