import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { State } from '@temporalio/worker';
import { startWorkerHealthServer, type WorkerProbeTarget } from '../../src/observability/worker-health';

/**
 * The worker probes' answer for each state a Temporal worker passes through (the real workers'
 * passage is in test/api/operations.test.ts; a drain is too quick there to probe reliably).
 */
describe('worker probes by worker state', () => {
  let states: State[] = [];
  let server: Server;
  let base: string;
  const targets = (): WorkerProbeTarget[] =>
    states.map((state, i) => ({ options: { taskQueue: `queue-${i}` }, getState: () => state }));

  beforeAll(async () => {
    server = await startWorkerHealthServer('127.0.0.1', 0, targets);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const answers = async (...given: State[]) => {
    states = given;
    const [live, ready] = await Promise.all(
      ['/health/live', '/health/ready'].map(async (path) => (await fetch(`${base}${path}`)).status),
    );
    return { live, ready };
  };

  it.each<[string, State[], { live: number; ready: number }]>([
    ['starting (no worker created yet)', [], { live: 200, ready: 503 }],
    ['created, not yet polling', ['INITIALIZED'], { live: 200, ready: 503 }],
    ['polling', ['RUNNING', 'RUNNING'], { live: 200, ready: 200 }],
    ['one of two draining after SIGTERM', ['RUNNING', 'DRAINING'], { live: 200, ready: 503 }],
    ['drained', ['DRAINED'], { live: 200, ready: 503 }],
    ['stopped', ['STOPPED'], { live: 503, ready: 503 }],
    ['one of two failed', ['RUNNING', 'FAILED'], { live: 503, ready: 503 }],
  ])('%s', async (_what, given, expected) => {
    expect(await answers(...given)).toEqual(expected);
  });

  it('names each worker and its state; answers nothing else', async () => {
    states = ['RUNNING'];
    const res = await fetch(`${base}/health/ready`);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      status: 'ok',
      workers: [{ taskQueue: 'queue-0', state: 'RUNNING' }],
      time: expect.any(String),
    });
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    expect((await fetch(`${base}/health/live`, { method: 'POST' })).status).toBe(405);
  });
});
