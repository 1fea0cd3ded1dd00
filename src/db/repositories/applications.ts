import { randomUUID } from 'node:crypto';
import { ACTION_BY, type ApplicationAction, type ApplicationStatus, transition } from '../../domain/applications';
import { DEFAULT_MERCHANT_SETTINGS } from '../../domain/merchant-settings';
import { originsOf } from '../../domain/site-origins';
import type { Db } from '../knex';
import type { ApplicationRecord } from '../tables/applications';
import { updateMerchantSettings } from './merchants';
import { createSite, type SiteRow } from './sites';
import { createTokenizationKey, type TokenizationKeyRow } from './tokenization-keys';

/** A row of `applications` (its columns: src/db/tables/applications.ts). */
export type ApplicationRow = ApplicationRecord;

export function applicationView(row: ApplicationRow) {
  return {
    id: row.id,
    pid: row.partner_id,
    status: row.status,
    business: row.business,
    mid: row.merchant_id,
    decisionReason: row.decision_reason,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function createApplication(
  db: Db,
  partnerId: string,
  business: ApplicationRow['business'],
): Promise<ApplicationRow> {
  const [row] = await db('applications')
    .insert({ partner_id: partnerId, status: 'DRAFT', business } as never)
    .returning('*');
  return row as ApplicationRow;
}

export async function findApplication(db: Db, id: string): Promise<ApplicationRow | undefined> {
  return db('applications').where({ id }).first();
}

export async function listApplications(
  db: Db,
  partnerId: string,
  status?: ApplicationStatus,
): Promise<ApplicationRow[]> {
  const q = db('applications').where({ partner_id: partnerId }).orderBy('created_at', 'asc');
  return status ? q.andWhere({ status }) : q;
}

/** What a conversion issues for the new merchant; the tokenization key in clear exists only here. */
export interface ConversionIssue {
  site: SiteRow;
  tokenizationKey: { row: TokenizationKeyRow; key: string };
}

export type TransitionOutcome =
  | { kind: 'done'; row: ApplicationRow; issued?: ConversionIssue }
  | { kind: 'refused'; status: ApplicationStatus };

/**
 * Applies one transition and records its event in the outbox, atomically (the row is locked, so
 * two concurrent transitions cannot both pass). Conversion creates the merchant, its first site
 * (allowed origins: those of the application's siteOrigins), its settings and its first
 * tokenization key.
 */
export async function applyTransition(
  db: Db,
  id: string,
  action: ApplicationAction,
  input: { reason?: string | null; isTestMode: boolean; now: Date },
): Promise<TransitionOutcome> {
  return db.transaction(async (trx) => {
    const row = (await trx('applications').where({ id }).forUpdate().first()) as ApplicationRow;
    const next = transition(row.status, action);
    if (!next) return { kind: 'refused', status: row.status };
    let merchantId = row.merchant_id;
    let issued: ConversionIssue | undefined;
    if (action === 'convert') {
      const [merchant] = await trx('merchants')
        .insert({ partner_id: row.partner_id, name: row.business.legalName })
        .returning('id');
      if (!merchant) throw new Error('merchants insert returned no row');
      merchantId = merchant.id;
      const site = await createSite(trx, {
        merchantId,
        name: row.business.website ?? row.business.legalName,
        allowedOrigins: originsOf(row.business.siteOrigins ?? []),
      });
      const tokenizationKey = await createTokenizationKey(trx, {
        merchantId,
        name: 'First tokenization key',
        environment: input.isTestMode ? 'sandbox' : 'production',
      });
      issued = { site, tokenizationKey };
      await updateMerchantSettings(
        trx,
        merchantId,
        { ...DEFAULT_MERCHANT_SETTINGS, technicalContactEmail: row.business.contactEmail },
        input.now,
      );
    }
    const [updated] = (await trx('applications')
      .where({ id })
      .update({
        status: next.to,
        merchant_id: merchantId,
        // The operator's decision only: a partner's reason (submit, cancel) goes in its event.
        decision_reason: ACTION_BY[action] === 'operator' ? (input.reason ?? row.decision_reason) : row.decision_reason,
        updated_at: input.now,
      })
      .returning('*')) as ApplicationRow[];
    await trx('events').insert({
      id: randomUUID(),
      name: next.event,
      merchant_id: merchantId,
      partner_id: row.partner_id,
      data: JSON.stringify({
        ApplicationId: id,
        Status: next.to,
        PreviousStatus: row.status,
        Mid: merchantId,
        Reason: input.reason ?? null,
      }),
      is_test_mode: input.isTestMode,
      occurred_at: input.now,
    });
    return { kind: 'done', row: updated as ApplicationRow, issued };
  });
}
