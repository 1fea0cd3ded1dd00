import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { cacheDir, commandOutput, isExecutable, onPath, progress, runLogged } from './tools/cache';
import { LOW_LATENCY } from './tools/temporal-dev-server';

/**
 * `npm run check:deploy` (also run by .ci/run): checks the deployment files without a Docker
 * engine or a Kubernetes cluster.
 *
 * - Helm chart (deploy/helm/payment-rescue): `helm lint --strict` and `helm template` with the
 *   default values and with every optional part on; the rendered manifests must hold what
 *   docs/deployment.md promises (hook Job, probes, HPA, PDBs, resources, non-root).
 * - docker/docker-compose.yml: validated against the Compose Specification's JSON schema
 *   (check-jsonschema's vendored `compose-spec`); `docker compose config` / `docker-compose
 *   config` too when one is installed; its Temporal server's dynamic config holds every setting of
 *   the dev server's (LOW_LATENCY); plus the rules of issue 13 (no auto-setup image, no tctl,
 *   api and worker after the one-shot migration).
 * - Monitoring (deploy/helm/payment-rescue/files): the Prometheus rules file parses (YAML) into
 *   rule groups of the rule-file format (check-jsonschema, scripts/check-deploy/), every alert
 *   has its entry in docs/runbook.md, the Grafana dashboard is JSON with a query in every panel;
 *   the chart renders them as a PrometheusRule and a grafana_dashboard ConfigMap when enabled.
 * - docker/Dockerfile and .dockerignore: Node 22, multi-stage, non-root, HEALTHCHECK, prebuilt
 *   workflow bundle; the context leaves out .data, node_modules, .git.
 *
 * Tools are found like the Temporal CLI (scripts/tools/): HELM_PATH, PATH, the user cache,
 * else built: helm with `go install` (pinned), check-jsonschema in a Python venv from PyPI.
 */

const ROOT = path.resolve(__dirname, '..');
const HELM_VERSION = '3.19.0';
const CHECK_JSONSCHEMA_VERSION = '0.39.0';
const CHART = path.join(ROOT, 'deploy/helm/payment-rescue');
const COMPOSE = path.join(ROOT, 'docker/docker-compose.yml');
const KUBE_VERSION = '1.30.0';
const RULES = path.join(CHART, 'files/prometheus-rules.yaml');
const DASHBOARD = path.join(CHART, 'files/grafana-dashboard.json');
const RUNBOOK = path.join(ROOT, 'docs/runbook.md');
const RULES_SCHEMA = path.join(ROOT, 'scripts/check-deploy/prometheus-rules.schema.json');

const failures: string[] = [];
const ok = (what: string) => process.stdout.write(`[check:deploy] ok    ${what}\n`);
function check(condition: boolean, what: string): void {
  if (condition) ok(what);
  else {
    failures.push(what);
    process.stdout.write(`[check:deploy] FAIL  ${what}\n`);
  }
}

