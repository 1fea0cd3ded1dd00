import { z } from 'zod';
import { instant } from './schemas';

/** The answers of the health probes (src/api/routes/health.ts; docs/deployment.md#probes). */
const check = z.object({ status: z.enum(['ok', 'down']), latencyMs: z.number() });
export const health = z
  .looseObject({
    status: z.enum(['ok', 'unavailable']),
    environment: z.enum(['sandbox', 'production']),
    version: z.string().describe('The running release (CHANGELOG.md, the git tag `v<version>`).'),
    buildId: z
      .string()
      .nullable()
      .describe("This process's build (WORKER_BUILD_ID) when it runs as a versioned build, else null."),
    checks: z.looseObject({ database: check, temporal: check }),
    time: instant,
  })
  .meta({ id: 'Health' });
export const liveness = z.object({ status: z.literal('ok'), time: instant });
export const readiness = z
  .looseObject({
    status: z.enum(['ok', 'unavailable']),
    environment: z.enum(['sandbox', 'production']),
    checks: z.looseObject({ database: check }),
    time: instant,
  })
  .meta({ id: 'Readiness' });
export const workerHealth = z
  .looseObject({
    status: z.enum(['ok', 'unavailable']),
    environment: z.enum(['sandbox', 'production']),
    checks: z.looseObject({
      worker: check.extend({ taskQueue: z.string(), pollers: z.number().int(), heartbeat: z.boolean() }),
    }),
    time: instant,
  })
  .meta({ id: 'WorkerHealth' });
