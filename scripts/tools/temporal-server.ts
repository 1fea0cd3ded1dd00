import { ensureGoTool, type GoTool } from './go-tool';

/**
 * The Temporal server and its SQL schema tool, for the local cluster on Postgres
 * (`npm run start:cluster`, `npm run test:cluster`, docs/local-cluster.md). Both come from the
 * server's Go module at one pinned version, so the schema the tool applies is the one the server
 * expects. The release the Docker Compose file runs (docker/docker-compose.yml), so the local
 * cluster is what production runs; 1.31 is also the first that changes a running workflow's task
 * priority (src/orders/accepted-rescues.ts). v1.31.0 installs cleanly with `go install` (no
 * `replace` directive in its go.mod; later 1.31 patches need a newer Go than this machine's).
 */
export const TEMPORAL_SERVER_VERSION = '1.31.0';
const MODULE = 'go.temporal.io/server';
const MIN_GO = [1, 26] as const; // the server's go.mod: `go 1.26.2`

const SERVER: GoTool = {
  label: 'Temporal server',
  envVar: 'TEMPORAL_SERVER_PATH',
  command: 'temporal-server',
  module: MODULE,
  pkg: 'cmd/server',
  version: TEMPORAL_SERVER_VERSION,
  minGo: MIN_GO,
};
const SQL_TOOL: GoTool = {
  label: 'Temporal SQL tool',
  envVar: 'TEMPORAL_SQL_TOOL_PATH',
  command: 'temporal-sql-tool',
  module: MODULE,
  pkg: 'cmd/tools/sql',
  version: TEMPORAL_SERVER_VERSION,
  minGo: MIN_GO,
};

/**
 * The Web UI server: the release the pinned CLI (v1.5.1) embeds in `temporal server start-dev`,
 * built on its own (its UI assets are embedded in the Go module) and pointed at the cluster.
 */
export const TEMPORAL_UI_SERVER_VERSION = '2.42.1';
const UI_SERVER: GoTool = {
  label: 'Temporal UI server',
  envVar: 'TEMPORAL_UI_SERVER_PATH',
  command: 'temporal-ui-server',
  module: 'github.com/temporalio/ui-server/v2',
  pkg: 'cmd/server',
  version: TEMPORAL_UI_SERVER_VERSION,
  minGo: MIN_GO,
};

/** Finds or builds `temporal-server` (TEMPORAL_SERVER_PATH, PATH, the cache, `go install`). */
export function ensureTemporalServer(): Promise<string | undefined> {
  return ensureGoTool(SERVER);
}

/** Finds or builds `temporal-sql-tool` (TEMPORAL_SQL_TOOL_PATH, PATH, the cache, `go install`). */
export function ensureTemporalSqlTool(): Promise<string | undefined> {
  return ensureGoTool(SQL_TOOL);
}

/** Finds or builds `temporal-ui-server` (TEMPORAL_UI_SERVER_PATH, PATH, the cache, `go install`). */
export function ensureTemporalUiServer(): Promise<string | undefined> {
  return ensureGoTool(UI_SERVER);
}

/** Both, or an error saying what is missing and how to provide it. */
export async function requireTemporalServerTools(): Promise<{ server: string; sqlTool: string }> {
  const server = await ensureTemporalServer();
  const sqlTool = await ensureTemporalSqlTool();
  if (!server || !sqlTool) {
    throw new Error(
      `the local cluster needs the Temporal server and SQL tool v${TEMPORAL_SERVER_VERSION}: install Go ${MIN_GO.join('.')}+ (npm run tools builds them) or set TEMPORAL_SERVER_PATH and TEMPORAL_SQL_TOOL_PATH`,
    );
  }
  return { server, sqlTool };
}
