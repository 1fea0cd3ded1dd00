// Container health check (docker/Dockerfile HEALTHCHECK): exit 0 when HEALTHCHECK_URL (default:
// the API's liveness probe on PORT) answers 2xx within 2 s, else 1. Plain Node, no dependencies.
const url = process.env.HEALTHCHECK_URL || `http://127.0.0.1:${process.env.PORT || 3000}/v1/health/live`;
fetch(url, { signal: AbortSignal.timeout(2000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  () => process.exit(1),
);