function run(command: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

async function ensureHelm(): Promise<string> {
  const fromEnv = process.env.HELM_PATH;
  if (fromEnv) return fromEnv;
  const fromPath = onPath('helm');
  if (fromPath) return fromPath;
  const cached = path.join(cacheDir(), `helm-v${HELM_VERSION}`, 'helm');
  if (isExecutable(cached)) return cached;
  if (!(await commandOutput('go', ['version']))) throw new Error('helm is not installed and Go is missing to build it');
  progress(`helm: building v${HELM_VERSION} with go install (first run only, a few minutes)...`);
  const target = path.dirname(cached);
  await mkdir(path.dirname(target), { recursive: true });
  const staging = await mkdtemp(`${target}.building-`);
  try {
    await runLogged('go', ['install', `helm.sh/helm/v3/cmd/helm@v${HELM_VERSION}`], {
      env: { ...process.env, GOBIN: staging, CGO_ENABLED: '0' },
      logFile: path.join(cacheDir(), 'logs', 'helm-build.log'),
    });
    await rm(target, { recursive: true, force: true });
    await rename(staging, target);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return cached;
}

async function ensureCheckJsonschema(): Promise<string> {
  const fromPath = onPath('check-jsonschema');
  if (fromPath) return fromPath;
  const venv = path.join(cacheDir(), `check-jsonschema-${CHECK_JSONSCHEMA_VERSION}`);
  const bin = path.join(venv, 'bin', 'check-jsonschema');
  if (isExecutable(bin)) return bin;
  progress(`check-jsonschema: installing ${CHECK_JSONSCHEMA_VERSION} into ${venv} (pip, first run only)`);
  await rm(venv, { recursive: true, force: true });
  const log = path.join(cacheDir(), 'logs', 'check-jsonschema-install.log');
  await runLogged('python3', ['-m', 'venv', venv], { logFile: log });
  await runLogged(path.join(venv, 'bin', 'pip'), ['install', '-q', `check-jsonschema==${CHECK_JSONSCHEMA_VERSION}`], {
    logFile: log,
  });
  return bin;
}

/** The rendered manifests, split into documents, each with its kind and name. */
function documents(rendered: string): Array<{ kind: string; name: string; text: string }> {
  return rendered
    .split(/^---\s*$/m)
    .map((text) => ({
      kind: /^kind:\s*(\S+)/m.exec(text)?.[1] ?? '',
      name: /^metadata:\s*\n\s+name:\s*(\S+)/m.exec(text)?.[1] ?? '',
      text,
    }))
    .filter((d) => d.kind);
}

async function checkHelm(): Promise<void> {
  const helm = await ensureHelm();
  ok(`helm: ${(await run(helm, ['version', '--short'])).out.trim()} (${helm})`);
  const lint = await run(helm, ['lint', '--strict', CHART, '--kube-version', KUBE_VERSION]);
  check(lint.code === 0, `helm lint --strict deploy/helm/payment-rescue${lint.code === 0 ? '' : `\n${lint.out}`}`);

  const base = ['template', 'rescue', CHART, '--kube-version', KUBE_VERSION];
  const defaults = await run(helm, base);
  check(defaults.code === 0, `helm template (default values)${defaults.code === 0 ? '' : `\n${defaults.out}`}`);
  const all = await run(helm, [
    ...base,
    '--set',
    'temporal.tls.enabled=true,temporal.tls.secretName=temporal-mtls,temporal.tls.serverName=temporal.example.com',
    '--set',
    'serviceMonitor.enabled=true,secret.existingSecret=rescue-env,worker.autoscaling.enabled=false',
    '--set',
    'prometheusRule.enabled=true,grafanaDashboard.enabled=true',
  ]);
  check(
    all.code === 0,
    `helm template (TLS, ServiceMonitor, rules, dashboard, existing Secret, no HPA)${all.code === 0 ? '' : `\n${all.out}`}`,
  );
  const missingTlsSecret = await run(helm, [...base, '--set', 'temporal.tls.enabled=true']);
  check(missingTlsSecret.code !== 0, 'helm template refuses TLS without temporal.tls.secretName');

  const docs = documents(defaults.out);
  const kinds = docs.map((d) => `${d.kind}/${d.name}`);
  for (const want of [
    'Deployment/rescue-payment-rescue-api',
    'Deployment/rescue-payment-rescue-worker',
    'Service/rescue-payment-rescue-api',
    'Job/rescue-payment-rescue-migrate',
    'HorizontalPodAutoscaler/rescue-payment-rescue-worker',
    'PodDisruptionBudget/rescue-payment-rescue-api',
    'PodDisruptionBudget/rescue-payment-rescue-worker',
    'Secret/rescue-payment-rescue-env',
    'ConfigMap/rescue-payment-rescue-env',
  ]) {
    check(kinds.includes(want), `rendered: ${want}`);
  }
  const job = docs.find((d) => d.kind === 'Job')?.text ?? '';
  check(/helm\.sh\/hook: pre-install,pre-upgrade/.test(job), 'migration Job is a pre-install/pre-upgrade hook');
  // Hooks are kept outside the release: without pre-rollback a rollback's pods read the newer values.
  for (const kind of ['ConfigMap', 'Secret']) {
    const doc = docs.find((d) => d.kind === kind && d.name === 'rescue-payment-rescue-env')?.text ?? '';
    check(
      /helm\.sh\/hook: pre-install,pre-upgrade,pre-rollback/.test(doc),
      `the env ${kind} is restored by a rollback`,
    );
  }
  check(job.includes('dist/scripts/migrate.js'), 'migration Job runs dist/scripts/migrate.js');
  const api = docs.find((d) => d.name.endsWith('-api') && d.kind === 'Deployment')?.text ?? '';
  check(/livenessProbe:[\s\S]*?path: \/v1\/health\/live/.test(api), 'api liveness probe on /v1/health/live');
  check(/readinessProbe:[\s\S]*?path: \/v1\/health\/ready/.test(api), 'api readiness probe on /v1/health/ready');
  check(/name: MIGRATE_ON_START\s+value: "false"/.test(api), 'api does not migrate on start');
  // Serving on while the endpoint's removal reaches the load balancer, then the 30 s drain.
  const preStop = Number(/preStop:\s+exec:\s+command: \["sleep", "(\d+)"\]/.exec(api)?.[1] ?? 0);
  const grace = Number(/terminationGracePeriodSeconds: (\d+)/.exec(api)?.[1] ?? 0);
  check(preStop > 0 && grace >= preStop + 30, `api: preStop sleep ${preStop} s, then a 30 s drain within ${grace} s`);
  const worker = docs.find((d) => d.name.endsWith('-worker') && d.kind === 'Deployment')?.text ?? '';
  // The worker's own probes: its process and Temporal workers, never the SDK exporter (own threads).
  const healthPort = /name: WORKER_HEALTH_PORT\s+value: "(\d+)"/.exec(worker)?.[1];
  check(
    healthPort !== undefined && new RegExp(`name: health\\s+containerPort: ${healthPort}\\b`).test(worker),
    'worker serves its probes on WORKER_HEALTH_PORT, the container port "health"',
  );
  check(/name: HOST\s+value: 0\.0\.0\.0/.test(worker), 'worker probes listen on the pod address (HOST=0.0.0.0)');
  check(
    /livenessProbe:[\s\S]*?path: \/health\/live\s+port: health/.test(worker),
    'worker liveness probe on /health/live',
  );
  check(
    /readinessProbe:[\s\S]*?path: \/health\/ready\s+port: health/.test(worker),
    'worker readiness probe on /health/ready',
  );
  // The worker's counters and the SDK's on its METRICS_PORT, the API's on its own: never the API port.
  const workerMetricsPort = /name: METRICS_PORT\s+value: "(\d+)"/.exec(worker)?.[1];
  check(
    workerMetricsPort !== undefined &&
      new RegExp(`name: metrics\\s+containerPort: ${workerMetricsPort}\\b`).test(worker),
    'worker serves its metrics (its counters and the SDK\'s) on METRICS_PORT, the container port "metrics"',
  );
  const apiMetricsPort = /name: METRICS_PORT\s+value: "(\d+)"/.exec(api)?.[1];
  const apiPort = /name: http\s+containerPort: (\d+)/.exec(api)?.[1];
  check(
    apiMetricsPort !== undefined && apiMetricsPort !== apiPort,
    'api serves /metrics on METRICS_PORT, not on its API port',
  );
  check(
    !/name: memory/.test(docs.find((d) => d.kind === 'HorizontalPodAutoscaler')?.text ?? ''),
    'worker HPA has no memory target (memory follows the cache bound)',
  );
  for (const [name, text] of [
    ['api', api],
    ['worker', worker],
    ['migrate', job],
  ] as const) {
    check(/resources:\s*\n\s+limits:/.test(text) && /requests:/.test(text), `${name}: resources set`);
    check(/runAsNonRoot: true/.test(text), `${name}: runs as non-root`);
  }
  // Least privilege: each process is given only the Secret's keys it reads, never the whole Secret.
  const secretKeys = (text: string) => [...text.matchAll(/secretKeyRef:\s+name: \S+\s+key: (\w+)/g)].map((m) => m[1]);
  check(
    [api, worker, job].every((text) => !/secretRef:/.test(text)) &&
      !secretKeys(api).some((k) => k === 'STRIPE_SECRET_KEY' || k === 'SMTP_URL') &&
      secretKeys(worker).includes('STRIPE_SECRET_KEY') &&
      secretKeys(job).join() === 'DATABASE_URL',
    'each pod reads only its own Secret keys: no processor key nor SMTP in the API, only DATABASE_URL in the Job',
  );
  const withTls = documents(all.out);
  const tlsWorker = withTls.find((d) => d.name.endsWith('-worker') && d.kind === 'Deployment')?.text ?? '';
  check(
    ['TEMPORAL_TLS_CLIENT_CERT_PATH', 'TEMPORAL_TLS_CLIENT_KEY_PATH', 'TEMPORAL_TLS_SERVER_CA_CERT_PATH'].every((v) =>
      tlsWorker.includes(v),
    ) && tlsWorker.includes('secretName: temporal-mtls'),
    'TLS values mount the certificate Secret and set the TEMPORAL_TLS_* paths',
  );
  const monitor = withTls.find((d) => d.kind === 'ServiceMonitor')?.text ?? '';
  check(/port: metrics/.test(monitor), "ServiceMonitor rendered when enabled, scraping every pod's metrics port");
  const monitorWith = async (values: string) =>
    documents((await run(helm, [...base, '--set', `serviceMonitor.enabled=true,${values}`])).out).find(
      (d) => d.kind === 'ServiceMonitor',
    )?.text ?? '';
  const existing = 'secret.existingSecret=rescue-env';
  check(
    /key: METRICS_TOKEN/.test(await monitorWith(existing)) &&
      /port: metrics/.test(await monitorWith(`${existing},serviceMonitor.sendMetricsToken=false`)) &&
      !/METRICS_TOKEN/.test(await monitorWith(`${existing},serviceMonitor.sendMetricsToken=false`)),
    'ServiceMonitor: an existingSecret without METRICS_TOKEN scrapes with no token (serviceMonitor.sendMetricsToken=false)',
  );
  const rule = withTls.find((d) => d.kind === 'PrometheusRule')?.text ?? '';
  check(
    alertNames(readFileSync(RULES, 'utf8')).every((name) => rule.includes(`alert: ${name}`)),
    'PrometheusRule rendered when enabled, with every alert of files/prometheus-rules.yaml',
  );
  const dashboard = withTls.find((d) => d.kind === 'ConfigMap' && d.name.endsWith('-dashboard'))?.text ?? '';
  check(
    /grafana_dashboard: "1"/.test(dashboard) && dashboard.includes('"uid": "payment-rescue"'),
    'Grafana dashboard ConfigMap rendered when enabled, labelled grafana_dashboard',
  );
  check(!/WORKER_BUILD_ID/.test(worker), 'worker unversioned unless worker.versioning.enabled');
  // Worker Versioning: the build id is the image tag, the deployment name the release's; a build
  // still draining keeps a worker Deployment of its own image (docs/deployment.md#versioned-workers).
  const versioned = await run(helm, [
    ...base,
    '--set',
    'image.tag=1.1.0,worker.versioning.enabled=true,worker.versioning.draining[0].buildId=1.0.0',
  ]);
  const versionedDocs = documents(versioned.out).filter((d) => d.kind === 'Deployment');
  const versionOf = (text: string) => ({
    image: /image: (\S+)/.exec(text)?.[1],
    deploymentName: /name: WORKER_DEPLOYMENT_NAME\s+value: "([^"]+)"/.exec(text)?.[1],
    buildId: /name: WORKER_BUILD_ID\s+value: "([^"]+)"/.exec(text)?.[1],
  });
  const current = versionedDocs.find((d) => d.name === 'rescue-payment-rescue-worker')?.text ?? '';
  const draining = versionedDocs.find((d) => d.name === 'rescue-payment-rescue-worker-draining-1-0-0')?.text ?? '';
  check(
    versioned.code === 0 &&
      JSON.stringify(versionOf(current)) ===
        JSON.stringify({ image: 'payment-rescue:1.1.0', deploymentName: 'rescue-payment-rescue', buildId: '1.1.0' }),
    'versioned worker: WORKER_DEPLOYMENT_NAME from the release, WORKER_BUILD_ID the image tag',
  );
  check(
    JSON.stringify(versionOf(draining)) ===
      JSON.stringify({ image: 'payment-rescue:1.0.0', deploymentName: 'rescue-payment-rescue', buildId: '1.0.0' }) &&
      /component: worker-draining-1-0-0/.test(draining),
    'a draining build keeps a worker Deployment of its own image and build id, outside the current selector',
  );
  const none = documents(defaults.out).map((d) => d.kind);
  check(!none.includes('PrometheusRule'), 'no PrometheusRule unless prometheusRule.enabled');
}

