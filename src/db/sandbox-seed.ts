import { existsSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { SCOPES } from '../domain/scopes';
import { generateSecret } from '../domain/secrets';
import type { Db } from './knex';
import { createApiKey } from './repositories/api-keys';
import { createTokenizationKey } from './repositories/tokenization-keys';
import { returnedRow } from './returned-row';

export interface SandboxCredentials {
  pid: string;
  mid: string;
  siteId: string;
  clientId: string;
  clientSecret: string;
  tokenizationKey: string;
  /** A partner API key of `pid`: applications, and keys for the partner's merchants. */
  partnerClientId: string;
  partnerClientSecret: string;
  /** The operators' back-office credential of this sandbox, used when ADMIN_API_TOKEN is unset. */
  adminToken: string;
  apiBaseUrl: string;
  temporalUiUrl: string;
}

/**
 * First run of `npm start`: creates a sandbox partner, merchant, site, API client, tokenization
 * key, partner API key and operator token, and writes their credentials (secrets in clear, the
 * only place they exist so) to `file` with mode 0600. Later runs reuse the file when its merchant
 * is still in the database (adding what a file from an older version lacks); the URLs in it are
 * refreshed.
 */
export async function ensureSandboxCredentials(
  db: Db,
  file: string,
  urls: Pick<SandboxCredentials, 'apiBaseUrl' | 'temporalUiUrl'>,
): Promise<{ credentials: SandboxCredentials; created: boolean }> {
  if (existsSync(file)) {
    const saved = JSON.parse(await readFile(file, 'utf8')) as SandboxCredentials;
    const key = await db('api_keys')
      .where({ id: saved.clientId, merchant_id: saved.mid })
      .whereNull('revoked_at')
      .first();
    if (key) {
      const credentials = { ...saved, ...(await onboardingCredentials(db, saved)), ...urls };
      await writeAtomically(file, credentials);
      return { credentials, created: false };
    }
  }
  const credentials = await db.transaction(async (trx) => {
    const partner = returnedRow(await trx('partners').insert({ name: 'Sandbox Partner' }).returning('id'), 'partners');
    const merchant = returnedRow(
      await trx('merchants').insert({ partner_id: partner.id, name: 'Sandbox Merchant' }).returning('id'),
      'merchants',
    );
    const site = returnedRow(
      await trx('sites')
        .insert({
          merchant_id: merchant.id,
          name: 'Sandbox Site',
          allowed_origins: ['https://localhost', 'http://localhost:3000'],
        })
        .returning('id'),
      'sites',
    );
    const { row: key, secret: clientSecret } = await createApiKey(trx, {
      ownerType: 'merchant',
      partnerId: partner.id,
      merchantId: merchant.id,
      name: 'Sandbox key',
      scopes: [...SCOPES],
      environment: 'sandbox',
    });
    const { key: tokenizationKey } = await createTokenizationKey(trx, {
      merchantId: merchant.id,
      name: 'Sandbox tokenization key',
      environment: 'sandbox',
    });
    const ids = { pid: partner.id as string, mid: merchant.id as string };
    return {
      ...ids,
      siteId: site.id as string,
      clientId: key.id as string,
      clientSecret,
      tokenizationKey,
      ...(await onboardingCredentials(trx, ids)),
      ...urls,
    };
  });
  await writeAtomically(file, credentials);
  return { credentials, created: true };
}

/**
 * What the partner application flow needs (a partner key, the operator token), issued once: a
 * saved file that still has a live partner key keeps it.
 */
async function onboardingCredentials(
  db: Db,
  saved: Pick<SandboxCredentials, 'pid'> & Partial<SandboxCredentials>,
): Promise<Pick<SandboxCredentials, 'partnerClientId' | 'partnerClientSecret' | 'adminToken'>> {
  const adminToken = saved.adminToken ?? generateSecret('admin_sandbox');
  const live =
    saved.partnerClientId &&
    (await db('api_keys').where({ id: saved.partnerClientId, partner_id: saved.pid }).whereNull('revoked_at').first());
  if (live && saved.partnerClientSecret)
    return {
      partnerClientId: saved.partnerClientId as string,
      partnerClientSecret: saved.partnerClientSecret,
      adminToken,
    };
  const { row, secret } = await createApiKey(db, {
    ownerType: 'partner',
    partnerId: saved.pid,
    merchantId: null,
    name: 'Sandbox partner key',
    scopes: [...SCOPES],
    environment: 'sandbox',
  });
  return { partnerClientId: row.id, partnerClientSecret: secret, adminToken };
}

/** Readers (people, scripts) never see a half-written file: write beside it, then rename. */
async function writeAtomically(file: string, credentials: SandboxCredentials): Promise<void> {
  const staging = `${file}.${process.pid}.tmp`;
  await writeFile(staging, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  await rename(staging, file);
}
