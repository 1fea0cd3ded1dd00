import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { freePort } from '../../scripts/cluster/free-ports';
import { orderWorkflow } from '../../src/workflows';
import { eventually } from '../helpers/eventually';
import { accessToken } from '../helpers/fixtures';
import { requestFrom } from '../helpers/from-address';

const ROOT = path.resolve(__dirname, '../..');

/** Every descendant of pid, found through /proc (ps --ppid, recursively). */
function descendants(pid: number): number[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    return [];
  }
  const children = out
    .split('\n')
    .map((s) => Number(s.trim()))
    .filter(Boolean);
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** The processes of `pids` still running (zombies count as gone), described by ps. */
function survivors(pids: number[]): string[] {
  return pids.flatMap((pid) => {
    try {
      const line = execFileSync('ps', ['-o', 'pid=,stat=,args=', '-p', String(pid)], { encoding: 'utf8' }).trim();
      return line && !/^\d+\s+Z/.test(line) ? [line] : [];
    } catch {
      return []; // ps exits 1 when the process is gone
    }
  });
}

/** Waits up to 10 s for every process of the tree to be gone; fails listing those that are not. */
async function allGone(pids: number[], what: string): Promise<void> {
  await eventually(
    () => survivors(pids),
    (left) => left.length === 0,
    { describe: `every process of ${what} to exit (last value: the survivors)`, timeoutMs: 10_000, intervalMs: 250 },
  );
}

/** The node entry points (`src/worker.ts`, `src/api/server.ts`) each of `pids` runs, by ps. */
function entriesOf(pids: number[]): string[] {
  return pids.flatMap((pid) => {
    try {
      const args = execFileSync('ps', ['-o', 'args=', '-p', String(pid)], { encoding: 'utf8' });
      return /(src\/worker\.ts|src\/api\/server\.ts)/.exec(args)?.[1] ?? [];
    } catch {
      return [];
    }
  });
}

/** A live worker (its process polls and beats, /v1/health/workers) through npm start's port. */
async function waitForWorker(api: string, running: Running): Promise<void> {
  await waitForHealth(`${api}/v1/health/workers`, running);
}