/** `- alert: Name` entries of a Prometheus rules file. */
function alertNames(rules: string): string[] {
  return [...rules.matchAll(/^\s*-\s*alert:\s*(\S+)\s*$/gm)].map((m) => m[1] ?? '');
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}

async function checkMonitoring(): Promise<void> {
  const validator = await ensureCheckJsonschema();
  const parsed = await run(validator, ['--schemafile', RULES_SCHEMA, RULES]);
  check(
    parsed.code === 0,
    `files/prometheus-rules.yaml parses into Prometheus rule groups${parsed.code ? `\n${parsed.out}` : ''}`,
  );
  const rules = readFileSync(RULES, 'utf8');
  const alerts = alertNames(rules);
  check(alerts.length > 0, `files/prometheus-rules.yaml: ${alerts.length} alerts`);
  check(new Set(alerts).size === alerts.length, 'files/prometheus-rules.yaml: alert names are unique');
  const runbook = readFileSync(RUNBOOK, 'utf8');
  const anchors = new Set([...runbook.matchAll(/^#{2,4} (.+)$/gm)].map((m) => anchorOf(m[1] ?? '')));
  for (const alert of alerts) {
    check(anchors.has(alert.toLowerCase()), `docs/runbook.md has an entry for the alert ${alert}`);
    check(rules.includes(`runbook: docs/runbook.md#${alert.toLowerCase()}`), `alert ${alert} links its runbook entry`);
  }
  let dashboard: {
    uid?: unknown;
    panels?: Array<{ type?: string; title?: string; targets?: Array<{ expr?: string }> }>;
  };
  try {
    dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8'));
  } catch (err) {
    check(false, `files/grafana-dashboard.json is JSON: ${err instanceof Error ? err.message : String(err)}`);
    return;
  }
  const graphs = (dashboard.panels ?? []).filter((p) => p.type !== 'row');
  check(dashboard.uid === 'payment-rescue' && graphs.length > 0, 'Grafana dashboard: uid payment-rescue, panels');
  const empty = graphs.filter((p) => !p.targets?.length || p.targets.some((t) => !t.expr)).map((p) => p.title);
  check(empty.length === 0, `Grafana dashboard: every panel has its queries${empty.length ? ` (not: ${empty})` : ''}`);
}

async function checkCompose(): Promise<void> {
  const validator = await ensureCheckJsonschema();
  const schema = await run(validator, ['--builtin-schema', 'vendor.compose-spec', COMPOSE]);
  check(
    schema.code === 0,
    `docker-compose.yml against the Compose Specification schema${schema.code ? `\n${schema.out}` : ''}`,
  );
  for (const [command, args] of [
    ['docker', ['compose', '-f', COMPOSE, 'config', '-q']],
    ['docker-compose', ['-f', COMPOSE, 'config', '-q']],
  ] as const) {
    if (command === 'docker' && !(await commandOutput('docker', ['compose', 'version']))) continue;
    if (command === 'docker-compose' && !onPath('docker-compose')) continue;
    const config = await run(command, [...args]);
    check(config.code === 0, `${command} ${args.join(' ')}${config.code ? `\n${config.out}` : ''}`);
  }

  const text = readFileSync(COMPOSE, 'utf8');
  check(!/temporalio\/auto-setup/.test(text), 'compose: no deprecated temporalio/auto-setup image');
  check(!/\btctl\b/.test(text), 'compose: no tctl');
  for (const image of ['temporalio/server:', 'temporalio/admin-tools:', 'temporalio/ui:']) {
    check(text.includes(image), `compose: uses ${image.slice(0, -1)}`);
  }
  const services = new Set([...text.matchAll(/^ {2}([a-z][a-z0-9-]*):\s*$/gm)].map((m) => m[1]));
  const section = (name: string) =>
    new RegExp(`^ {2}${name}:\\s*$([\\s\\S]*?)(?=^ {2}[a-z][a-z0-9-]*:\\s*$|^\\S)`, 'm');
  for (const name of ['api', 'worker']) {
    const body = section(name).exec(text)?.[1] ?? '';
    check(
      /migrate:\s*\n\s+condition: service_completed_successfully/.test(body),
      `compose: ${name} starts after the one-shot migrate service succeeded`,
    );
  }
  const workerService = section('worker').exec(text)?.[1] ?? '';
  const workerHealthPort = /WORKER_HEALTH_PORT: "(\d+)"/.exec(workerService)?.[1];
  check(
    workerHealthPort !== undefined &&
      workerService.includes(`HEALTHCHECK_URL: http://127.0.0.1:${workerHealthPort}/health/ready`),
    "compose: the worker's health check is its own readiness probe (WORKER_HEALTH_PORT)",
  );
  // The Temporal server's dynamic config: every setting the dev server and the local cluster run.
  const dynamicConfig = readFileSync(path.join(ROOT, 'docker/temporal-dynamicconfig.yaml'), 'utf8');
  check(
    text.includes('DYNAMIC_CONFIG_FILE_PATH') && text.includes('./temporal-dynamicconfig.yaml:'),
    'compose: the Temporal server reads docker/temporal-dynamicconfig.yaml',
  );
  for (const setting of LOW_LATENCY) {
    const [key, value] = setting.split('=');
    check(dynamicConfig.includes(`\n${key}:\n  - value: ${value}\n`), `compose: Temporal runs ${setting}`);
  }
  const targets = new Set([...text.matchAll(/^ {6}([a-z][a-z0-9-]*):\s*\n {8}condition:/gm)].map((m) => m[1] ?? ''));
  const unknown = [...targets].filter((t) => !services.has(t));
  check(
    unknown.length === 0,
    `compose: every depends_on target is a service${unknown.length ? ` (not: ${unknown})` : ''}`,
  );
}

function checkDockerfile(): void {
  const dockerfile = readFileSync(path.join(ROOT, 'docker/Dockerfile'), 'utf8');
  check(/ARG NODE_IMAGE=node:22-/.test(dockerfile), 'Dockerfile: Node 22 LTS base');
  check((dockerfile.match(/^FROM /gm) ?? []).length >= 2, 'Dockerfile: multi-stage');
  check(/^USER (?!root)\S+/m.test(dockerfile), 'Dockerfile: non-root user');
  check(/^HEALTHCHECK /m.test(dockerfile), 'Dockerfile: HEALTHCHECK');
  check(dockerfile.includes('scripts/build-workflow-bundle.ts'), 'Dockerfile: workflow bundle prebuilt');
  check(existsSync(path.join(ROOT, 'docker/healthcheck.js')), 'Dockerfile: healthcheck script exists');
  const ignore = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n');
  for (const entry of ['.git', '.data', 'node_modules', 'dist']) {
    check(ignore.includes(entry), `.dockerignore: ${entry}`);
  }
}

async function main(): Promise<void> {
  checkDockerfile();
  await checkMonitoring();
  await checkCompose();
  await checkHelm();
  if (failures.length) {
    process.stdout.write(`[check:deploy] ${failures.length} check(s) failed\n`);
    process.exit(1);
  }
  process.stdout.write('[check:deploy] all deployment checks passed\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`[check:deploy] failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
