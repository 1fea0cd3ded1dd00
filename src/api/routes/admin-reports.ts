import type Router from '@koa/router';
import type { Db } from '../../db/knex';
import type { Clock } from '../../domain/clock';
import { rescueReport } from '../../reports/rescue-report';
import { guardRoutes } from '../guard';
import { adminAuth } from '../middleware/admin-auth';
import { apiRouter } from '../router';
import { parseInput } from '../validation';
import { adminRescueReportQuery, answerReport, reportRange } from './rescue-reports';

/**
 * The operators' back office, reports: the rescue report across merchants (admin credential),
 * optionally of one partner's merchants or of one merchant; each open rescue names its merchant.
 */
export function adminReportRoutes(deps: { db: Db; clock: Clock; adminToken: string | undefined }): Router {
  const router = apiRouter();
  router.get('/v1/admin/reports/rescues', async (ctx) => {
    const q = parseInput(adminRescueReportQuery, ctx.query);
    const report = await rescueReport(deps.db, {
      scope: { partnerId: q.partnerId, merchantId: q.merchantId },
      ...reportRange(q, deps.clock.now()),
      groupBy: q.groupBy,
      withMerchant: true,
      medians: q.format === 'csv' ? 'currencies' : 'groups',
    });
    answerReport(ctx, report, q.format);
  });
  return guardRoutes(router, adminAuth(deps.adminToken));
}
