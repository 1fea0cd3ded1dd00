/** Something a launcher started and stops again (a process, a server, a pool). */
export interface Stoppable {
  name: string;
  stop: () => Promise<unknown>;
}

/**
 * Stops `stops`, the last started first (the API before the worker it needs, Postgres last), and
 * empties the list; one added while stopping (a start still under way) is stopped too. Each step
 * gets `deadlineMs`: a step that hangs is reported and left to the launcher's final sweep
 * (scripts/run-until-signalled.ts) rather than holding up the ones after it. A failure is
 * reported as its message, not a stack: stopping is ordinary.
 */
export async function stopInOrder(stops: Stoppable[], say: (line: string) => void, deadlineMs = 40_000): Promise<void> {
  for (let step = stops.pop(); step; step = stops.pop()) {
    const { name, stop } = step;
    say(`stopping ${name}`);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`not stopped within ${deadlineMs / 1000} s; moving on`), deadlineMs);
    });
    const outcome = await Promise.race([
      stop().then(
        () => undefined,
        (err: unknown) => (err instanceof Error ? err.message : String(err)),
      ),
      deadline,
    ]);
    clearTimeout(timer);
    if (outcome) say(`  ${name}: ${outcome}`);
  }
}
