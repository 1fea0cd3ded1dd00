import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';

/**
 * A throw-away self-signed certificate (its own CA) for 127.0.0.1 and localhost, valid two days,
 * written to a new temp directory: for local HTTPS webhook receivers in tests and benchmarks.
 */
export async function createLocalTls(): Promise<{ dir: string; cert: string; key: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'prs-tls-'));
  await chmod(dir, 0o755);
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
  return { dir, cert, key };
}

/** The variables scripts/with-local-tls.ts sets to the certificate and key files it made. */
export const LOCAL_TLS_ENV = { cert: 'TEST_TLS_CERT', key: 'TEST_TLS_KEY' } as const;

/** The certificate and key of scripts/with-local-tls.ts, for a local HTTPS receiver. */
export function localTlsFiles(): { cert: string; key: string } {
  const cert = process.env[LOCAL_TLS_ENV.cert];
  const key = process.env[LOCAL_TLS_ENV.key];
  if (!cert || !key) throw new Error('no local TLS files: run this under scripts/with-local-tls.ts (npm test does)');
  return { cert, key };
}
