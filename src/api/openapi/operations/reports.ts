import { adminRescueReportQuery, rescueReportQuery } from '../../routes/rescue-reports';
import { rescueReport } from '../answers/reports';
import * as example from '../examples/reports';
import { type Operation, PAYMENT_ERRORS } from '../registry';

const CSV =
  '`format=csv` answers the same figures as `text/csv`: one row per group and currency, then one total ' +
  'row per currency (columns in docs/reports.md).';

/** The rescue reports (docs/reports.md). */
export const reportOperations: Operation[] = [
  {
    tag: 'Reports',
    auth: 'bearer',
    scope: 'payments',
    method: 'get',
    path: '/v1/reports/rescues',
    operationId: 'getRescueReport',
    summary: "The merchant's rescue report: counts, recovered amounts and rates, and the open rescues",
    description:
      'Orders created in [`from`, `to`) (default: the 30 days before now; at most 366 days), grouped by ' +
      `\`groupBy\` (day, declineCode, flow, currency). ${CSV} A merchant API key only, or a dashboard link ` +
      'token (`Bearer dl1.…`, docs/dashboard.md) as a read-only credential of its merchant. docs/reports.md.',
    query: rescueReportQuery,
    responses: {
      200: { description: 'The report', body: rescueReport, example: example.rescueReport },
    },
    errors: [...PAYMENT_ERRORS, 'dashboard_link_invalid', 'dashboard_link_expired', 'validation_failed'],
  },
];

/** The operator's rescue report (listed with the other back-office operations). */
export const adminReportOperations: Operation[] = [
  {
    tag: 'Back office',
    auth: 'admin',
    method: 'get',
    path: '/v1/admin/reports/rescues',
    operationId: 'getOperatorRescueReport',
    summary: 'The rescue report across merchants, of one partner or one merchant',
    description: `As GET /v1/reports/rescues, across merchants; \`partnerId\` and \`merchantId\` narrow it. ${CSV}`,
    query: adminRescueReportQuery,
    responses: {
      200: { description: 'The report', body: rescueReport, example: example.adminRescueReport },
    },
    errors: ['invalid_admin_token', 'validation_failed'],
  },
];
