import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';

/**
 * The test entry (`npm test` runs lint, typecheck, then this): creates a self-signed certificate
 * for 127.0.0.1 and localhost (the tests' local HTTPS webhook receivers), then runs jest with
 * NODE_EXTRA_CA_CERTS pointing at it, so every test process trusts it from its start, as a
 * merchant's deployment trusts an extra CA (Node reads that variable only at process start).
 * Arguments are passed to jest.
 */
async function main(): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'prs-tls-'));
  await chmod(dir, 0o755);
  try {
    const tls = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 2 * 86_400_000),
      extensions: [
        { name: 'basicConstraints', cA: true },
        {
          name: 'subjectAltName',
          altNames: [
            { type: 2, value: 'localhost' },
            { type: 7, ip: '127.0.0.1' },
          ],
        },
      ],
    });
    const cert = path.join(dir, 'cert.pem');
    const key = path.join(dir, 'key.pem');
    await writeFile(cert, tls.cert);
    await writeFile(key, tls.private, { mode: 0o600 });
    const jest = require.resolve('jest/bin/jest');
    const child = spawn(process.execPath, [jest, ...process.argv.slice(2)], {
      stdio: 'inherit',
      env: { ...process.env, NODE_EXTRA_CA_CERTS: cert, TEST_TLS_CERT: cert, TEST_TLS_KEY: key },
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
    process.stderr.write(`run-tests: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);
