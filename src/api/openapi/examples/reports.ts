import { MID, ORDER_ID } from './values';

const day = {
  evaluated: 40,
  approved: 12,
  declined: 6,
  submitted: 20,
  rescued: 8,
  expired: 9,
  recovered: [{ currency: 'USD', amount: 15992 }],
  rescueRate: 0.4,
  attemptsPerRescue: 2.5,
  medianTimeToRescueSeconds: 21600,
};

/** GET /v1/reports/rescues?from=2025-03-14T00:00:00Z&to=2025-03-15T00:00:00Z&groupBy=day */
export const rescueReport = {
  from: '2025-03-14T00:00:00.000Z',
  to: '2025-03-15T00:00:00.000Z',
  groupBy: 'day',
  totals: day,
  groups: [{ key: '2025-03-14', ...day }],
  openRescues: {
    count: 3,
    items: [
      {
        orderId: ORDER_ID,
        externalOrderId: 'shop-1001',
        amount: 1999,
        currency: 'USD',
        attempts: 2,
        nextAttemptAt: '2025-03-15T09:26:53.589Z',
      },
    ],
  },
};

/** The operator's: each open rescue names its merchant. */
export const adminRescueReport = {
  ...rescueReport,
  openRescues: { ...rescueReport.openRescues, items: [{ ...rescueReport.openRescues.items[0], merchantId: MID }] },
};
