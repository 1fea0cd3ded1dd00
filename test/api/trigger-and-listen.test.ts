import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listenOptions } from '../../scripts/listen/options';
import { type Received, startReceiver } from '../../scripts/receivers/https-receiver';
import { derivedUuid } from '../../src/domain/ids';
import { verifyWebhook } from '../../src/domain/webhooks/signature';
import { callApi } from '../helpers/api-client';
import { eventually } from '../helpers/eventually';
import { accessToken, seedKey, seedMerchant } from '../helpers/fixtures';
import { shared } from '../helpers/shared-env';
import { startTestStack, type TestStack } from '../helpers/stack';

const ROOT = path.join(__dirname, '../..');
const ADMIN_TOKEN = 'admin_sandbox_trigger_test_0123456789abcdef';

/** A script of scripts/ run as the developer runs it, its output kept with the time each line came. */
interface Script {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** When a line matching `pattern` was printed (epoch ms), or undefined. */
  printedAt: (pattern: RegExp) => number | undefined;
  exitedAt?: number;
}

function runScript(script: string, args: string[], env: NodeJS.ProcessEnv): Script {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<{ line: string; at: number }> = [];
  let pending = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    pending += c.toString();
    const parts = pending.split('\n');
    pending = parts.pop() ?? '';
    for (const line of parts) lines.push({ line, at: Date.now() });
  });
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const run: Script = {
    child,
    stdout: () => lines.map((l) => l.line).join('\n') + (pending ? `\n${pending}` : ''),
    stderr: () => stderr,
    printedAt: (pattern) => lines.find((l) => pattern.test(l.line))?.at,
  };
  child.on('exit', () => (run.exitedAt = Date.now()));
  return run;
}

/** Waits for a script to end and answers its exit code. */
async function exitCode(run: Script, timeoutMs = 60_000): Promise<number | null> {
  await eventually(
    () => run.child.exitCode,
    (code) => code !== null,
    { describe: () => `the script to exit (stdout ${run.stdout()}, stderr ${run.stderr()})`, timeoutMs },
  );
  return run.child.exitCode;
}

