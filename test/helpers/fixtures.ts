import type { Db } from '../../src/db/knex';
import { createApiKey } from '../../src/db/repositories/api-keys';
import { returnedRow } from '../../src/db/returned-row';
import { SCOPES, type Scope } from '../../src/domain/scopes';
import { generateSecret, hashSecret } from '../../src/domain/secrets';

/** A partner with one merchant, seeded straight into the database (as the onboarding would). */
export async function seedMerchant(db: Db, partnerId?: string) {
  const pid =
    partnerId ?? returnedRow(await db('partners').insert({ name: 'Test Partner' }).returning('id'), 'partners').id;
  const merchant = returnedRow(
    await db('merchants').insert({ partner_id: pid, name: 'Test Merchant' }).returning('id'),
    'merchants',
  );
  const tokenizationKey = generateSecret('tk_sandbox');
  await db('tokenization_keys').insert({ merchant_id: merchant.id, key_hash: hashSecret(tokenizationKey) });
  return { pid, mid: merchant.id, tokenizationKey };
}

export async function seedKey(
  db: Db,
  owner: { pid: string; mid?: string },
  scopes: Scope[] = [...SCOPES],
): Promise<{ clientId: string; clientSecret: string }> {
  const { row, secret } = await createApiKey(db, {
    ownerType: owner.mid ? 'merchant' : 'partner',
    partnerId: owner.pid,
    merchantId: owner.mid ?? null,
    name: 'test key',
    scopes,
    environment: 'sandbox',
  });
  return { clientId: row.id, clientSecret: secret };
}

/** Client-credentials grant through the real endpoint; returns the bearer token. */
export async function accessToken(baseUrl: string, key: { clientId: string; clientSecret: string }): Promise<string> {
  const res = await fetch(`${baseUrl}/v1/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'client_credentials',
      client_id: key.clientId,
      client_secret: key.clientSecret,
    }),
  });
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { access_token: string }).access_token;
}
