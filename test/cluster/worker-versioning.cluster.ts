import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cp, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { type ClusterHandle, startCluster } from '../../scripts/cluster/cluster';
import { freeFrontendPort, freePortBase } from '../../scripts/cluster/free-ports';
import { ensureTemporalCli } from '../../scripts/tools/temporal-cli';
import { orderWorkflowId } from '../../src/domain/orders/workflow-ids';
import { eventually } from '../helpers/eventually';
import { accessToken } from '../helpers/fixtures';

/**
 * Worker Versioning on the real Temporal server (v1.31.0 on Postgres), as docs/deployment.md
 * ("Versioned workers") rolls a build out: workers of build A hold 20 open async MIT orders; build
 * B, whose order workflow is changed so that A's histories do not replay on it (it upserts a memo
 * before its retries: a command A never gave), is rolled out with the operator's CLI command (set
 * current version). A's orders finish on A (pinned), new orders run on B, no workflow task fails,
 * then A drains and is retired (its worker stopped, its version deleted).
 */

const ROOT = path.resolve(__dirname, '../..');
const NAMESPACE = 'versioning';
const DEPLOYMENT = 'payment-rescue';
const [BUILD_A, BUILD_B] = ['build-a', 'build-b'];
const A_ORDERS = 20;
const B_ORDERS = 5;
const { EventType, VersioningBehavior, VersionDrainageStatus } = temporal.api.enums.v1;

const nextYear = new Date().getUTCFullYear() + 1;
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

/** Build B: a copy of the source whose order workflow gives one command more, before its retries. */
async function sourceOfBuildB(directory: string): Promise<string> {
  await mkdir(directory, { recursive: true });
  await cp(path.join(ROOT, 'src'), path.join(directory, 'src'), { recursive: true });
  for (const file of ['package.json', 'tsconfig.json']) await cp(path.join(ROOT, file), path.join(directory, file));
  await symlink(path.join(ROOT, 'node_modules'), path.join(directory, 'node_modules'));
  const file = path.join(directory, 'src/workflows/order/workflow.ts');
  const source = await readFile(file, 'utf8');
  const loop = '  for (let status = order.state.status; !isFinal(status); status = order.state.status) {';
  if (!source.includes(loop)) throw new Error(`build B: the order workflow no longer has its phase loop (${file})`);
  await writeFile(file, source.replace(loop, `  wf.upsertMemo({ build: '${BUILD_B}' });\n${loop}`));
  return directory;
}

