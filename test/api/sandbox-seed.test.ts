import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { acceptsSecret } from '../../src/db/repositories/api-keys';
import { ensureSandboxCredentials } from '../../src/db/sandbox-seed';
import { createTestDatabase, type TestDatabase } from '../helpers/database';

const urls = { apiBaseUrl: 'http://127.0.0.1:3000', temporalUiUrl: 'http://127.0.0.1:8233' };

/** The `npm start` seed on a real database: the partner key and operator token, and files written by older versions. */
describe('the sandbox seed', () => {
  let database: TestDatabase;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dir = await mkdtemp(path.join(os.tmpdir(), 'prs-seed-'));
    file = path.join(dir, 'sandbox-credentials.json');
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await database?.drop();
  });

  const partnerKeyWorks = async (id: string, secret: string, pid: string) => {
    const row = await database.db('api_keys').where({ id }).first();
    return row?.owner_type === 'partner' && row?.partner_id === pid && acceptsSecret(row, secret, new Date());
  };

  it('issues a partner key of the seeded partner and an operator token, in a 0600 file, reused as they are', async () => {
    const { credentials, created } = await ensureSandboxCredentials(database.db, file, urls);
    expect(created).toBe(true);
    expect(await partnerKeyWorks(credentials.partnerClientId, credentials.partnerClientSecret, credentials.pid)).toBe(
      true,
    );
    expect(credentials.adminToken.length).toBeGreaterThanOrEqual(32);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const again = await ensureSandboxCredentials(database.db, file, urls);
    expect(again).toEqual({ credentials, created: false });
  });

  it('adds the partner key and operator token to a file from an older version, keeping the rest', async () => {
    const current = JSON.parse(await readFile(file, 'utf8'));
    const { partnerClientId, partnerClientSecret, adminToken, ...older } = current;
    await writeFile(file, JSON.stringify(older));
    const { credentials, created } = await ensureSandboxCredentials(database.db, file, urls);
    expect(created).toBe(false);
    expect(credentials).toMatchObject(older);
    expect(credentials.partnerClientId).not.toBe(partnerClientId);
    expect(credentials.adminToken).not.toBe(adminToken);
    expect(await partnerKeyWorks(credentials.partnerClientId, credentials.partnerClientSecret, older.pid)).toBe(true);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual(credentials);
  });

  it('replaces a revoked partner key, keeping the operator token', async () => {
    const before = JSON.parse(await readFile(file, 'utf8'));
    await database.db('api_keys').where({ id: before.partnerClientId }).update({ revoked_at: new Date() });
    const { credentials } = await ensureSandboxCredentials(database.db, file, urls);
    expect(credentials.partnerClientId).not.toBe(before.partnerClientId);
    expect(credentials.adminToken).toBe(before.adminToken);
    expect(await partnerKeyWorks(credentials.partnerClientId, credentials.partnerClientSecret, before.pid)).toBe(true);
  });
});
