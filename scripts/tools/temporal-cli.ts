import { ensureGoTool, type GoTool } from './go-tool';

/**
 * The Temporal CLI gives the dev server and its Web UI. Pinned: from v1.6.0 the CLI's go.mod
 * carries a `replace` directive, so `go install` of later versions fails.
 */
export const TEMPORAL_CLI_VERSION = '1.5.1';
const TEMPORAL_CLI: GoTool = {
  label: 'Temporal CLI',
  envVar: 'TEMPORAL_CLI_PATH',
  command: 'temporal',
  cacheName: 'temporal-cli',
  module: 'github.com/temporalio/cli',
  pkg: 'cmd/temporal',
  version: TEMPORAL_CLI_VERSION,
  minGo: [1, 25],
  otherwise: "falling back to the SDK's download",
};

/**
 * Finds the Temporal CLI: TEMPORAL_CLI_PATH, then PATH, then the cache, then builds it with
 * `go install`. Returns undefined when none of these works, so the caller can fall back to the
 * SDK's own download (which works for users on the open internet).
 */
export function ensureTemporalCli(): Promise<string | undefined> {
  return ensureGoTool(TEMPORAL_CLI);
}
