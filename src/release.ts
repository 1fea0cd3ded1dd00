import { version } from '../package.json';

/**
 * The running release: package.json's version, which names CHANGELOG.md's section and the git tag
 * (`v<version>`). `/v1/health` and the OpenAPI document's `info.version` show it; the build id a
 * versioned worker polls as (WORKER_BUILD_ID, docs/deployment.md) is shown beside it when set.
 */
export const SERVICE_VERSION: string = version;