describe('npm run trigger and npm run listen: the local webhook loop', () => {
  let stack: TestStack;
  let dir: string;
  let credentialsFile: string;
  let merchant: Awaited<ReturnType<typeof seedMerchant>>;
  let token: string;
  let partnerToken: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let listen: Script;
  let listenUntrusting: Script;
  let secret: string;
  /** Neither the stack's CA variable nor FC_* credentials: what a developer's shell has. */
  let cleanEnv: NodeJS.ProcessEnv;
  const scripts: Script[] = [];

  const api = (method: string, p: string, body?: unknown, as = token) => callApi(stack.baseUrl, as, method, p, body);
  const trigger = (...args: string[]) => {
    const run = runScript('scripts/trigger.ts', [...args, '--credentials', credentialsFile], cleanEnv);
    scripts.push(run);
    return run;
  };

  beforeAll(async () => {
    stack = await startTestStack({ env: { ADMIN_API_TOKEN: ADMIN_TOKEN } });
    merchant = await seedMerchant(stack.db);
    const key = await seedKey(stack.db, merchant);
    const partnerKey = await seedKey(stack.db, { pid: merchant.pid });
    token = await accessToken(stack.baseUrl, key);
    partnerToken = await accessToken(stack.baseUrl, partnerKey);
    dir = await mkdtemp(path.join(tmpdir(), 'trigger-'));
    credentialsFile = path.join(dir, 'sandbox-credentials.json');
    // What npm start writes (src/db/sandbox-seed.ts), for this stack.
    await writeFile(
      credentialsFile,
      JSON.stringify({
        pid: merchant.pid,
        mid: merchant.mid,
        clientId: key.clientId,
        clientSecret: key.clientSecret,
        partnerClientId: partnerKey.clientId,
        partnerClientSecret: partnerKey.clientSecret,
        adminToken: ADMIN_TOKEN,
        apiBaseUrl: stack.baseUrl,
      }),
      { mode: 0o600 },
    );
    cleanEnv = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => name !== 'NODE_EXTRA_CA_CERTS' && !name.startsWith('FC_')),
    );
    // The local receiver is HTTPS with a self-signed certificate (the run's own).
    receiver = await startReceiver(200);
    const listenArgs = ['--forward-to', receiver.url, '--credentials', credentialsFile];
    listen = runScript('scripts/listen.ts', [...listenArgs, '--ca', shared('tlsCert')], cleanEnv);
    listenUntrusting = runScript('scripts/listen.ts', listenArgs, cleanEnv);
    scripts.push(listen, listenUntrusting);
    for (const run of [listen, listenUntrusting]) {
      await eventually(
        () => /signing secret is (\S+)/.exec(run.stdout())?.[1],
        (s) => s !== undefined || run.child.exitCode !== null,
        { describe: () => `listen to be ready (stdout ${run.stdout()}, stderr ${run.stderr()})`, timeoutMs: 30_000 },
      );
    }
    secret = /signing secret is (\S+)/.exec(listen.stdout())?.[1] as string;
    expect(secret).toBeDefined();
  });

  afterAll(async () => {
    for (const run of scripts) if (run.child.exitCode === null) run.child.kill('SIGTERM');
    await receiver?.stop();
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** What listen forwarded to the receiver for `eventId`. */
  const forwarded = (eventId: string) =>
    receiver.received.find((r) => JSON.parse(r.body).IdempotencyKey === derivedUuid(eventId, 'listen'));

  it('trigger order.refunded: listen prints its delivery -> 200 within 5 s of trigger completing', async () => {
    const run = trigger('order.refunded');
    expect(await exitCode(run)).toBe(0);
    const done = run.exitedAt as number;
    const orderId = /order ([0-9a-f-]{36})/.exec(run.stdout())?.[1];
    const eventId = /order\.refunded recorded: event ([0-9a-f-]{36})/.exec(run.stdout())?.[1];
    expect([orderId, eventId]).toEqual([expect.any(String), expect.any(String)]);

    const line = new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  order\\.refunded  ${eventId} -> 200$`);
    const printed = await eventually(
      () => listen.printedAt(line),
      (at) => at !== undefined,
      { describe: () => `listen's line for ${eventId} (stdout ${listen.stdout()})`, timeoutMs: 5_000 },
    );
    expect((printed as number) - done).toBeLessThan(5_000);

    // The refund is real: the order is Returned, and the event is the real one, verified with listen's secret.
    const order = await api('GET', `/v1/orders/${orderId}`);
    expect([order.body.status, order.body.amounts.refunded]).toEqual([6, 1500]);
    const raw = forwarded(eventId as string) as Received;
    expect(verifyWebhook({ body: raw.body, headers: raw.headers, host: receiver.host, secrets: [secret] })).toBe(true);
    expect(raw.headers['x-fc-test']).toBeUndefined();
    expect(JSON.parse(raw.body)).toMatchObject({
      Event: 'order.refunded',
      OrderId: orderId,
      Mid: merchant.mid,
      IsTestMode: true,
      EventData: { Amount: 1500, Currency: 'USD' },
    });
    // Without --ca (nor NODE_EXTRA_CA_CERTS) the self-signed receiver is refused, and said so.
    await eventually(
      () => listenUntrusting.stdout(),
      (s) => new RegExp(`order\\.refunded  ${eventId} -> error: self-signed certificate`).test(s),
      { describe: () => `the untrusting listen's line (stdout ${listenUntrusting.stdout()})` },
    );
  });

  it('a test event (POST /v1/webhooks/{id}/test) reaches listen, marked [test] and x-fc-test', async () => {
    const endpoint = await api('POST', '/v1/webhooks', { url: receiver.url, events: ['order.completed'] });
    const sent = await api('POST', `/v1/webhooks/${endpoint.body.id}/test`, { event: 'order.capturerequired' });
    expect(sent.status).toBe(202);
    const line = new RegExp(`  order\\.capturerequired  ${sent.body.eventId} \\[test\\] -> 200$`);
    await eventually(
      () => listen.printedAt(line),
      (at) => at !== undefined,
      { describe: () => `listen's line for test event ${sent.body.eventId} (stdout ${listen.stdout()})` },
    );
    const raw = forwarded(sent.body.eventId) as Received;
    expect(raw.headers['x-fc-test']).toBe('true');
    expect(verifyWebhook({ body: raw.body, headers: raw.headers, host: receiver.host, secrets: [secret] })).toBe(true);
    expect(JSON.parse(raw.body)).toMatchObject({
      Event: 'order.capturerequired',
      ExternalOrderId: expect.stringMatching(/^fc-test-/),
      IsTestMode: true,
    });
    // Listed only when asked for, and marked; never resendable.
    const ids = (r: { body: { data: Array<{ EventId: string }> } }) => r.body.data.map((e) => e.EventId);
    expect(ids(await api('GET', '/v1/events?limit=500'))).not.toContain(sent.body.eventId);
    const withTests = await api('GET', '/v1/events?limit=500&include_test_events=true');
    expect(withTests.body.data.find((e: { EventId: string }) => e.EventId === sent.body.eventId)).toMatchObject({
      IsTestEvent: true,
    });
    expect(withTests.body.data.filter((e: { IsTestEvent: boolean }) => !e.IsTestEvent).length).toBeGreaterThan(0);
    const resend = await api('POST', `/v1/events/${sent.body.eventId}/resend`);
    expect([resend.status, resend.body.error.id]).toEqual([404, '404021']);
    const bad = await api('GET', '/v1/events?include_test_events=yes');
    expect([bad.status, bad.body.error.id, bad.body.error.field]).toEqual([400, '400002', 'include_test_events']);
  });

  it.each([
    ['order.cancelled', 'merchant', 2],
    ['challenge.passed', 'merchant', 7],
    ['payment.chargeback.reversed', 'merchant', 7],
    ['order.expired', 'merchant', 2],
    ['application.converted', 'partner', undefined],
  ])('trigger %s makes it happen for real and exits 0 once it is recorded', async (event, feed, status) => {
    const run = trigger(event);
    // Its output in the failure, so a refused call or a late event says which.
    const code = await exitCode(run);
    expect(code === 0 ? 'exit 0' : `exit ${code}\n${run.stdout()}\n${run.stderr()}`).toBe('exit 0');
    const eventId = new RegExp(`${event.replace(/\./g, '\\.')} recorded: event ([0-9a-f-]{36})`).exec(
      run.stdout(),
    )?.[1];
    const listed = await api('GET', '/v1/events?limit=500', undefined, feed === 'partner' ? partnerToken : token);
    const recorded = listed.body.data.find((e: { EventId: string }) => e.EventId === eventId);
    expect(recorded).toMatchObject({ Event: event });
    if (status !== undefined) {
      expect((await api('GET', `/v1/orders/${recorded.OrderId}`)).body.status).toBe(status);
    } else {
      const app = await api('GET', `/v1/applications/${recorded.EventData.ApplicationId}`, undefined, partnerToken);
      expect([app.body.status, app.body.mid]).toEqual(['CONVERTED', recorded.EventData.Mid]);
    }
  });

  it('refuses an unknown event name (exit 2, with the list) and --skip-verify off loopback', async () => {
    const run = trigger('order.canceled');
    expect(await exitCode(run)).toBe(2);
    expect(run.stderr()).toMatch(/unknown event order\.canceled/);
    expect(run.stderr()).toMatch(/^order\.cancelled {2,}/m);
    expect(run.stdout()).toBe('');
    const listing = trigger('--list');
    expect(await exitCode(listing)).toBe(0);
    expect(listing.stdout().split('\n').filter(Boolean)).toHaveLength(17);

    const options =
      (url: string, ...more: string[]) =>
      () =>
        listenOptions(['--forward-to', url, '--client-id', 'x', '--client-secret', 'y', ...more], {}, dir);
    expect(options('https://example.com/hooks', '--skip-verify')).toThrow(/--skip-verify is for localhost/);
    expect(options('http://localhost:4242/hooks', '--ca', credentialsFile)).toThrow(/https:\/\//);
    expect(options('https://localhost:4242/hooks', '--skip-verify')().tls).toEqual({ skipVerify: true });
  });
});
