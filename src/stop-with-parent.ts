/**
 * A worker or API process started by a launcher (`npm start`, the local cluster) gets an IPC
 * channel from it (scripts/cluster/processes.ts), which closes when the launcher dies, even by
 * SIGKILL. Then this process stops as it would on SIGTERM (the API drains, the worker drains)
 * instead of running on with no one left to stop it. Without a channel (Docker, Kubernetes) it
 * does nothing. The channel does not keep the process alive.
 */
export function stopWithParent(): void {
  if (!process.send) return;
  process.once('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  // A 'disconnect' listener refs the channel on the next tick; unref it after that.
  setImmediate(() => process.channel?.unref());
}