describe('versioned workers: a changed order workflow rolled out with no patch', () => {
  let cluster: ClusterHandle;
  let cli: string;
  let connection: Connection;
  let client: Client;
  let buildBRoot: string;
  const lines: string[] = [];
  const say = (line: string) => lines.push(line);

  /** The operator's command (docs/runbook.md), against the test cluster. */
  const temporalCli = async (...args: string[]) =>
    (
      await promisify(execFile)(cli, [...args, '--address', cluster.temporalAddress, '--namespace', NAMESPACE], {
        timeout: 30_000,
      })
    ).stdout;

  beforeAll(async () => {
    const databaseUrl = process.env.PRS_CLUSTER_TEST_DATABASE_URL;
    const workDir = process.env.PRS_CLUSTER_TEST_DIR;
    if (!databaseUrl || !workDir)
      throw new Error('run through npm run test:cluster (its global setup starts Postgres)');
    const found = await ensureTemporalCli();
    if (!found) throw new Error('no Temporal CLI (npm run tools provisions it)');
    cli = found;
    buildBRoot = await sourceOfBuildB(path.join(workDir, 'build-b'));
    // The proxy, the API process, then the API's and the worker's metrics ports.
    const apiPort = await freePortBase([0, 1, 2, 3]);
    cluster = await startCluster({
      directory: path.join(workDir, 'versioning'),
      databaseUrl,
      postgresPort: 0,
      apiPort,
      temporalPort: await freeFrontendPort(),
      namespace: NAMESPACE,
      taskQueue: 'payment-rescue',
      workers: 1,
      apis: 1,
      autoRestart: false,
      unsafeFastPostgres: true,
      logLevel: 'info',
      env: { WORKER_DEPLOYMENT_NAME: DEPLOYMENT, WORKER_BUILD_ID: BUILD_A },
      // A version's drainage is checked every 3 min by default (visibility lags): seconds here. A
      // poller is remembered for longer than a long poll lasts, so an idle worker still counts.
      temporalDynamicConfig: {
        'matching.wv.VersionDrainageStatusVisibilityGracePeriod': '5s',
        'matching.wv.VersionDrainageStatusRefreshInterval': '5s',
        'matching.PollerHistoryTTL': '90s',
      },
      say,
    });
    connection = await Connection.connect({ address: cluster.temporalAddress });
    client = new Client({ connection, namespace: NAMESPACE });
  }, 300_000);

  afterAll(async () => {
    await connection?.close();
    await cluster?.stop();
    process.stdout.write(`${lines.map((l) => `[versioning] ${l}`).join('\n')}\n`);
  }, 120_000);

  it("keeps A's open orders on A, runs new ones on B, then drains and retires A", async () => {
    const describeVersion = (buildId: string) =>
      connection.workflowService.describeWorkerDeploymentVersion({
        namespace: NAMESPACE,
        deploymentVersion: { deploymentName: DEPLOYMENT, buildId },
      });
    // Until a version is current, new workflows go to unversioned workers: the first rollout makes A
    // current, once its worker has polled (the server knows the version from its polls).
    await eventually(
      () =>
        temporalCli(
          'worker',
          'deployment',
          'set-current-version',
          '--deployment-name',
          DEPLOYMENT,
          '--build-id',
          BUILD_A,
          '--yes',
        ).then(
          () => 'current',
          (err: Error) => err.message,
        ),
      (outcome) => outcome === 'current',
      { describe: `${BUILD_A} to become current`, timeoutMs: 60_000, intervalMs: 1_000 },
    );

    const api = cluster.apiUrl;
    const token = await accessToken(api, cluster.credentials);
    const { mid } = cluster.credentials;
    // Rescued by the retry a minute after acceptance (the window: 90 s).
    const asyncMit = async () => {
      const externalOrderId = `versioning-${randomUUID()}`;
      const res = await fetch(`${api}/v1/evaluate`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          idempotencyKey: randomUUID(),
          externalOrderId,
          transaction: { amount: 2500, currency: 'USD', responseCode: '51' },
          paymentMethod: { cardNumber: '4111111111111111', expiryMonth: 12, expiryYear: nextYear },
          isMIT: true,
          isRecurring: true,
          subscription: { intervalCount: 1 },
          expiryDateUtc: inSeconds(90),
        }),
      });
      const body = await res.json();
      expect({ status: res.status, outcome: body.outcome, error: body.error }).toEqual({
        status: 200,
        outcome: 'SUBMITTED',
        error: undefined,
      });
      return { orderId: body.orderId as string, workflowId: orderWorkflowId(mid, externalOrderId) };
    };

    const onA = await Promise.all(Array.from({ length: A_ORDERS }, asyncMit));

    // Build B comes up beside A and is made current: the rollout.
    const workerB = cluster.addWorker({ name: 'worker-b', env: { WORKER_BUILD_ID: BUILD_B }, root: buildBRoot });
    await workerB.start();
    await eventually(
      () =>
        temporalCli(
          'worker',
          'deployment',
          'set-current-version',
          '--deployment-name',
          DEPLOYMENT,
          '--build-id',
          BUILD_B,
          '--yes',
        ).then(
          () => 'current',
          (err: Error) => err.message,
        ),
      (outcome) => outcome === 'current',
      { describe: `${BUILD_B} to become current`, timeoutMs: 60_000, intervalMs: 1_000 },
    );
    const switchedAt = Date.now();
    const draining = await describeVersion(BUILD_A);
    expect(draining.workerDeploymentVersionInfo?.drainageInfo?.status).toBe(
      VersionDrainageStatus.VERSION_DRAINAGE_STATUS_DRAINING,
    );
    // A's orders are all still open, waiting for their retry.
    const openOnA = await Promise.all(onA.map((o) => client.workflow.getHandle(o.workflowId).describe()));
    expect(openOnA.map((d) => d.status.name)).toEqual(onA.map(() => 'RUNNING'));

    const onB = await Promise.all(Array.from({ length: B_ORDERS }, asyncMit));

    // While they run: B's code really is incompatible with A's histories (so the pinning matters).
    const bundleB = await bundleWorkflowCode({
      workflowsPath: path.join(buildBRoot, 'src/workflows'),
      logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} },
    });

    const all = [...onA, ...onB];
    const completed = async () => {
      const rows = await cluster
        .db('events')
        .whereIn(
          'order_id',
          all.map((o) => o.orderId),
        )
        .andWhere({ name: 'order.completed' })
        .select('order_id');
      return new Set(rows.map((r) => r.order_id));
    };
    await eventually(completed, (done) => done.size === all.length, {
      describe: `all ${all.length} orders to be completed`,
      timeoutMs: 240_000,
      intervalMs: 1_000,
    });

    // Who ran each workflow task, from the histories: build and behaviour of every completed task.
    const tasksOf = async (workflowId: string) => {
      const history = await client.workflow.getHandle(workflowId).fetchHistory();
      const events = history.events ?? [];
      return {
        history,
        failedTasks: events.filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED).length,
        completed: events
          .filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
          .map((e) => ({
            at: Number(e.eventTime?.seconds ?? 0) * 1000,
            buildId: e.workflowTaskCompletedEventAttributes?.deploymentVersion?.buildId,
            behavior: e.workflowTaskCompletedEventAttributes?.versioningBehavior,
          })),
      };
    };
    const aTasks = await Promise.all(onA.map((o) => tasksOf(o.workflowId)));
    const bTasks = await Promise.all(onB.map((o) => tasksOf(o.workflowId)));
    const summary = (tasks: Awaited<ReturnType<typeof tasksOf>>[]) => ({
      failedTasks: tasks.reduce((n, t) => n + t.failedTasks, 0),
      builds: [...new Set(tasks.flatMap((t) => t.completed.map((c) => c.buildId)))],
      behaviors: [...new Set(tasks.flatMap((t) => t.completed.map((c) => c.behavior)))],
    });
    expect(summary(aTasks)).toEqual({
      failedTasks: 0,
      builds: [BUILD_A],
      behaviors: [VersioningBehavior.VERSIONING_BEHAVIOR_PINNED],
    });
    expect(summary(bTasks)).toEqual({
      failedTasks: 0,
      builds: [BUILD_B],
      behaviors: [VersioningBehavior.VERSIONING_BEHAVIOR_PINNED],
    });
    // A's orders went on (their rescuing retry) on A after B was current.
    expect(aTasks.filter((t) => t.completed.some((c) => c.at >= switchedAt - 1_000)).length).toBe(A_ORDERS);
    // B's orders ran B's code (its memo); A's ran A's.
    const memos = async (orders: typeof all) =>
      Promise.all(orders.map(async (o) => (await client.workflow.getHandle(o.workflowId).describe()).memo?.build));
    expect(await memos(onB)).toEqual(onB.map(() => BUILD_B));
    expect(await memos(onA)).toEqual(onA.map(() => undefined));

    const [aHistory] = aTasks;
    if (!aHistory) throw new Error('no order on A');
    await expect(
      Worker.runReplayHistory({ workflowBundle: bundleB }, aHistory.history, onA[0]?.workflowId),
    ).rejects.toBeInstanceOf(DeterminismViolationError);

    // A drains: no open workflow is pinned to it any more.
    await eventually(
      async () => (await describeVersion(BUILD_A)).workerDeploymentVersionInfo?.drainageInfo?.status,
      (status) => status === VersionDrainageStatus.VERSION_DRAINAGE_STATUS_DRAINED,
      { describe: `${BUILD_A} to report drained`, timeoutMs: 60_000, intervalMs: 1_000 },
    );
    const describedA = await temporalCli(
      'worker',
      'deployment',
      'describe-version',
      '--deployment-name',
      DEPLOYMENT,
      '--build-id',
      BUILD_A,
    );
    say(`describe-version ${BUILD_A}:\n${describedA.trim()}`);

    // Retired: its worker stops, then its version is deleted (once the server sees no poller).
    const [workerA] = cluster.workers;
    if (!workerA) throw new Error('the cluster has no worker');
    await workerA.stop();
    await eventually(
      () =>
        temporalCli(
          'worker',
          'deployment',
          'delete-version',
          '--deployment-name',
          DEPLOYMENT,
          '--build-id',
          BUILD_A,
        ).then(
          () => 'deleted',
          (err: Error) => err.message,
        ),
      (outcome) => outcome === 'deleted',
      { describe: `${BUILD_A} to be deleted`, timeoutMs: 150_000, intervalMs: 5_000 },
    );
    const deployment = await connection.workflowService.describeWorkerDeployment({
      namespace: NAMESPACE,
      deploymentName: DEPLOYMENT,
    });
    const info = deployment.workerDeploymentInfo;
    expect({
      current: info?.routingConfig?.currentDeploymentVersion?.buildId,
      versions: (info?.versionSummaries ?? []).map((v) => v.deploymentVersion?.buildId),
    }).toEqual({ current: BUILD_B, versions: [BUILD_B] });
    process.stdout.write(
      `[versioning-test] ${A_ORDERS} orders finished on ${BUILD_A} (pinned) after ${BUILD_B} became current; ${B_ORDERS} new ones ran on ${BUILD_B}; 0 failed workflow tasks; a history of ${BUILD_A} replayed on ${BUILD_B}: DeterminismViolationError; ${BUILD_A} drained and deleted\n`,
    );
  });
});
