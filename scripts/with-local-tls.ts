import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { createLocalTls, LOCAL_TLS_ENV } from './tools/local-tls';

/**
 * `tsx scripts/with-local-tls.ts <node arguments...>`: creates a throw-away self-signed
 * certificate for 127.0.0.1 and localhost (for local HTTPS webhook receivers), then runs node
 * with the given arguments and NODE_EXTRA_CA_CERTS pointing at it, so that process and its
 * children trust it from their start, as a merchant's deployment trusts an extra CA (Node reads
 * that variable only at process start). `npm test` runs jest this way; `npm run bench:webhooks`
 * its benchmark. TEST_TLS_CERT and TEST_TLS_KEY name the files for the receivers.
 */
async function main(): Promise<number> {
  const { dir, cert, key } = await createLocalTls();
  try {
    const child = spawn(process.execPath, process.argv.slice(2), {
      stdio: 'inherit',
      env: { ...process.env, NODE_EXTRA_CA_CERTS: cert, [LOCAL_TLS_ENV.cert]: cert, [LOCAL_TLS_ENV.key]: key },
    });
    for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
    return await new Promise<number>((resolve) =>
      child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))),
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`with-local-tls: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