interface Running {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

/** Every npm start of this file, so a failed test still stops what it started (afterAll). */
const started: Running[] = [];

function npmStart(env: NodeJS.ProcessEnv): Running {
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (d) => output.push(String(d)));
  child.stderr?.on('data', (d) => output.push(String(d)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  started.push({ child, output, exited });
  return { child, output, exited };
}

/** The first 200 from `url`; fails at once if npm start exits, and with its output if none comes in time. */
async function waitForHealth(url: string, running: Running, timeoutMs = 90_000): Promise<Response> {
  const res = await eventually(
    async () => {
      if (running.child.exitCode !== null) throw new Error(`npm start exited early:\n${running.output.join('')}`);
      return fetch(url).catch((err: Error) => err); // not listening yet: ask again
    },
    (answer) => answer instanceof Response && answer.status === 200,
    { describe: () => `a 200 from ${url}; npm start said:\n${running.output.join('')}`, timeoutMs, intervalMs: 300 },
  );
  return res as Response;
}

/**
 * /v1/health/live's status on a new connection of its own (the proxy picks a backend per
 * connection). Not fetch: with `connection: close` it still reuses an idle pooled socket, and one
 * left to a killed backend, whose close this process has not read yet, answers "other side closed".
 */
async function liveOnNewConnection(api: string, running: Running): Promise<number> {
  try {
    return (await requestFrom('127.0.0.1', `${api}/v1/health/live`)).status;
  } catch (err) {
    throw new Error(
      `GET /v1/health/live failed (${(err as Error).message}); npm start said:\n${running.output.join('')}`,
    );
  }
}

/**
 * Issue 15's must-show, over HTTP only: with the seeded partner key and operator token, a partner
 * creates and submits an application, the operator approves and converts it, and the new merchant
 * (an API key its partner issues, the tokenization key the conversion answered) tokenizes a card
 * and gets APPROVED for an evaluate with that token.
 */
async function onboardOverHttp(
  api: string,
  credentials: { partnerClientId: string; partnerClientSecret: string; adminToken: string },
): Promise<void> {
  const call = async (token: string, method: string, path: string, body?: unknown, headers = {}) => {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON came back
    return { status: res.status, body: (await res.json()) as any };
  };
  const partner = await accessToken(api, {
    clientId: credentials.partnerClientId,
    clientSecret: credentials.partnerClientSecret,
  });
  const created = await call(partner, 'POST', '/v1/applications', {
    business: {
      legalName: 'New Shop Ltd',
      contactEmail: 'ops@newshop.example',
      siteOrigins: ['https://newshop.example'],
    },
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  expect((await call(partner, 'POST', `/v1/applications/${id}/submit`, {})).body.status).toBe('SUBMITTED');
  const approved = await call(credentials.adminToken, 'POST', `/v1/admin/applications/${id}/approve`, {});
  expect([approved.status, approved.body.status]).toEqual([200, 'APPROVED']);
  const converted = await call(credentials.adminToken, 'POST', `/v1/admin/applications/${id}/convert`, {});
  expect([converted.status, converted.body.status]).toEqual([200, 'CONVERTED']);
  const { mid, site, tokenizationKey } = converted.body.merchant;
  expect(site.allowedOrigins).toEqual(['https://newshop.example']);

  const key = await call(partner, 'POST', '/v1/api-keys', { mid, name: 'New Shop backend' });
  expect([key.status, key.body.mid]).toEqual([201, mid]);
  const merchant = await accessToken(api, { clientId: key.body.clientId, clientSecret: key.body.secret });
  const vaulted = await fetch(`${api}/v1/tokenize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-tokenization-key': tokenizationKey.key },
    body: JSON.stringify({ cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 }),
  });
  expect(vaulted.status).toBe(201);
  const { token } = (await vaulted.json()) as { token: string };
  const evaluated = await call(merchant, 'POST', '/v1/evaluate', {
    idempotencyKey: randomUUID(),
    externalOrderId: `new-shop-${randomUUID()}`,
    transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
    paymentMethod: { token },
  });
  expect([evaluated.status, evaluated.body.status, evaluated.body.orderStatusName]).toEqual([
    200,
    'APPROVED',
    'Completed',
  ]);
}

describe('npm start: the whole stack from one command', () => {
  jest.setTimeout(180_000);
  let dataDir: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'prs-start-'));
    await chmod(dataDir, 0o755);
    env = {
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
      TEMPORAL_DEV_SERVER_PORT: String(await freePort()),
      TEMPORAL_UI_PORT: String(await freePort()),
      DATABASE_URL: '',
      TEMPORAL_ADDRESS: '',
      LOG_LEVEL: 'warn',
    };
  });
  afterAll(async () => {
    for (const run of started) {
      if (run.child.exitCode === null && run.child.signalCode === null) {
        run.child.kill('SIGTERM');
        await run.exited;
      }
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs the worker and the API as processes of their own, serves health and the Temporal UI, seeds credentials, onboards a merchant over HTTP, survives a restart, and leaves no process after SIGTERM', async () => {
    const api = `http://127.0.0.1:${env.PORT}`;
    const first = npmStart(env);
    const health = await (await waitForHealth(`${api}/v1/health`, first)).json();
    expect(health).toMatchObject({ status: 'ok', checks: { database: { status: 'ok' }, temporal: { status: 'ok' } } });

    // As production runs it: the worker and the API are processes of their own, and the worker polls.
    await waitForWorker(api, first);
    const firstEntries = entriesOf(descendants(first.child.pid as number));
    expect(firstEntries.sort()).toEqual(['src/api/server.ts', 'src/worker.ts']);

    const ui = await fetch(`http://127.0.0.1:${env.TEMPORAL_UI_PORT}/`);
    expect(ui.status).toBe(200);

    const credentials = JSON.parse(await readFile(path.join(dataDir, 'sandbox-credentials.json'), 'utf8'));
    expect(Object.keys(credentials).sort()).toEqual(
      [
        'adminToken',
        'apiBaseUrl',
        'clientId',
        'clientSecret',
        'mid',
        'partnerClientId',
        'partnerClientSecret',
        'pid',
        'siteId',
        'temporalUiUrl',
        'tokenizationKey',
      ].sort(),
    );
    expect(credentials.apiBaseUrl).toBe(api);
    expect(first.output.join('')).toContain(credentials.clientId);
    // The seeded credentials work: a token from them reads the merchant's settings, the tokenization key vaults a test card.
    const token = await accessToken(api, credentials);
    const settings = await fetch(`${api}/v1/merchants/${credentials.mid}/settings`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(settings.status).toBe(200);
    const tokenized = await fetch(`${api}/v1/tokenize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tokenization-key': credentials.tokenizationKey },
      body: JSON.stringify({ cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: 2090 }),
    });
    expect(tokenized.status).toBe(201);
    await onboardOverHttp(api, credentials);

    // An open workflow must survive the restart (the dev server keeps its state in DATA_DIR): an
    // order waiting, on its durable hour-long timer, for its first evaluate.
    const address = `127.0.0.1:${env.TEMPORAL_DEV_SERVER_PORT}`;
    let connection = await Connection.connect({ address });
    const workflowId = `survives-restart-${Date.now()}`;
    await new Client({ connection }).workflow.start(orderWorkflow, {
      taskQueue: 'payment-rescue',
      workflowId,
      args: [
        {
          orderId: randomUUID(),
          orderSessionKey: randomUUID(),
          merchantId: credentials.mid,
          partnerId: randomUUID(),
          externalOrderId: workflowId,
          isTestMode: true,
        },
      ],
    });
    await connection.close();

    const firstTree = [first.child.pid as number, ...descendants(first.child.pid as number)];
    expect(firstTree.length).toBeGreaterThanOrEqual(6); // npm, node, postgres, temporal, worker, API at least
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    await allGone(firstTree, 'the first npm start');

    // The second start runs two API processes (API_PROCESSES) behind npm start's one port.
    const second = npmStart({ ...env, API_PROCESSES: '2' });
    await waitForWorker(api, second);
    expect(entriesOf(descendants(second.child.pid as number)).sort()).toEqual([
      'src/api/server.ts',
      'src/api/server.ts',
      'src/worker.ts',
    ]);
    for (let i = 0; i < 4; i++) expect(await liveOnNewConnection(api, second)).toBe(200);
    // A killed API process: the port keeps answering (the proxy skips it) and the launcher restarts it.
    const apiPids = () =>
      descendants(second.child.pid as number).filter((pid) => entriesOf([pid])[0] === 'src/api/server.ts');
    const [victim] = apiPids();
    process.kill(victim as number, 'SIGKILL');
    // Not ps: its thread-group leader shows as a zombie while other threads still hold the
    // sockets, and for those milliseconds its port accepts connections and then resets them. The
    // launcher's exit line comes once the whole process is reaped, its port closed.
    await eventually(
      () => second.output.join(''),
      (said) => said.includes(`(pid ${victim}) exited`),
      { describe: `npm start to report the killed ${victim} exited`, timeoutMs: 10_000, intervalMs: 50 },
    );
    for (let i = 0; i < 4; i++) expect(await liveOnNewConnection(api, second)).toBe(200);
    await eventually(apiPids, (pids) => pids.length === 2 && !pids.includes(victim as number), {
      describe: `a new API process in place of the killed ${victim}`,
      timeoutMs: 60_000,
      intervalMs: 250,
    });
    const again = JSON.parse(await readFile(path.join(dataDir, 'sandbox-credentials.json'), 'utf8'));
    expect(again).toEqual(credentials);
    connection = await Connection.connect({ address });
    const description = await new Client({ connection }).workflow.getHandle(workflowId).describe();
    expect(description.status.name).toBe('RUNNING');
    await connection.close();

    const secondTree = [second.child.pid as number, ...descendants(second.child.pid as number)];
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    await allGone(secondTree, 'the second npm start');
  });
});
