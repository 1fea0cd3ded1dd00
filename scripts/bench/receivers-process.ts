import { fork } from 'node:child_process';
import { startReceiver } from '../receivers/https-receiver';

/**
 * The merchants' webhook receivers of bench:webhooks in a process of their own, as they would be
 * (their TLS and HTTP work is not the service's): real HTTPS receivers on 127.0.0.1 answering 200,
 * reporting what they receive (body and arrival time) to the benchmark every 50 ms.
 */
export interface RemoteReceiver {
  url: string;
  received: Array<{ body: string; at: number }>;
}

export async function startReceiversProcess(
  count: number,
): Promise<{ receivers: RemoteReceiver[]; stop(): Promise<void> }> {
  const child = fork(__filename, ['--child', String(count)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const receivers = await new Promise<RemoteReceiver[]>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`receivers process exited (${code})`)));
    child.once('message', (m: { urls: string[] }) => resolve(m.urls.map((url) => ({ url, received: [] }))));
  });
  child.on('message', (m: { batch?: Array<{ i: number; body: string; at: number }> }) => {
    for (const r of m.batch ?? []) receivers[r.i]?.received.push({ body: r.body, at: r.at });
  });
  return {
    receivers,
    stop: () =>
      new Promise<void>((resolve) => {
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

async function child(count: number): Promise<void> {
  const receivers = await Promise.all(Array.from({ length: count }, () => startReceiver(200)));
  const sent = receivers.map(() => 0);
  (process.send as (m: unknown) => void)({ urls: receivers.map((r) => r.url) });
  setInterval(() => {
    const batch = receivers.flatMap((r, i) => {
      const fresh = r.received.slice(sent[i]).map((x) => ({ i, body: x.body, at: x.at }));
      sent[i] = r.received.length;
      return fresh;
    });
    if (batch.length) (process.send as (m: unknown) => void)({ batch });
  }, 50);
  process.once('SIGTERM', () => process.exit(0));
}

if (process.argv[2] === '--child') void child(Number(process.argv[3]));
